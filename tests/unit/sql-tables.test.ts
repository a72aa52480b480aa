/**
 * Typed SQL (docs/decisions/0041-typed-sql.md): the tables raw statements are built against come
 * from the Prisma schema, on both providers. Most of this file is checked by `npm run typecheck`:
 * each `@ts-expect-error` below fails typecheck if a statement naming a column that does not
 * exist (or a value of the wrong type) ever compiles again, i.e. if the typing is lost.
 */
import type { InferResult } from "kysely";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { Prisma } from "~/generated/prisma/client";
import type { Prisma as PostgresPrisma } from "~/generated/prisma-postgresql/client";
import { provider } from "~/utils/db.server";
import { query } from "~/utils/sql.server";
import type { Tables } from "~/utils/sql-tables";

type Scalars<Models> = { [M in keyof Models]: Models[M] extends { payload: { scalars: infer S } } ? S : never };

describe("typed SQL", () => {
  it("has every model of the schema as a table, with Prisma's column types", () => {
    expectTypeOf<keyof Tables>().toEqualTypeOf<Prisma.ModelName | "_prisma_migrations">();
    const counts = query.selectFrom("RequestCount").selectAll();
    expectTypeOf<InferResult<typeof counts>>().toEqualTypeOf<{ key: string; windowStart: Date; count: number }[]>();
    expect(counts.compile().sql).toBe('select * from "RequestCount"');
  });

  it("the PostgreSQL client has the very same models as the SQLite client the tables come from", () => {
    expectTypeOf<Scalars<PostgresPrisma.TypeMap["model"]>>().toEqualTypeOf<Scalars<Prisma.TypeMap["model"]>>();
  });

  it("refuses a column that does not exist, a value of the wrong type and a missing required one", () => {
    // Only built, never run: the checks are the typecheck's.
    const wrong = [
      // @ts-expect-error: RequestCount has no column "windowBegin"
      query.selectFrom("RequestCount").select("windowBegin"),
      // @ts-expect-error: "step" is an Int
      query.selectFrom("PlanStepCompletion").select("date").where("step", "=", "1"),
      // @ts-expect-error: "email" has no default
      query.insertInto("User").values({ id: "u" }),
      // @ts-expect-error: no such table
      query.selectFrom("Users").selectAll(),
    ];
    expect(wrong).toHaveLength(4);
  });

  it("leaves out what has a default, as Prisma's create does", () => {
    // User: id, role, timeZone, createdAt and reminderOn have defaults; the rest are nullable.
    const { sql } = query.insertInto("User").values({ email: "a@glowcoach.test" }).compile();
    expect(sql).toBe('insert into "User" ("email") values (' + (provider === "postgresql" ? "$1" : "?") + ")");
  });
});
