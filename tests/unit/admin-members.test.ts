import { describe, expect, it } from "vitest";
import { dashboardView } from "~/admin/dashboard.server";
import { toSessionUser } from "~/auth/users.server";
import { addDays, localDate } from "~/members/calendar";
import { recordCompletion } from "~/members/completions.server";
import { now } from "~/utils/clock.server";
import { db } from "~/utils/db.server";
import { grantPlan } from "./helpers";

async function account(name: string, role = "user") {
  return toSessionUser(await db.user.create({ data: { email: `${name}-${crypto.randomUUID()}@glowcoach.test`, emailVerifiedAt: new Date(), role } }));
}

describe("the admin's member search", () => {
  it("shows the streak the member sees on /home: every plan's days, with freezes", async () => {
    const admin = await account("admin", "admin");
    const member = await account("streaker");
    await grantPlan(member.id, "clear-healthy-skin", { at: new Date(Date.now() - 30 * 86_400_000) });
    await grantPlan(member.id, "makeup-prep", { at: new Date(Date.now() - 86_400_000) });
    const today = localDate(now(), member.timeZone);
    // Seven days of skincare (a freeze), a missed day, then Makeup Prep (the followed plan) yesterday and today.
    for (let back = 10; back >= 4; back--) await recordCompletion(member.id, "clear-healthy-skin", addDays(today, -back), new Date(), 0);
    for (const back of [2, 1, 0]) await recordCompletion(member.id, "makeup-prep", addDays(today, -back), new Date(), 0);
    const view = await dashboardView({ admin, period: 7, query: member.email, confirmId: null });
    // Day -3 is missed: the freeze covers it, so 7 + 3 days, as on /home.
    expect(view.members.map((m) => ({ email: m.email, streak: m.streak }))).toEqual([{ email: member.email, streak: 10 }]);
  });
});
