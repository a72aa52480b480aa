/**
 * The routine player (/plan/:id): which step to show, and the two things a member does
 * there: complete a step, and finish today's routine. Progress lives on the server, keyed
 * by the member's local date, so a reload (or another device) shows the same state. The
 * player is for plans the member owns; anyone else is sent to the plan's offer page.
 * Who may open the player is the route's guard; these functions take the member it let in.
 */
import type { SessionUser } from "~/auth/users.server";
import type { ResolvedPlan } from "~/content-model/content-types";
import type { PersonalStep } from "./personalise";
import { go, refusal, type Go, type Refusal } from "~/utils/outcome";
import { toastHeader } from "~/utils/toast.server";
import { isDoneOn, recordCompletion, recordStepDone, stepsDoneOn } from "./completions.server";
import { holdDay, memberDay } from "./time-zone.server";
import { recordEvent } from "~/analytics/events.server";
import { logger } from "~/utils/logger.server";
import { memberPlan, ownedPlanIds } from "./plans.server";
import { entitlementsOf } from "~/billing/entitlements.server";
import { getOfferForPlan, getPlan } from "~/content/content.server";

export const FINISH_SUCCESS = { title: "Congratulations! 🎉", description: "You've completed today's routine. Great job building healthy habits!" } as const;
export const FINISH_FAILURE = {
  title: "Something went wrong",
  description: "Please try again or contact support if the problem persists.",
  variant: "destructive",
} as const;

const PLAN_ID = /^[a-z0-9-]{1,80}$/;

/**
 * The plan behind /plan/:id for this member, made personal. Null: no such plan; a `Go`: a
 * plan they do not own, to where they can get it.
 */
async function ownedPlan(user: SessionUser, id: string, cookieHeader: string | null) {
  const member = PLAN_ID.test(id) ? await memberPlan(user, cookieHeader, id) : null;
  if (!member?.plan || !member.personal) return null;
  if (!member.owned) return go(member.offerPath ?? "/home");
  return { plan: member.plan as ResolvedPlan, personal: member.personal };
}

/** A step number from a URL or form: an integer 1..count, else null. */
export function parseStep(value: string | null | undefined, count: number): number | null {
  if (value === null || value === undefined || !/^\d{1,3}$/.test(value)) return null;
  const step = Number(value);
  return step >= 1 && step <= count ? step : null;
}

/** With no ?step, the player opens on the first step not done yet today (step 1 on a new day). */
export function firstOpenStep(count: number, done: number[]): number {
  for (let step = 1; step <= count; step++) if (!done.includes(step)) return step;
  return count;
}

export type PlayerView = {
  plan: { id: string; name: string; reason: string | null; stepCount: number; titles: string[] };
  step: PersonalStep & { number: number };
  completedSteps: number[];
  finishedToday: boolean;
};

/**
 * What the player shows `user` for plan `planId`, on `requestedStep` (?step; none: the first
 * step not done today). Null: no such plan; a `Go`: a plan they do not own, to its offer; a
 * `Refusal`: a step the plan does not have.
 */
export async function playerView(input: {
  user: SessionUser;
  planId: string;
  requestedStep: string | null;
  browserTimeZone: string | null;
  cookieHeader: string | null;
}): Promise<PlayerView | Go | Refusal | null> {
  const { user, requestedStep } = input;
  const owned = await ownedPlan(user, input.planId, input.cookieHeader);
  if (!owned || "go" in owned) return owned;
  const { plan, personal } = owned;
  const { today } = await memberDay(user, input.browserTimeZone);
  const [done, finishedToday] = await Promise.all([stepsDoneOn(user.id, plan._id, today), isDoneOn(user.id, plan._id, today)]);
  const step = requestedStep === null ? firstOpenStep(plan.stepCount, done) : parseStep(requestedStep, plan.stepCount);
  if (step === null) return refusal(400, `There is no step ${String(requestedStep).slice(0, 20)} in this plan. Steps go from 1 to ${plan.stepCount}.`);
  const current = personal.steps[step - 1];
  return {
    plan: { id: plan._id, name: plan.name, reason: personal.reason, stepCount: plan.stepCount, titles: personal.steps.map((s) => s.title) },
    step: {
      number: step,
      title: current.title,
      description: current.description,
      image: current.image,
      tips: current.tips,
      note: current.note,
      video: current.video,
    },
    completedSteps: done,
    finishedToday,
  };
}

/** The same check for the player's forms, without personalising the plan (they only record progress). */
async function ownedForAction(user: SessionUser, id: string): Promise<ResolvedPlan | Go | null> {
  const plan = PLAN_ID.test(id) ? await getPlan(id) : null;
  if (!plan) return null;
  if (!ownedPlanIds(await entitlementsOf(user.id)).includes(plan._id)) return go((await getOfferForPlan(plan._id))?.path ?? "/home");
  return plan;
}

/**
 * A player form: complete a step (on to the next), or finish today's routine (to /home with
 * the success toast; back to the player with the failure toast when it could not be saved).
 * `step` is the form's, checked against the plan here; `browserTimeZone` the zone the browser
 * says it is in. Null: no such plan; a plan they do not own goes to its offer page.
 */
export async function playerAction(input: {
  user: SessionUser;
  planId: string;
  intent: "complete-step" | "finish";
  step: string | undefined;
  browserTimeZone: string | null;
  visitorId: string;
}): Promise<Go | Refusal | null> {
  const { user, intent } = input;
  const plan = await ownedForAction(user, input.planId);
  if (!plan || "go" in plan) return plan;
  const { timeZone, today, at } = await memberDay(user, input.browserTimeZone);
  if (!(await holdDay(user, timeZone, today))) {
    // Another request changed the member's zone between reading and acting: nothing recorded.
    return refusal(409, "Your day changed while saving (a new time zone). Please try again.");
  }
  const base = `/plan/${plan._id}`;

  if (intent === "complete-step") {
    const step = parseStep(input.step, plan.stepCount);
    if (step === null) return refusal(400, `Please choose a step from 1 to ${plan.stepCount}.`);
    await recordStepDone(user.id, plan._id, today, step, at);
    return go(`${base}?step=${Math.min(step + 1, plan.stepCount)}`);
  }

  const back = `${base}?step=${parseStep(input.step, plan.stepCount) ?? plan.stepCount}`;
  try {
    const { recorded } = await recordCompletion(user.id, plan._id, today, at, plan.stepCount);
    if (recorded === "steps-missing") {
      // A stale page (e.g. opened yesterday): the steps of today are not all done.
      return refusal(409, "Please complete every step of today's routine first.");
    }
    // Once per member, plan and day, for the admin's retention view.
    if (recorded === "new")
      await recordEvent({ visitorId: input.visitorId, userId: user.id, name: "routine_completed", props: { planId: plan._id, date: today } });
  } catch (error) {
    logger.error({ err: error }, "[plan] marking the routine completed failed");
    return go(back, [await toastHeader(FINISH_FAILURE)]);
  }
  return go("/home", [await toastHeader(FINISH_SUCCESS)]);
}
