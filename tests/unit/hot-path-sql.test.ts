/**
 * Hot-path SQL (~/utils/sql.server): statements on the driver, on SQLite and PostgreSQL alike
 * (.ci/run runs this file on both). Values go in and come out the way Prisma stores them, and
 * writes sent together (committed together on SQLite) still succeed or fail one by one.
 */
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "~/utils/db.server";
import { execute, query, queryRows, statement } from "~/utils/sql.server";

const newUser = () => db.user.create({ data: { email: `hot-${crypto.randomUUID()}@glowcoach.test` } });

const insertState = statement((entitlementId: string, startedAt: Date, currentPeriodEnd: Date | null, cancelAtPeriodEnd: boolean, priceMinor: number) =>
  query.insertInto("EntitlementState").values({
    entitlementId,
    tier: "monthly",
    planId: "monthly",
    planName: "Monthly Plan",
    priceMinor,
    currency: "usd",
    status: "active",
    startedAt,
    currentPeriodEnd,
    cancelAtPeriodEnd,
    at: startedAt,
    reason: "test",
    recordedAt: startedAt,
  }),
);
const stateOf = statement((entitlementId: string) =>
  query.selectFrom("EntitlementState").select(["startedAt", "currentPeriodEnd", "cancelAtPeriodEnd", "priceMinor"]).where("entitlementId", "=", entitlementId),
);
const countUser = statement((id: string) =>
  query
    .selectFrom("User")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("id", "=", id),
);
const insertCompletion = statement((id: string, userId: string, date: string, createdAt: Date) =>
  query.insertInto("PlanCompletion").values({ id, userId, planId: "p", date, createdAt }),
);
const completionDates = statement((userId: string) => query.selectFrom("PlanCompletion").select("date").where("userId", "=", userId).orderBy("date"));
const insertStep = statement((userId: string, createdAt: Date) =>
  query.insertInto("PlanStepCompletion").values({ userId, planId: "p", date: "2026-11-23", step: 1, createdAt }),
);
const stepsOf = statement((userId: string) => query.selectFrom("PlanStepCompletion").select("step").where("userId", "=", userId));

describe("hot-path SQL", () => {
  it("writes and reads DateTime, Boolean, Int and null as Prisma does, both ways", async () => {
    const user = await newUser();
    const startedAt = new Date("2026-11-23T08:09:10.123Z");
    const entitlement = await db.entitlement.create({
      data: { userId: user.id, offerId: "skincare", routinePlanId: "clear-healthy-skin", createdAt: startedAt },
    });
    await execute(insertState, entitlement.id, startedAt, null, true, 999);
    // Prisma reads what the driver wrote...
    const row = await db.entitlementState.findFirstOrThrow({ where: { entitlementId: entitlement.id } });
    expect(row).toMatchObject({ startedAt, currentPeriodEnd: null, cancelAtPeriodEnd: true, priceMinor: 999 });
    // ...and the driver reads what Prisma wrote.
    await db.entitlementState.update({ where: { id: row.id }, data: { cancelAtPeriodEnd: false, currentPeriodEnd: new Date("2026-12-23T08:09:10.000Z") } });
    const [read] = await queryRows(stateOf, entitlement.id);
    expect(read).toEqual({ startedAt, currentPeriodEnd: new Date("2026-12-23T08:09:10.000Z"), cancelAtPeriodEnd: false, priceMinor: 999 });
  });

  it("counts with numbers, not strings or bigints", async () => {
    const user = await newUser();
    const [{ n }] = await queryRows(countUser, user.id);
    expect(n).toBe(1);
  });

  it("writes sent at once succeed or fail one by one", async () => {
    const user = await newUser();
    const insert = (userId: string, date: string) => execute(insertCompletion, crypto.randomUUID(), userId, date, new Date());
    const results = await Promise.allSettled([
      insert(user.id, "2026-11-01"),
      insert("no-such-user", "2026-11-02"),
      insert(user.id, "2026-11-03"),
      insert(user.id, "2026-11-01"),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled", "rejected"]);
    const dates = await queryRows(completionDates, user.id);
    expect(dates.map((d) => d.date)).toEqual(["2026-11-01", "2026-11-03"]);
  });

  it("a read after a write in the same request sees it", async () => {
    const user = await newUser();
    await execute(insertStep, user.id, new Date());
    const rows = await queryRows(stepsOf, user.id);
    expect(rows).toEqual([{ step: 1 }]);
  });

  it("binds each run's arguments to the statement compiled once, fixed values included", async () => {
    const user = await newUser();
    await execute(insertCompletion, crypto.randomUUID(), user.id, "2026-11-05", new Date());
    await execute(insertCompletion, crypto.randomUUID(), user.id, "2026-11-04", new Date());
    expect(await queryRows(completionDates, user.id)).toEqual([{ date: "2026-11-04" }, { date: "2026-11-05" }]);
    expect(await queryRows(completionDates, "someone-else")).toEqual([]);
  });

  it("refuses a statement that computes with an argument instead of using it as a value", async () => {
    const computed = statement((at: Date) => query.deleteFrom("RequestCount").where("windowStart", "<", new Date(at.getTime() - 1000)));
    await expect(execute(computed, new Date())).rejects.toThrow();
    const unused = statement((_key: string) => query.deleteFrom("RequestCount").where("key", "=", "fixed"));
    await expect(execute(unused, "mine")).rejects.toThrow("argument 1 is not one of its values");
  });
});
