/**
 * Hot-path SQL (~/utils/sql.server): statements on the driver, on SQLite and PostgreSQL alike
 * (.ci/run runs this file on both). Values go in and come out the way Prisma stores them, and
 * writes sent together (committed together on SQLite) still succeed or fail one by one.
 */
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "~/utils/db.server";
import { execute, query, queryRows } from "~/utils/sql.server";

const newUser = () => db.user.create({ data: { email: `hot-${crypto.randomUUID()}@glowcoach.test` } });

describe("hot-path SQL", () => {
  it("writes and reads DateTime, Boolean, Int and null as Prisma does, both ways", async () => {
    const user = await newUser();
    const startedAt = new Date("2026-11-23T08:09:10.123Z");
    const entitlement = await db.entitlement.create({
      data: { userId: user.id, offerId: "skincare", routinePlanId: "clear-healthy-skin", createdAt: startedAt },
    });
    await execute(
      query.insertInto("EntitlementState").values({
        entitlementId: entitlement.id,
        tier: "monthly",
        planId: "monthly",
        planName: "Monthly Plan",
        priceMinor: 999,
        currency: "usd",
        status: "active",
        startedAt,
        currentPeriodEnd: null,
        cancelAtPeriodEnd: true,
        at: startedAt,
        reason: "test",
        recordedAt: startedAt,
      }),
    );
    // Prisma reads what the driver wrote...
    const row = await db.entitlementState.findFirstOrThrow({ where: { entitlementId: entitlement.id } });
    expect(row).toMatchObject({ startedAt, currentPeriodEnd: null, cancelAtPeriodEnd: true, priceMinor: 999 });
    // ...and the driver reads what Prisma wrote.
    await db.entitlementState.update({ where: { id: row.id }, data: { cancelAtPeriodEnd: false, currentPeriodEnd: new Date("2026-12-23T08:09:10.000Z") } });
    const [read] = await queryRows(
      query
        .selectFrom("EntitlementState")
        .select(["startedAt", "currentPeriodEnd", "cancelAtPeriodEnd", "priceMinor"])
        .where("entitlementId", "=", entitlement.id),
    );
    expect(read).toEqual({ startedAt, currentPeriodEnd: new Date("2026-12-23T08:09:10.000Z"), cancelAtPeriodEnd: false, priceMinor: 999 });
  });

  it("counts with numbers, not strings or bigints", async () => {
    const user = await newUser();
    const [{ n }] = await queryRows(
      query
        .selectFrom("User")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("id", "=", user.id),
    );
    expect(n).toBe(1);
  });

  it("writes sent at once succeed or fail one by one", async () => {
    const user = await newUser();
    const insert = (userId: string, date: string) =>
      execute(query.insertInto("PlanCompletion").values({ id: crypto.randomUUID(), userId, planId: "p", date, createdAt: new Date() }));
    const results = await Promise.allSettled([
      insert(user.id, "2026-11-01"),
      insert("no-such-user", "2026-11-02"),
      insert(user.id, "2026-11-03"),
      insert(user.id, "2026-11-01"),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled", "rejected"]);
    const dates = await queryRows(query.selectFrom("PlanCompletion").select("date").where("userId", "=", user.id).orderBy("date"));
    expect(dates.map((d) => d.date)).toEqual(["2026-11-01", "2026-11-03"]);
  });

  it("a read after a write in the same request sees it", async () => {
    const user = await newUser();
    await execute(query.insertInto("PlanStepCompletion").values({ userId: user.id, planId: "p", date: "2026-11-23", step: 1, createdAt: new Date() }));
    const rows = await queryRows(query.selectFrom("PlanStepCompletion").select("step").where("userId", "=", user.id));
    expect(rows).toEqual([{ step: 1 }]);
  });
});
