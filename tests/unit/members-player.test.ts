import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startSession } from "~/auth/session.server";
import { NOT_SUBSCRIBED, viewOf } from "~/billing/entitlements.server";
import { motivationalLine, routineButton } from "~/members/home.server";
import { firstOpenStep, parseStep, playerAction } from "~/members/player.server";
import { subscriptionDetails } from "~/members/profile";
import { EMPTY_STREAK } from "~/members/completions.server";
import { db } from "~/utils/db.server";
import * as hotPath from "~/utils/sql.server";
import { logger } from "~/utils/logger.server";
import { grantPlan } from "./helpers";

const PLAN = "clear-healthy-skin";
let cookie: string;
let userId: string;

beforeEach(async () => {
  const user = await db.user.create({ data: { email: `player-${crypto.randomUUID()}@glowcoach.test`, emailVerifiedAt: new Date() } });
  userId = user.id;
  cookie = (await startSession(user.id, "full")).split(";")[0];
  await grantPlan(user.id, PLAN);
});
afterEach(() => vi.restoreAllMocks());

function post(fields: Record<string, string>, plan = PLAN) {
  return new Request(`http://localhost/plan/${plan}`, {
    method: "POST",
    headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
}

async function answer(request: Request, plan = PLAN): Promise<Response> {
  try {
    const result: unknown = await playerAction(request, plan);
    if (result instanceof Response) return result;
    const { data, init } = result as { data: unknown; init?: { status?: number } };
    return new Response(JSON.stringify(data), { status: init?.status ?? 200 });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

describe("the player's forms", () => {
  it("completes steps and moves on; finishing before every step is done is refused", async () => {
    const first = await answer(post({ intent: "complete-step", step: "1" }));
    expect(first.status).toBe(303);
    expect(first.headers.get("Location")).toBe(`/plan/${PLAN}?step=2`);
    const early = await answer(post({ intent: "finish" }));
    expect(early.status).toBe(409);
    expect(await db.planCompletion.count({ where: { userId } })).toBe(0);
  });

  it("finishes with the success toast and /home, twice, storing one row", async () => {
    for (let step = 1; step <= 6; step++) await answer(post({ intent: "complete-step", step: String(step) }));
    for (let i = 0; i < 2; i++) {
      const done = await answer(post({ intent: "finish", step: "6" }));
      expect(done.status).toBe(303);
      expect(done.headers.get("Location")).toBe("/home");
      expect(done.headers.get("Set-Cookie")).toContain("gc_toast=");
    }
    expect(await db.planCompletion.count({ where: { userId } })).toBe(1);
  });

  it("answers a database failure with the destructive toast and back to the player", async () => {
    for (let step = 1; step <= 6; step++) await answer(post({ intent: "complete-step", step: String(step) }));
    vi.spyOn(logger, "error").mockImplementation(() => {});
    vi.spyOn(hotPath, "execute").mockRejectedValueOnce(new Error("disk I/O error"));
    const failed = await answer(post({ intent: "finish", step: "6" }));
    expect(failed.status).toBe(303);
    expect(failed.headers.get("Location")).toBe(`/plan/${PLAN}?step=6`);
    expect(failed.headers.get("Set-Cookie")).toContain("gc_toast=");
    expect(await db.planCompletion.count({ where: { userId } })).toBe(0);
  });

  it("refuses bad input with 4xx and stores nothing", async () => {
    for (const fields of <Record<string, string>[]>[
      { intent: "complete-step", step: "0" },
      { intent: "complete-step", step: "7" },
      { intent: "complete-step", step: "1e3" },
      { intent: "dance" },
    ]) {
      expect((await answer(post(fields))).status).toBe(400);
    }
    expect((await answer(post({ intent: "complete-step", step: "1" }, "no-such-plan"), "no-such-plan")).status).toBe(404);
    expect((await answer(post({ intent: "complete-step", step: "1" }, "../etc"), "../etc")).status).toBe(404);
    expect(await db.planStepCompletion.count({ where: { userId } })).toBe(0);
  });

  it("sends a member who does not own the plan to its offer page, and stores nothing", async () => {
    const other = await db.user.create({ data: { email: `no-plan-${crypto.randomUUID()}@glowcoach.test`, emailVerifiedAt: new Date() } });
    cookie = (await startSession(other.id, "full")).split(";")[0];
    const response = await answer(post({ intent: "complete-step", step: "1" }));
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe("/subscribe");
    const crease = await answer(post({ intent: "complete-step", step: "1" }, "crease-free"), "crease-free");
    expect(crease.headers.get("Location")).toBe("/sales");
    expect(await db.planStepCompletion.count({ where: { userId: other.id } })).toBe(0);
  });

  it("sends a signed-out visitor to /login", async () => {
    cookie = "";
    const response = await answer(post({ intent: "finish" }));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toMatch(/^\/login\?redirectTo=/);
  });

  it("parses steps strictly and opens on the first open step", () => {
    expect(parseStep("3", 6)).toBe(3);
    for (const bad of ["0", "7", "-1", "2.5", " 2", "", "abc", null, undefined]) expect(parseStep(bad, 6)).toBeNull();
    expect(firstOpenStep(6, [])).toBe(1);
    expect(firstOpenStep(6, [1, 2, 4])).toBe(3);
    expect(firstOpenStep(6, [1, 2, 3, 4, 5, 6])).toBe(6);
  });
});

describe("home", () => {
  it("routes 'Do Today's Routine' as the spec says", () => {
    expect(routineButton({ planId: null, signedIn: true, owned: true, offerPath: null })).toEqual({ state: "disabled" });
    expect(routineButton({ planId: PLAN, signedIn: false, owned: false, offerPath: "/subscribe" })).toEqual({
      state: "ready",
      href: "/login?redirectTo=%2Fhome",
    });
    expect(routineButton({ planId: PLAN, signedIn: true, owned: false, offerPath: "/subscribe" })).toEqual({ state: "ready", href: "/subscribe" });
    expect(routineButton({ planId: "crease-free", signedIn: true, owned: false, offerPath: "/sales" })).toEqual({ state: "ready", href: "/sales" });
    expect(routineButton({ planId: PLAN, signedIn: true, owned: true, offerPath: null })).toEqual({ state: "ready", href: `/plan/${PLAN}` });
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
