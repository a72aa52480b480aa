/**
 * The database's tables as Kysely sees them, derived at typecheck time from the Prisma client
 * generated from prisma/schema.prisma: every raw statement (~/utils/sql.server) names tables and
 * columns that exist, with the types Prisma gives them, so a renamed or retyped column fails
 * `npm run typecheck` wherever SQL still uses the old one (docs/decisions/0041-typed-sql.md).
 * Nothing is written by hand or by a generator: `prisma generate` (postinstall) is all it needs.
 *
 * Both providers share one data model; tests/unit/sql-tables.test.ts checks that the PostgreSQL
 * client's models are the same types as the SQLite client's these are derived from.
 */
import type { ColumnType } from "kysely";
import type { Prisma } from "~/generated/prisma/client";

type Models = Prisma.TypeMap["model"];

/** A model's columns as a row holds them (Prisma's scalar fields; no model here uses @map). */
type Row<M extends keyof Models> = Models[M]["payload"]["scalars"];

/** What an insert may leave out: the fields Prisma's createMany may omit (a default or null). */
type Insert<M extends keyof Models> = Exclude<Models[M]["operations"]["createMany"]["args"]["data"], readonly unknown[]>;
type Defaulted<M extends keyof Models> = {
  [K in keyof Insert<M>]-?: undefined extends Insert<M>[K] ? K : never;
}[keyof Insert<M>];

/** A column an insert may leave out (it has a default) is optional there, as Kysely's `Generated` does. */
type Table<M extends keyof Models> = {
  [K in keyof Row<M>]: K extends Defaulted<M> ? ColumnType<Row<M>[K], Row<M>[K] | undefined, Row<M>[K]> : Row<M>[K];
};

/** Prisma's own record of applied migrations (not part of the data model; the health check reads it). */
type PrismaMigrations = {
  id: string;
  migration_name: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
  started_at: Date;
  applied_steps_count: number;
  checksum: string;
  logs: string | null;
};

export type Tables = { [M in keyof Models]: Table<M> } & { _prisma_migrations: PrismaMigrations };
