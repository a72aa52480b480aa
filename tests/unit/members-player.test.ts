import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startSession } from "~/auth/session.server";
import { toSessionUser, type SessionUser } from "~/auth/users.server";
import { NOT_SUBSCRIBED, viewOf } from "~/billing/entitlements.server";
import { followPlan, motivationalLine, routineButton } from "~/members/home.server";
import { FINISH_FAILURE, FINISH_SUCCESS, firstOpenStep, parseStep, playerAction, playerView } from "~/members/player.server";
import { takeToast } from "~/utils/toast.server";
import type { Go, Refusal } from "~/utils/outcome";
import { subscriptionDetails } from "~/members/profile";
import { EMPTY_STREAK } from "~/members/completions.server";
import { db } from "~/utils/db.server";
import * as hotPath from "~/utils/sql.server";
import { logger } from "~/utils/logger.server";
import { grantPlan } from "./helpers";

const PLAN = "clear-healthy-skin";
let user: SessionUser;

async function newMember(email: string) {
  return toSessionUser(await db.user.create({ data: { email: `${email}-${crypto.randomUUID()}@glowcoach.test`, emailVerifiedAt: new Date() } }));
}

beforeEach(async () => {
  user = await newMember("player");
  await grantPlan(user.id, PLAN);
});
afterEach(() => vi.restoreAllMocks());

/** The toast a Go's cookie carries, as the next page reads it. */
async function toastIn(outcome: Go | Refusal | null) {
  if (!outcome || !("go" in outcome)) throw new Error(`not a Go: ${JSON.stringify(outcome)}`);
  const request = new Request("http://localhost/", { headers: { Cookie: outcome.cookies.map((c) => c.split(";")[0]).join("; ") } });
  return (await takeToast(request)).toast;
}

/** A player form as the route passes it on. The member's row is read again, as each request's session is. */
async function press(form: { intent: "complete-step" | "finish"; step?: string }, planId = PLAN) {
  const fresh = toSessionUser((await db.user.findUnique({ where: { id: user.id } }))!);
  return playerAction({ user: fresh, planId, intent: form.intent, step: form.step, browserTimeZone: null, visitorId: "visitor-player" });
}

async function completeAllSteps() {
  for (let step = 1; step <= 6; step++) await press({ intent: "complete-step", step: String(step) });
}

describe("the player's forms", () => {
  it("completes steps and moves on; finishing before every step is done is refused", async () => {
    expect(await press({ intent: "complete-step", step: "1" })).toEqual({ go: `/plan/${PLAN}?step=2`, cookies: [] });
    expect(await press({ intent: "finish" })).toEqual({ refused: true, status: 409, message: "Please complete every step of today's routine first." });
    expect(await db.planCompletion.count({ where: { userId: user.id } })).toBe(0);
  });

  it("finishes with the success toast and /home, twice, storing one row", async () => {
    await completeAllSteps();
    for (let i = 0; i < 2; i++) {
      const done = await press({ intent: "finish", step: "6" });
      expect(done).toMatchObject({ go: "/home" });
      expect(await toastIn(done)).toEqual({ ...FINISH_SUCCESS, variant: "default" });
    }
    expect(await db.planCompletion.count({ where: { userId: user.id } })).toBe(1);
  });

  it("answers a database failure with the destructive toast and back to the player", async () => {
    await completeAllSteps();
    vi.spyOn(logger, "error").mockImplementation(() => {});
    vi.spyOn(hotPath, "execute").mockRejectedValueOnce(new Error("disk I/O error"));
    const failed = await press({ intent: "finish", step: "6" });
    expect(failed).toMatchObject({ go: `/plan/${PLAN}?step=6` });
    expect(await toastIn(failed)).toEqual(FINISH_FAILURE);
    expect(await db.planCompletion.count({ where: { userId: user.id } })).toBe(0);
  });

  it("refuses steps the plan does not have, and no such plan, storing nothing", async () => {
    for (const step of ["0", "7", "1e3", undefined]) {
      expect(await press({ intent: "complete-step", step })).toEqual({ refused: true, status: 400, message: "Please choose a step from 1 to 6." });
    }
    expect(await press({ intent: "complete-step", step: "1" }, "no-such-plan")).toBeNull();
    expect(await press({ intent: "complete-step", step: "1" }, "../etc")).toBeNull();
    expect(await db.planStepCompletion.count({ where: { userId: user.id } })).toBe(0);
  });

  it("sends a member who does not own the plan to its offer page, and stores nothing", async () => {
    user = await newMember("no-plan");
    expect(await press({ intent: "complete-step", step: "1" })).toEqual({ go: "/subscribe", cookies: [] });
    expect(await press({ intent: "complete-step", step: "1" }, "crease-free")).toEqual({ go: "/sales", cookies: [] });
    expect(await db.planStepCompletion.count({ where: { userId: user.id } })).toBe(0);
  });
});

describe("the player's route", () => {
  /** The route's action as the server runs it: a Response, or the data() answer it returned. */
  async function answer(fields: Record<string, string>, cookie: string) {
    const { action } = await import("~/routes/plan.$id");
    const request = new Request(`http://localhost/plan/${PLAN}`, {
      method: "POST",
      headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    });
    try {
      const result: unknown = await action({
        request,
        params: { id: PLAN },
        context: { visitorId: "visitor-route", clientIp: "127.0.0.1", cspNonce: "", dataRequest: false },
      });
      if (result instanceof Response) return { status: result.status, location: result.headers.get("Location"), body: null };
      const { data, init } = result as { data: unknown; init?: { status?: number } };
      return { status: init?.status ?? 200, location: null, body: data as { error?: Record<string, string[]> } };
    } catch (thrown) {
      if (thrown instanceof Response) return { status: thrown.status, location: thrown.headers.get("Location"), body: null };
      throw thrown;
    }
  }

  it("sends a signed-out visitor to /login, and refuses a button the page does not have", async () => {
    const signedOut = await answer({ intent: "finish" }, "");
    expect(signedOut.status).toBe(302);
    expect(signedOut.location).toMatch(/^\/login\?redirectTo=/);
    const cookie = (await startSession(user.id, "full")).split(";")[0];
    const dance = await answer({ intent: "dance" }, cookie);
    expect(dance.status).toBe(400);
    expect(dance.body?.error?.[""]).toEqual(["Please use the buttons on the page."]);
    const done = await answer({ intent: "complete-step", step: "1" }, cookie);
    expect(done).toMatchObject({ status: 303, location: `/plan/${PLAN}?step=2` });
    expect(await db.planStepCompletion.count({ where: { userId: user.id } })).toBe(1);
  });
});

describe("the player's view", () => {
  const view = (requestedStep: string | null, planId = PLAN) => playerView({ user, planId, requestedStep, browserTimeZone: null, cookieHeader: null });

  it("opens on the first step not done today, or the step asked for", async () => {
    expect(await view(null)).toMatchObject({ plan: { id: PLAN, stepCount: 6 }, step: { number: 1 }, completedSteps: [], finishedToday: false });
    await press({ intent: "complete-step", step: "1" });
    expect(await view(null)).toMatchObject({ step: { number: 2 }, completedSteps: [1] });
    expect(await view("5")).toMatchObject({ step: { number: 5 } });
  });

  it("refuses a step the plan does not have; no such plan is null; a plan not owned goes to its offer", async () => {
    expect(await view("9")).toEqual({ refused: true, status: 400, message: "There is no step 9 in this plan. Steps go from 1 to 6." });
    expect(await view(null, "no-such-plan")).toBeNull();
    user = await newMember("no-plan-view");
    expect(await view(null)).toEqual({ go: "/subscribe", cookies: [] });
  });
});

describe("the player's steps", () => {
  it("parses steps strictly and opens on the first open step", () => {
    expect(parseStep("3", 6)).toBe(3);
    for (const bad of ["0", "7", "-1", "2.5", " 2", "", "abc", null, undefined]) expect(parseStep(bad, 6)).toBeNull();
    expect(firstOpenStep(6, [])).toBe(1);
    expect(firstOpenStep(6, [1, 2, 4])).toBe(3);
    expect(firstOpenStep(6, [1, 2, 3, 4, 5, 6])).toBe(6);
  });
});

describe("home", () => {
  it("routes 'Do Today's Routine': disabled with no plan, to /login when signed out, to the offer when the plan isn't owned, else to the plan", () => {
    expect(routineButton({ planId: null, signedIn: true, owned: true, offerPath: null })).toEqual({ state: "disabled" });
    expect(routineButton({ planId: PLAN, signedIn: false, owned: false, offerPath: "/subscribe" })).toEqual({
      state: "ready",
      href: "/login?redirectTo=%2Fhome",
    });
    expect(routineButton({ planId: PLAN, signedIn: true, owned: false, offerPath: "/subscribe" })).toEqual({ state: "ready", href: "/subscribe" });
    expect(routineButton({ planId: "crease-free", signedIn: true, owned: false, offerPath: "/sales" })).toEqual({ state: "ready", href: "/sales" });
    expect(routineButton({ planId: PLAN, signedIn: true, owned: true, offerPath: null })).toEqual({ state: "ready", href: `/plan/${PLAN}` });
  });

  it("follows only a plan the member owns", async () => {
    await grantPlan(user.id, "crease-free");
    expect(await followPlan(user, "crease-free")).toEqual({ go: "/home", cookies: [] });
    expect((await db.user.findUnique({ where: { id: user.id } }))?.activePlanId).toBe("crease-free");
    expect(await followPlan(user, "makeup-prep")).toEqual({ refused: true, status: 400, message: "You can only follow a plan you have." });
    expect((await db.user.findUnique({ where: { id: user.id } }))?.activePlanId).toBe("crease-free");
  });

  it("picks the motivational line for the member's state", () => {
    const lines = [
      { when: "start", text: "Start today" },
      { when: "continue", text: "{streak} days, go for day {next}" },
      { when: "done", text: "Done: {streak}" },
    ] as const;
    const today = "2026-11-25";
    expect(motivationalLine([...lines], EMPTY_STREAK(today), today)).toBe("Start today");
    expect(motivationalLine([...lines], { ...EMPTY_STREAK(today), currentStreak: 4 }, today)).toBe("4 days, go for day 5");
    expect(motivationalLine([...lines], { ...EMPTY_STREAK(today), currentStreak: 5, doneToday: true }, today)).toBe("Done: 5");
  });
});

describe("profile subscription details", () => {
  const at = new Date("2026-11-23T12:00:00Z");
  const row = (tier: string, extra: Partial<{ status: string; currentPeriodEnd: Date | null; cancelAtPeriodEnd: boolean }> = {}) => ({
    tier,
    status: "active",
    planName: tier === "single_payment" ? "Lifetime Plan" : "Monthly Plan",
    priceMinor: tier === "single_payment" ? 2999 : 999,
    currency: "usd",
    startedAt: new Date("2026-01-05T10:00:00Z"),
    currentPeriodEnd: tier === "single_payment" ? null : new Date("2026-12-05T10:00:00Z"),
    cancelAtPeriodEnd: false,
    ...extra,
  });
  const values = (details: ReturnType<typeof subscriptionDetails>) => Object.fromEntries(details.rows.map((r) => [r.label, r.value]));

  it("shows Free and Upgrade when not subscribed (also for an ended subscription)", () => {
    expect(subscriptionDetails(NOT_SUBSCRIBED, "UTC").action).toBe("upgrade");
    expect(values(subscriptionDetails(NOT_SUBSCRIBED, "UTC")).Status).toBe("Free");
    const ended = viewOf(row("monthly", { status: "canceled" }), at);
    expect(subscriptionDetails(ended, "UTC")).toMatchObject({ action: "upgrade" });
  });

  it("shows a monthly subscription with its next billing date and Manage", () => {
    const details = subscriptionDetails(viewOf(row("monthly"), at), "UTC");
    expect(details.action).toBe("manage");
    expect(values(details)).toEqual({
      Status: "Active",
      Plan: "Monthly Plan",
      Price: "$9.99/month",
      Started: "January 5, 2026",
      "Next Billing": "December 5, 2026",
      "Access Type": "Monthly Subscription",
    });
    const cancelled = subscriptionDetails(viewOf(row("monthly", { cancelAtPeriodEnd: true }), at), "UTC");
    expect(values(cancelled)["Next Billing"]).toBe("None (ends December 5, 2026)");
  });

  it("hides Next Billing for a single payment and says Lifetime Access", () => {
    const details = subscriptionDetails(viewOf(row("single_payment"), at), "Pacific/Auckland");
    expect(details.action).toBe("lifetime");
    expect(values(details)).toEqual({
      Status: "Active",
      Plan: "Lifetime Plan",
      Price: "$29.99 one-time",
      Started: "January 5, 2026",
      "Access Type": "Lifetime Access",
    });
  });
});
