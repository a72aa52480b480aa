/**
 * The routine player (/plan/:id): which step to show, and the two things a member does
 * there: complete a step, and finish today's routine. Progress lives on the server, keyed
 * by the member's local date, so a reload (or another device) shows the same state. The
 * player is for plans the member owns; anyone else is sent to the plan's offer page.
 */
import { data, redirect } from "@remix-run/node";
import { requireAccess } from "~/auth/guards.server";
import type { SessionUser } from "~/auth/users.server";
import type { ResolvedPlan } from "~/content/types";
import { fieldsOf, readFormEntries } from "~/utils/form.server";
import { notFound } from "~/utils/http.server";
import { toastHeader } from "~/utils/toast.server";
import { isDoneOn, recordCompletion, recordStepDone, stepsDoneOn } from "./completions.server";
import { purchaseIncludesPlan } from "./routine-access.server";
import { holdDay, memberToday } from "./time-zone.server";
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
 * The plan behind /plan/:id for this member, made personal: 404 for no such plan, and a
 * plan they do not own sends them to where they can get it.
 */
async function ownedPlanOr404(request: Request, user: SessionUser, id: string | undefined) {
  const member = id && PLAN_ID.test(id) ? await memberPlan(user, request.headers.get("Cookie"), id) : null;
  if (!member?.plan || !member.personal) throw notFound(request);
  if (!member.owned) throw redirect(member.offerPath ?? "/home");
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

/** A member, or a browser that paid for this routine (a purchase session); others go to /login. */
async function routineMember(request: Request, planId: string | undefined): Promise<SessionUser> {
  const session = await requireAccess(request, "routine", (checkoutSessionId) =>
    planId ? purchaseIncludesPlan(checkoutSessionId, planId) : Promise.resolve(false),
  );
  return session.user;
}

export async function playerView(request: Request, planId: string | undefined) {
  const user = await routineMember(request, planId);
  const { plan, personal } = await ownedPlanOr404(request, user, planId);
  const { today } = await memberToday(user, request);
  const [done, finishedToday] = await Promise.all([stepsDoneOn(user.id, plan._id, today), isDoneOn(user.id, plan._id, today)]);
  const requested = new URL(request.url).searchParams.get("step");
  const step = requested === null ? firstOpenStep(plan.stepCount, done) : parseStep(requested, plan.stepCount);
  if (step === null) throw data(`There is no step ${String(requested).slice(0, 20)} in this plan. Steps go from 1 to ${plan.stepCount}.`, { status: 400 });
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

type ActionError = { error: string };

/** The same check for the player's forms, without personalising the plan (they only record progress). */
async function ownedForAction(request: Request, user: SessionUser, id: string | undefined): Promise<ResolvedPlan> {
  const plan = id && PLAN_ID.test(id) ? await getPlan(id) : null;
  if (!plan) throw notFound(request);
  if (!ownedPlanIds(await entitlementsOf(user.id)).includes(plan._id)) throw redirect((await getOfferForPlan(plan._id))?.path ?? "/home", 303);
  return plan;
}

export async function playerAction(request: Request, planId: string | undefined, visitorId?: string) {
  const user = await routineMember(request, planId);
  const plan = await ownedForAction(request, user, planId);
  const form = await readFormEntries(request);
  if (!form.ok) return data<ActionError>({ error: form.error }, { status: form.status });
  const fields = fieldsOf(form.entries);
  const { timeZone, today, at } = await memberToday(user, request, fields.timeZone);
  const base = `/plan/${plan._id}`;
  if ((fields.intent === "complete-step" || fields.intent === "finish") && !(await holdDay(user, timeZone, today))) {
    // Another request changed the member's zone between reading and acting: nothing recorded.
    return data<ActionError>({ error: "Your day changed while saving (a new time zone). Please try again." }, { status: 409 });
  }

  if (fields.intent === "complete-step") {
    const step = parseStep(fields.step, plan.stepCount);
    if (step === null) return data<ActionError>({ error: `Please choose a step from 1 to ${plan.stepCount}.` }, { status: 400 });
    await recordStepDone(user.id, plan._id, today, step, at);
    return redirect(`${base}?step=${Math.min(step + 1, plan.stepCount)}`, 303);
  }

  if (fields.intent === "finish") {
    const back = `${base}?step=${parseStep(fields.step, plan.stepCount) ?? plan.stepCount}`;
    try {
      const { recorded } = await recordCompletion(user.id, plan._id, today, at, plan.stepCount);
      if (recorded === "steps-missing") {
        // A stale page (e.g. opened yesterday): the steps of today are not all done.
        return data<ActionError>({ error: "Please complete every step of today's routine first." }, { status: 409 });
      }
      // Once per member, plan and day, for the admin's retention view.
      if (recorded === "new")
        await recordEvent({ visitorId: visitorId ?? "unknown", userId: user.id, name: "routine_completed", props: { planId: plan._id, date: today } });
    } catch (error) {
      logger.error({ err: error }, "[plan] marking the routine completed failed");
      return redirect(back, { status: 303, headers: { "Set-Cookie": await toastHeader(FINISH_FAILURE) } });
    }
    return redirect("/home", { status: 303, headers: { "Set-Cookie": await toastHeader(FINISH_SUCCESS) } });
  }

  return data<ActionError>({ error: "Please use the buttons on the page." }, { status: 400 });
}
