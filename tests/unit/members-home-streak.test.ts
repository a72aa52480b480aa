import { describe, expect, it } from "vitest";
import { toSessionUser } from "~/auth/users.server";
import { addDays, localDate } from "~/members/calendar";
import { recordCompletion } from "~/members/completions.server";
import { homeView } from "~/members/home.server";
import { now } from "~/utils/clock.server";
import { db } from "~/utils/db.server";
import { grantPlan } from "./helpers";

async function memberWithTwoPlans() {
  const user = toSessionUser(await db.user.create({ data: { email: `home-${crypto.randomUUID()}@glowcoach.test`, emailVerifiedAt: new Date() } }));
  await grantPlan(user.id, "clear-healthy-skin", { at: new Date(Date.now() - 30 * 86_400_000) });
  // Bought last: the followed plan.
  await grantPlan(user.id, "makeup-prep", { at: new Date(Date.now() - 60_000) });
  return { user, today: localDate(now(), user.timeZone) };
}

async function home(user: Awaited<ReturnType<typeof memberWithTwoPlans>>["user"]) {
  const view = await homeView({ user, browserTimeZone: null, cookieHeader: null });
  if (!view.signedIn) throw new Error("not signed in");
  return view;
}

describe("/home with two plans: one streak per person", () => {
  it("shows the streak, the week and a 'done' line from the plan not followed", async () => {
    const { user, today } = await memberWithTwoPlans();
    await recordCompletion(user.id, "clear-healthy-skin", addDays(today, -1), new Date(), 0);
    await recordCompletion(user.id, "clear-healthy-skin", today, new Date(), 0);
    const view = await home(user);
    expect(view.plan?.name).toBe("Makeup Prep");
    expect(view.streak).toMatchObject({ currentStreak: 2, doneToday: true });
    expect(view.streak.weeklyCompletions.find((d) => d.isToday)?.completed).toBe(true);
    expect(view.motivation).not.toMatch(/Every glow starts with day one|Today is a lovely day to begin/);
  });

  it("offers the daily reminder all through the member's first day, however many routines they finish", async () => {
    const { user, today } = await memberWithTwoPlans();
    expect((await home(user)).reminderOffer).toBe(false);
    await recordCompletion(user.id, "clear-healthy-skin", today, new Date(), 0);
    expect((await home(user)).reminderOffer).toBe(true);
    await recordCompletion(user.id, "makeup-prep", today, new Date(), 0);
    expect((await home(user)).reminderOffer).toBe(true);
  });
});
