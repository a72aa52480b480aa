/**
 * A member's data version moves with every change to a row their own pages read, through
 * database triggers, so a page stored under the old version is never answered again (ADR 26).
 * A migration that rebuilds one of these tables drops its triggers: this test then fails.
 */
import { describe, expect, it } from "vitest";
import { db } from "~/utils/db.server";
import { grantPlan } from "./helpers";

async function versionOf(userId: string): Promise<number> {
  return (await db.memberDataVersion.findUnique({ where: { userId } }))?.version ?? 0;
}

/** Runs `change` and answers whether it moved the member's version. */
async function moves(userId: string, change: () => Promise<unknown>): Promise<boolean> {
  const before = await versionOf(userId);
  await change();
  return (await versionOf(userId)) > before;
}

describe("the member data version", () => {
  it("moves on every insert, update and delete of the rows a member's pages read, and only the member's", async () => {
    const user = await db.user.create({ data: { email: `version-${crypto.randomUUID()}@glowcoach.test` } });
    const other = await db.user.create({ data: { email: `version-${crypto.randomUUID()}@glowcoach.test` } });
    const otherBefore = await versionOf(other.id);
    const at = new Date();

    expect(await moves(user.id, () => db.user.update({ where: { id: user.id }, data: { name: "Ana", reminderOn: true } }))).toBe(true);
    let entitlementId = "";
    expect(await moves(user.id, async () => (entitlementId = await grantPlan(user.id, "clear-healthy-skin")))).toBe(true);
    expect(await moves(user.id, () => db.entitlement.update({ where: { id: entitlementId }, data: { createdAt: at } }))).toBe(true);
    const state = await db.entitlementState.findFirstOrThrow({ where: { entitlementId } });
    expect(await moves(user.id, () => db.entitlementState.update({ where: { id: state.id }, data: { status: "canceled" } }))).toBe(true);

    const answers = { userId: user.id, funnelId: "skin-quiz", answers: "{}", answeredAt: at, updatedAt: at };
    expect(await moves(user.id, () => db.memberAnswers.create({ data: answers }))).toBe(true);
    expect(await moves(user.id, () => db.memberAnswers.updateMany({ where: { userId: user.id }, data: { answers: '{"a":1}' } }))).toBe(true);
    expect(await moves(user.id, () => db.memberAnswers.deleteMany({ where: { userId: user.id } }))).toBe(true);

    const step = { userId: user.id, planId: "clear-healthy-skin", date: "2026-06-10", step: 1, createdAt: at };
    expect(await moves(user.id, () => db.planStepCompletion.create({ data: step }))).toBe(true);
    expect(await moves(user.id, () => db.planStepCompletion.deleteMany({ where: { userId: user.id } }))).toBe(true);
    const day = { id: crypto.randomUUID(), userId: user.id, planId: "clear-healthy-skin", date: "2026-06-10", createdAt: at };
    expect(await moves(user.id, () => db.planCompletion.create({ data: day }))).toBe(true);
    expect(await moves(user.id, () => db.planCompletion.update({ where: { id: day.id }, data: { createdAt: new Date() } }))).toBe(true);
    expect(await moves(user.id, () => db.planCompletion.delete({ where: { id: day.id } }))).toBe(true);
    expect(await moves(user.id, () => db.entitlementState.deleteMany({ where: { entitlementId } }))).toBe(true);
    expect(await moves(user.id, () => db.entitlement.delete({ where: { id: entitlementId } }))).toBe(true);

    // Another member's pages are untouched; a deleted member leaves no version behind.
    expect(await versionOf(other.id)).toBe(otherBefore);
    await db.user.delete({ where: { id: user.id } });
    expect(await db.memberDataVersion.findUnique({ where: { userId: user.id } })).toBeNull();
  });

  it("moves when a refund of the member's purchase is claimed, completed or released (/profile shows refunds)", async () => {
    const user = await db.user.create({ data: { email: `version-${crypto.randomUUID()}@glowcoach.test` } });
    const entitlementId = await grantPlan(user.id, "clear-healthy-skin");
    const refund = { entitlementId, amountMinor: 1999, currency: "usd", provider: "local", requestedAt: new Date() };
    expect(await moves(user.id, () => db.refund.create({ data: refund }))).toBe(true);
    expect(await moves(user.id, () => db.refund.update({ where: { entitlementId }, data: { completedAt: new Date() } }))).toBe(true);
    expect(await moves(user.id, () => db.refund.delete({ where: { entitlementId } }))).toBe(true);
  });
});
