/**
 * What happens when a visitor opens or answers a funnel step: find the funnel, read
 * their answers, apply the engine, plan analytics. Routes only translate the outcome
 * into a response (and record the planned events).
 */
import type { EventInput } from "~/analytics/event-input";
import { getFunnelById, getFunnelByRoute, getInsight, getOfferByPath, getPlan } from "~/content/content.server";
import type { FunnelVersion } from "~/experiments/experiments.server";
import { safeRedirect } from "~/auth/redirect";
import { go, refusal, type Go, type Refusal } from "~/utils/outcome";
import { stepFormSchema, type EmailGiven, type StepAnswers } from "./answer-form";
import {
  canContinue,
  answerWords,
  describeAnswer,
  entryStep,
  fillTemplate,
  findStep,
  journey,
  nextTarget,
  pickInsight,
  stepAccess,
  stepChrome,
  stepPath,
  targetPath,
  type Answers,
} from "./engine";
import type { Funnel, Step } from "../content-model/funnel";
import { readFunnelState, writeFunnelState, type FunnelState } from "./state.server";
import { withSetCookies } from "~/utils/cookies.server";
import type { InsightView, StepView } from "./view";
import { answersAfter, baseStepView, nextPlainStep, plainStepView } from "./step-view";
import { logger } from "~/utils/logger.server";
import { unchanging } from "~/utils/unchanging.server";
import crypto from "node:crypto";
import { progressChartHtml } from "./components/progress-chart.server";
import { progressChart } from "./typical-progress";

/**
 * What opening a step leads to. Side effects are returned, not performed: the route
 * records `events` and sends `setCookie`, while the page cache can use the same plan
 * to look up a page without changing anything.
 */
export type PlannedEvent = Omit<EventInput, "visitorId">;

export type LoadOutcome =
  | { kind: "not-found" }
  | { kind: "redirect"; to: string; setCookie?: string }
  | {
      kind: "view";
      view: StepView;
      setCookie?: string;
      events?: PlannedEvent[];
      /**
       * A funnel with an e-mail step counts a lead when the address is given, not when the quiz is
       * finished: the result's pixel Lead carries that event's id, and none is sent for a visitor
       * who skipped (null). Undefined: the funnel has no e-mail step, the finished quiz is the lead.
       */
      emailLead?: string | null;
    };

type Located = { kind: "found"; funnel: Funnel; step: Step } | { kind: "not-found" } | { kind: "redirect"; to: string };

/**
 * The funnel for "/quiz" and the step for "3"; a step id that is not in the funnel goes back to
 * its start. `version`: the funnel as this visitor runs it (with their experiment variants),
 * when the caller has worked it out.
 */
async function locate(route: string, stepParam: string | undefined, version?: FunnelVersion | null): Promise<Located> {
  const funnel = version === undefined ? await getFunnelByRoute(route) : version?.funnel;
  if (!funnel) return { kind: "not-found" };
  if (stepParam === undefined) return { kind: "found", funnel, step: entryStep(funnel) };
  const step = findStep(funnel, stepParam);
  return step ? { kind: "found", funnel, step } : { kind: "redirect", to: funnel.route };
}

const plans = new WeakMap<Funnel, Funnel>();

/**
 * The funnel as pages get it: each step's label and progress as the engine works them out
 * (content's own where set), so the browser needs none of that code (a view's step shows them,
 * and a question's view carries the whole plan, ADR 43). Once per funnel version.
 */
export function clientPlanOf(funnel: Funnel): Funnel {
  let plan = plans.get(funnel);
  if (!plan) {
    // Shared by every request from now on, never changed: the stored renders' key names it by
    // its identity instead of serializing it on every question page (unchanging.server.ts).
    plan = unchanging({
      ...funnel,
      steps: funnel.steps.map((step) => {
        const { label: _label, progress: _progress, ...rest } = step;
        return { ...rest, ...stepChrome(funnel, step) } as Step;
      }),
    });
    plans.set(funnel, plan);
  }
  return plan;
}

async function insightView(funnel: Funnel, id: string, answers: Answers): Promise<InsightView | null> {
  const insight = await getInsight(id);
  if (!insight) {
    logger.error(`[funnel] ${funnel.id}: insight document "${id}" is missing`);
    return null;
  }
  const fill = (text: string) => fillTemplate(text, funnel, answers);
  return { title: fill(insight.title), summary: fill(insight.summary), body: insight.body.map(fill), highlights: insight.highlights.map(fill) };
}

export async function planFunnelStep(input: { cookieHeader: string | null; route: string; stepParam?: string; version?: FunnelVersion | null }): Promise<LoadOutcome> {
  const located = await locate(input.route, input.stepParam, input.version);
  if (located.kind !== "found") return located;
  const { funnel, step } = located;
  const state = await readFunnelState(input.cookieHeader, funnel);

  const access = stepAccess(funnel, step.id, state.answers, state.result !== undefined);
  if (!access.ok) return { kind: "redirect", to: access.redirectTo };

  const plan = clientPlanOf(funnel);
  const planStep = findStep(plan, step.id)!;
  const base = baseStepView(plan, planStep, state.answers, input.version?.variant ?? undefined);

  // Opening a funnel's first step, whatever its type, counts as viewing the funnel.
  const viewed: PlannedEvent[] | undefined = step.id === entryStep(funnel).id ? [{ name: "funnel_viewed", funnel: funnel.id, step: step.id }] : undefined;

  switch (step.type) {
    case "intro":
    case "question":
    case "analysing":
      return { kind: "view", view: plainStepView(plan, planStep, state.answers, input.version?.variant ?? undefined)!, events: viewed };

    case "email":
      return { kind: "view", view: base, events: viewed };

    case "insight": {
      const insight = await insightView(funnel, pickInsight(step.pick, state.answers)._ref, state.answers);
      return {
        kind: "view",
        view: { ...base, insight: insight ?? undefined, nextHref: targetPath(funnel, nextTarget(step.next, state.answers)) },
        events: viewed,
      };
    }

    case "summary": {
      const source = step.answersFrom ? await getFunnelById(step.answersFrom) : funnel;
      if (!source) return { kind: "not-found" };
      const answers = source === funnel ? state.answers : (await readFunnelState(input.cookieHeader, source)).answers;
      const cards = step.cards
        .map((card) => ({ title: card.title, values: answerWords(source, answers, card.field, card.limit) }))
        .filter((card) => card.values.length > 0)
        .slice(0, step.maxCards);
      // Nothing to summarise yet: start the funnel the answers come from.
      if (cards.length === 0 && source !== funnel) return { kind: "redirect", to: source.route };
      return { kind: "view", view: { ...base, cards, nextHref: targetPath(funnel, nextTarget(step.next, state.answers)) }, events: viewed };
    }

    case "result": {
      let next: FunnelState = state;
      let setCookie: string | undefined;
      let events: PlannedEvent[] | undefined;
      // Every question answered: work out the result now, keep it, and clear the answers.
      if (journey(funnel, state.answers).end === "result") {
        const insight = pickInsight(step.pick, state.answers)._ref;
        next = { answers: {}, result: { insight, answers: { ...state.answers } as Record<string, string | string[]>, at: new Date().toISOString() } };
        setCookie = await writeFunnelState(funnel, next);
        events = [{ name: "funnel_completed", funnel: funnel.id, step: step.id, props: { insight, answers: state.answers } }];
      }
      const result = next.result!;
      const [insight, chart] = await Promise.all([insightView(funnel, result.insight, result.answers), progressChartFor(funnel, step.cta.href, result.answers)]);
      // The pixel's Lead goes once, with the result worked out now.
      const emailLead = events && hasEmailStep(funnel) ? (state.lead ?? null) : undefined;
      return {
        kind: "view",
        view: { ...base, insight: insight ?? undefined, ...(chart ? { progressChartHtml: chart } : {}) },
        setCookie,
        events,
        ...(emailLead !== undefined ? { emailLead } : {}),
      };
    }
  }
}

/**
 * The typical-progress chart of the plan the result's button sells (the offer at that path), drawn
 * from these answers, as HTML; null when there is no such plan or it has no progress content.
 */
async function progressChartFor(funnel: Funnel, ctaHref: string, answers: Answers): Promise<string | null> {
  const offer = await getOfferByPath(ctaHref.split("?")[0]);
  const plan = offer ? await getPlan(offer.routinePlan._ref) : null;
  const chart = plan ? progressChart(plan, answers, (field) => describeAnswer(funnel, answers, field)) : null;
  return chart ? progressChartHtml(chart) : null;
}

function hasEmailStep(funnel: Funnel): boolean {
  return funnel.steps.some((step) => step.type === "email");
}

/** A step a visitor may answer: where it is, what they answered so far, and the schema its form is read with. */
export type StepToAnswer = { funnel: Funnel; step: Step; state: FunnelState; form: ReturnType<typeof stepFormSchema> };

/** Carry on after an answer, with the analytics events it makes (and, from the e-mail step, the lead to record). */
export type StepAnswered = Go & { events: PlannedEvent[]; lead?: LeadToRecord };

/** An address given at the e-mail step, with what the recovery e-mails need (app/recovery/leads.server.ts records it). */
export type LeadToRecord = {
  /** The email_captured event's id: the pixel's Lead carries it (de-duplication). */
  eventId: string;
  funnelId: string;
  email: string;
  marketingConsent: boolean;
  consentText: string | null;
  answers: Record<string, string | string[]>;
  insight: string;
  offerPath: string;
  timeZone: string | null;
  recoveryAfterHours: number[];
  checkoutReminderAfterHours: number | null;
};

/**
 * The step a form was posted to: null when there is no such funnel, somewhere else to go
 * when the visitor cannot be on this step (an unknown step id, or one they have not reached),
 * else the step and its form's schema.
 */
export async function stepToAnswer(input: {
  cookieHeader: string | null;
  route: string;
  stepParam?: string;
  version?: FunnelVersion | null;
}): Promise<StepToAnswer | Go | null> {
  const located = await locate(input.route, input.stepParam, input.version);
  if (located.kind === "not-found") return null;
  if (located.kind === "redirect") return goOn(located.to);
  const { funnel, step } = located;
  const state = await readFunnelState(input.cookieHeader, funnel);
  const access = stepAccess(funnel, step.id, state.answers, state.result !== undefined);
  if (!access.ok) return goOn(access.redirectTo);
  return { funnel, step, state, form: stepFormSchema(step) };
}

/** Saves a step's answers (already read by its form's schema) and says where the funnel goes next. */
export async function answerFunnelStep(at: StepToAnswer, submitted: StepAnswers | EmailGiven): Promise<StepAnswered | Refusal> {
  const { funnel, step, state } = at;
  if (step.type === "email") return giveEmail(at, step, submitted as EmailGiven);
  if (step.type === "intro") {
    const next: FunnelState = step.resetAnswers ? { answers: {} } : state;
    const cookies = step.resetAnswers ? [await writeFunnelState(funnel, next)] : [];
    return { ...goOn(targetPath(funnel, nextTarget(step.next, next.answers)), cookies), events: [] };
  }

  if (step.type !== "question") return refusal(405, "There is nothing to submit on this page.");

  const answers = { ...state.answers, ...(submitted as StepAnswers) };
  if (!canContinue(step, answers)) return refusal(400, "Please answer this step to continue.");
  const next: FunnelState = { ...state, answers };
  const target = nextTarget(step.next, answers);
  // Every answered step is logged (the admin's per-step drop-off); a funnel without a result
  // step is finished when its last answer leads out of it.
  const events: PlannedEvent[] = [{ name: "step_answered", funnel: funnel.id, step: step.id, props: { answers: submitted } }];
  if ("href" in target) events.push({ name: "funnel_completed", funnel: funnel.id, step: step.id, props: { answers } });
  return { ...goOn(targetPath(funnel, target), [await writeFunnelState(funnel, next)]), events };
}

/**
 * The e-mail step answered: on to the result either way. With an address, the lead (answers,
 * the result it leads to, consent as ticked) and its email_captured event, whose id the
 * answers cookie keeps for the result page's pixel Lead. Skipped: nothing is recorded.
 */
async function giveEmail(at: StepToAnswer, step: Extract<Step, { type: "email" }>, given: EmailGiven): Promise<StepAnswered> {
  const { funnel, state } = at;
  const to = targetPath(funnel, nextTarget(step.next, state.answers));
  const walked = journey(funnel, state.answers);
  const result = walked.end === "result" ? walked.steps.at(-1) : undefined;
  if (!given.email || result?.type !== "result") {
    // A visitor who skips (or gives an address and then skips on a second visit) is no lead now.
    const next: FunnelState = { answers: state.answers };
    return { ...goOn(to, state.lead ? [await writeFunnelState(funnel, next)] : []), events: [] };
  }
  const eventId = crypto.randomUUID();
  const lead: LeadToRecord = {
    eventId,
    funnelId: funnel.id,
    email: given.email,
    marketingConsent: given.consent,
    consentText: given.consent ? step.consentLabel : null,
    answers: { ...state.answers } as Record<string, string | string[]>,
    insight: pickInsight(result.pick, state.answers)._ref,
    offerPath: result.cta.href,
    timeZone: given.timeZone,
    recoveryAfterHours: step.recoveryAfterHours,
    checkoutReminderAfterHours: step.checkoutReminderAfterHours ?? null,
  };
  const events: PlannedEvent[] = [{ id: eventId, name: "email_captured", funnel: funnel.id, step: step.id, props: { consent: given.consent } }];
  return { ...goOn(to, [await writeFunnelState(funnel, { answers: state.answers, lead: eventId })]), events, lead };
}

/** Funnel links come from content: only paths on this site are followed. */
function goOn(to: string, cookies: string[] = []): Go {
  return go(safeRedirect(to, "/"), cookies);
}

/**
 * True when the quiz's JavaScript, knowing the answers the server knows, has already shown the
 * page this answer leads to (it works it out with the same rule, ADR 43): the answer's response
 * then needs to say only where the funnel goes. When the tab knew less, it asks for the page.
 */
export function browserShowsNext(at: StepToAnswer, submitted: StepAnswers | EmailGiven, answered: Go, variant?: string): boolean {
  const before = at.state.answers;
  const after = answersAfter(at.step, before, submitted as StepAnswers);
  return nextPlainStep(clientPlanOf(at.funnel), at.step.id, before, after, variant)?.to === answered.go;
}

/**
 * The page an answer leads to, opened as its own request would open it (events and cookies
 * planned, not performed), for the app's JavaScript, which shows it without asking again.
 * Null when the answer leads out of this funnel or that step would send the visitor elsewhere.
 */
export async function nextStepOf(
  funnel: Funnel,
  answered: Go,
  cookieHeader: string | null,
  version?: FunnelVersion | null,
): Promise<Extract<LoadOutcome, { kind: "view" }> | null> {
  const inFunnel = answered.go === funnel.route || funnel.steps.some((step) => stepPath(funnel, step.id) === answered.go);
  if (!inFunnel) return null;
  const stepParam = answered.go === funnel.route ? undefined : answered.go.slice(funnel.route.length + 1);
  const outcome = await planFunnelStep({ cookieHeader: withSetCookies(cookieHeader, answered.cookies), route: funnel.route, stepParam, version });
  return outcome.kind === "view" ? outcome : null;
}
