/**
 * A step's page data worked out from the funnel and the answers alone: pure, so the server
 * (flow.server.ts) and the browser (answer-queue.ts, which shows the next question the moment an
 * answer is given, ADR 43) build the same view the same way.
 */
import { entryStep, findStep, journey, nextTarget, previousStepId, stepPath, targetPath, type Answers } from "./engine";
import type { Funnel, Step } from "../content-model/funnel";
import type { ClientStep, StepView } from "./view";

/** The saved answers of this step's questions (to preselect them). */
export function stepAnswers(step: Step, answers: Answers): Record<string, string | string[]> {
  if (step.type !== "question") return {};
  const picked: Record<string, string | string[]> = {};
  for (const q of step.questions) {
    const value = answers[q.field];
    if (value !== undefined) picked[q.field] = typeof value === "string" ? value : [...value];
  }
  return picked;
}

/**
 * What every step's view holds. `plan`: the funnel as the browser gets it (clientPlanOf in
 * flow.server.ts), whose steps carry their label and progress already.
 */
export function baseStepView(plan: Funnel, step: Step, answers: Answers, variant?: string): StepView {
  const { next: _next, pick: _pick, ...clientStep } = step as Step & { next?: unknown; pick?: unknown };
  const previous = step.back === false ? undefined : previousStepId(plan, step.id, answers);
  return {
    funnel: { id: plan.id, route: plan.route, pageTitle: plan.pageTitle },
    step: clientStep as ClientStep,
    answers: stepAnswers(step, answers),
    backHref: previous === undefined ? undefined : stepPath(plan, previous),
    // The page differs by variant: both page caches key on the view, and so on this.
    ...(variant ? { variant } : {}),
  };
}

/**
 * The view of a step that needs nothing but the funnel and the answers (an intro, a question, the
 * analysing screen); null for the steps that show documents (insight, summary, result). An intro's
 * and a question's view carry the plan, so the browser can work out the step after them.
 */
export function plainStepView(plan: Funnel, step: Step, answers: Answers, variant?: string): StepView | null {
  const base = baseStepView(plan, step, answers, variant);
  if (step.type === "question") return { ...base, plan };
  if (step.type === "intro") return { ...base, plan, nextHref: targetPath(plan, nextTarget(step.next, answers)) };
  if (step.type === "analysing") return { ...base, nextHref: targetPath(plan, nextTarget(step.next, answers)) };
  return null;
}

/** The answers after a step is answered: an intro that starts afresh clears them (as the server does). */
export function answersAfter(step: Pick<Step, "type"> & { resetAnswers?: boolean }, before: Answers, given: Answers): Answers {
  return step.type === "intro" && step.resetAnswers ? {} : { ...before, ...given };
}

/**
 * The page an answer (a question's, or an intro's start) leads to, as the browser can show it
 * before the server has it: the next step's view when the answered step is on the visitor's way
 * through the funnel (so every answer the branches read is known) and the next step needs
 * nothing else (not the first step, which records the funnel's view, and not a document step).
 * Null: the server's answer is awaited.
 */
export function nextPlainStep(
  plan: Funnel,
  stepId: string,
  before: Answers,
  after: Answers,
  variant?: string,
): { to: string; page: StepView } | null {
  const step = findStep(plan, stepId);
  if (!step || (step.type !== "question" && step.type !== "intro")) return null;
  // Answers the page does not know (another tab, an old session) could change the branches.
  if (!journey(plan, before).steps.some((walked) => walked.id === stepId)) return null;
  const target = nextTarget(step.next, after);
  if (!("step" in target) || target.step === entryStep(plan).id) return null;
  const next = findStep(plan, target.step);
  const page = next && plainStepView(plan, next, after, variant);
  return page ? { to: stepPath(plan, target.step), page } : null;
}
