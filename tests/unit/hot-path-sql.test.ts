/**
 * Hot-path SQL (~/utils/sql.server): statements on the driver, on SQLite and PostgreSQL alike
 * (.ci/run runs this file on both). Values go in and come out the way Prisma stores them, and
 * writes sent together (committed together on SQLite) still succeed or fail one by one.
 */
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "~/utils/db.server";
import { execute, queryRows, sql } from "~/utils/sql.server";

const newUser = () => db.user.create({ data: { email: `hot-${crypto.randomUUID()}@glowcoach.test` } });

describe("hot-path SQL", () => {
  it("writes and reads DateTime, Boolean, Int and null as Prisma does, both ways", async () => {
    const user = await newUser();
    const startedAt = new Date("2026-11-23T08:09:10.123Z");
    const entitlement = await db.entitlement.create({
      data: { userId: user.id, offerId: "skincare", routinePlanId: "clear-healthy-skin", createdAt: startedAt },
    });
    await execute(sql`
      INSERT INTO "EntitlementState" ("entitlementId", "tier", "planId", "planName", "priceMinor", "currency", "status", "startedAt", "currentPeriodEnd", "cancelAtPeriodEnd", "at", "reason", "recordedAt")
      VALUES (${entitlement.id}, ${"monthly"}, ${"monthly"}, ${"Monthly Plan"}, ${999}, ${"usd"}, ${"active"}, ${startedAt}, ${null}, ${true}, ${startedAt}, ${"test"}, ${startedAt})`);
    // Prisma reads what the driver wrote...
    const row = await db.entitlementState.findFirstOrThrow({ where: { entitlementId: entitlement.id } });
    expect(row).toMatchObject({ startedAt, currentPeriodEnd: null, cancelAtPeriodEnd: true, priceMinor: 999 });
    // ...and the driver reads what Prisma wrote.
    await db.entitlementState.update({ where: { id: row.id }, data: { cancelAtPeriodEnd: false, currentPeriodEnd: new Date("2026-12-23T08:09:10.000Z") } });
    const [read] = await queryRows<{ startedAt: Date; currentPeriodEnd: Date; cancelAtPeriodEnd: boolean; priceMinor: number }>(sql`
      SELECT "startedAt", "currentPeriodEnd", "cancelAtPeriodEnd", "priceMinor" FROM "EntitlementState" WHERE "entitlementId" = ${entitlement.id}`);
    expect(read).toEqual({ startedAt, currentPeriodEnd: new Date("2026-12-23T08:09:10.000Z"), cancelAtPeriodEnd: false, priceMinor: 999 });
  });

  it("counts with numbers, not strings or bigints", async () => {
    const user = await newUser();
    const [{ n }] = await queryRows<{ n: number }>(sql`SELECT COUNT(*) AS "n" FROM "User" WHERE "id" = ${user.id}`);
    expect(n).toBe(1);
  });

  it("writes sent at once succeed or fail one by one", async () => {
    const user = await newUser();
    const insert = (userId: string, date: string) =>
      execute(
        sql`INSERT INTO "PlanCompletion" ("id", "userId", "planId", "date", "createdAt") VALUES (${crypto.randomUUID()}, ${userId}, ${"p"}, ${date}, ${new Date()})`,
      );
    const results = await Promise.allSettled([
      insert(user.id, "2026-11-01"),
      insert("no-such-user", "2026-11-02"),
      insert(user.id, "2026-11-03"),
      insert(user.id, "2026-11-01"),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled", "rejected"]);
    const dates = await queryRows<{ date: string }>(sql`SELECT "date" FROM "PlanCompletion" WHERE "userId" = ${user.id} ORDER BY "date"`);
    expect(dates.map((d) => d.date)).toEqual(["2026-11-01", "2026-11-03"]);
  });

  it("a read after a write in the same request sees it", async () => {
    const user = await newUser();
    await execute(
      sql`INSERT INTO "PlanStepCompletion" ("userId", "planId", "date", "step", "createdAt") VALUES (${user.id}, ${"p"}, ${"2026-11-23"}, ${1}, ${new Date()})`,
    );
    const rows = await queryRows<{ step: number }>(sql`SELECT "step" FROM "PlanStepCompletion" WHERE "userId" = ${user.id}`);
    expect(rows).toEqual([{ step: 1 }]);
  });
});
