/**
 * The funnel engine: pure functions over a funnel and the answers so far. No React,
 * no I/O, no clock. Routes call these; renderers only display what they return.
 */
import type { Condition, DocumentRef, Funnel, InsightRules, Next, Option, Question, Step, StepOfType, Target } from "../content-model/funnel";

/** Answers by field: one option value, or a list for multi-choice questions. */
export type Answers = Readonly<Record<string, string | readonly string[]>>;

export type QuestionStepT = StepOfType<"question">;

export function findStep(funnel: Funnel, id: string): Step | undefined {
  return funnel.steps.find((step) => step.id === id);
}

/** The step shown at the funnel's bare URL (/quiz): the first one. */
export function entryStep(funnel: Funnel): Step {
  return funnel.steps[0];
}

export function stepPath(funnel: Funnel, stepId: string): string {
  return `${funnel.route}/${stepId}`;
}

export function targetPath(funnel: Funnel, target: Target): string {
  return "step" in target ? stepPath(funnel, target.step) : target.href;
}

// ---------------------------------------------------------------------------
// Conditions and branching

function chosenValues(answers: Answers, field: string): readonly string[] {
  const value = answers[field];
  if (value === undefined) return [];
  return typeof value === "string" ? [value] : value;
}

export function conditionHolds(condition: Condition, answers: Answers): boolean {
  if (condition.answered !== undefined) return (answers[condition.field] !== undefined) === condition.answered;
  const chosen = chosenValues(answers, condition.field);
  return chosen.some((value) => condition.anyOf!.includes(value));
}

export function allHold(conditions: readonly Condition[] | undefined, answers: Answers): boolean {
  return (conditions ?? []).every((condition) => conditionHolds(condition, answers));
}

/** Where a step leads with these answers: the first branch whose conditions hold. */
export function nextTarget(next: Next, answers: Answers): Target {
  for (const branch of next) if (allHold(branch.when, answers)) return branch.to;
  // The schema requires an unconditional last branch; this is only reached by hand-built data.
  return next[next.length - 1].to;
}

/**
 * The first rule whose conditions all hold. Every rule list runs through this: funnel result
 * and insight rules, and a plan's reasons, products, tips and step variants.
 */
export function firstMatch<R extends { when: readonly Condition[] }>(rules: readonly R[], answers: Answers): R | undefined {
  return rules.find((rule) => allHold(rule.when, answers));
}

/** The insight a result or insight step shows: first matching rule, else `otherwise`. */
export function pickInsight(pick: InsightRules, answers: Answers): DocumentRef {
  return firstMatch(pick.rules, answers)?.insight ?? pick.otherwise;
}

// ---------------------------------------------------------------------------
// Answering

function isQuestionAnswered(question: Question, answers: Answers, skippable: boolean): boolean {
  const value = answers[question.field];
  const known = new Set(question.options.map((o) => o.value));
  if (question.select === "one") return typeof value === "string" && known.has(value);
  if (!Array.isArray(value) || !value.every((v) => known.has(v))) return false;
  if (value.length === 0) return skippable;
  return value.length >= (question.minSelected ?? 1);
}

/** True when every question of the step has a valid answer (what enables Continue). */
export function canContinue(step: { type: Step["type"]; questions?: readonly Question[]; skipLabel?: string }, answers: Answers): boolean {
  if (step.type !== "question" || !step.questions) return true;
  return step.questions.every((q) => isQuestionAnswered(q, answers, step.skipLabel !== undefined));
}

/** What choosing `value` does to a multi-choice selection (exclusive options clear the rest). */
export function toggleChoice(question: Question, selected: readonly string[], value: string): string[] {
  const option = question.options.find((o) => o.value === value);
  if (!option) return [...selected];
  if (selected.includes(value)) return selected.filter((v) => v !== value);
  if (option.exclusive) return [value];
  const exclusive = new Set(question.options.filter((o) => o.exclusive).map((o) => o.value));
  return [...selected.filter((v) => !exclusive.has(v)), value];
}

/** Keeps only answers the funnel still asks, with options it still has (e.g. an old cookie). */
export function sanitizeAnswers(funnel: Funnel, raw: Record<string, unknown>): Record<string, string | string[]> {
  const clean: Record<string, string | string[]> = {};
  for (const step of funnel.steps) {
    if (step.type !== "question") continue;
    for (const question of step.questions) {
      const value = raw[question.field];
      const known = new Set(question.options.map((o) => o.value));
      if (question.select === "one" && typeof value === "string" && known.has(value)) clean[question.field] = value;
      if (question.select === "many" && Array.isArray(value) && value.every((v) => typeof v === "string" && known.has(v))) {
        clean[question.field] = [...new Set(value as string[])];
      }
    }
  }
  return clean;
}

// ---------------------------------------------------------------------------
// Where the visitor is

export type Journey = {
  /** The steps a visitor with these answers passes through, in order. */
  steps: Step[];
  /** Why the walk stopped: an unanswered question, the result, a link out of the funnel, or a loop. */
  end: "unanswered" | "result" | "leaves" | "loop";
};

/**
 * Walks the funnel from its first step, following each step's branches with the
 * given answers, until a question is unanswered or the funnel ends. Answers are
 * fixed during the walk, so a step seen twice means the branches loop.
 */
export function journey(funnel: Funnel, answers: Answers): Journey {
  const steps: Step[] = [];
  const seen = new Set<string>();
  let step: Step | undefined = entryStep(funnel);
  while (step) {
    if (seen.has(step.id)) return { steps, end: "loop" };
    seen.add(step.id);
    steps.push(step);
    if (step.type === "result") return { steps, end: "result" };
    if (step.type === "question" && !canContinue(step, answers)) return { steps, end: "unanswered" };
    const target = nextTarget(step.next, answers);
    if ("href" in target) return { steps, end: "leaves" };
    step = findStep(funnel, target.step);
  }
  return { steps, end: "loop" };
}

export type Access = { ok: true } | { ok: false; redirectTo: string };

/**
 * May a visitor with these answers see this step? Yes when it lies on their journey,
 * when it is a question they already answered (going back to change it), or when it is
 * the result and a result was already worked out. Otherwise they are sent to the
 * furthest step they can be on (the first unanswered question).
 */
export function stepAccess(funnel: Funnel, stepId: string, answers: Answers, hasResult: boolean): Access {
  const walked = journey(funnel, answers);
  const step = findStep(funnel, stepId);
  const furthest = walked.steps[walked.steps.length - 1];
  if (!step) return { ok: false, redirectTo: funnel.route };
  if (walked.steps.some((s) => s.id === stepId)) return { ok: true };
  if (step.type === "question" && canContinue(step, answers)) return { ok: true };
  if (step.type === "result" && hasResult) return { ok: true };
  return { ok: false, redirectTo: stepPath(funnel, furthest.id) };
}

/**
 * Where "Back" goes: the step before this one on the visitor's journey, skipping
 * screens that only make sense going forward (analysing). Off the journey (a revisited
 * answer), the nearest earlier question in the funnel.
 */
export function previousStepId(funnel: Funnel, stepId: string, answers: Answers): string | undefined {
  const walked = journey(funnel, answers).steps;
  const at = walked.findIndex((s) => s.id === stepId);
  const before =
    at >= 0
      ? walked.slice(0, at)
      : funnel.steps.slice(
          0,
          funnel.steps.findIndex((s) => s.id === stepId),
        );
  for (let i = before.length - 1; i >= 0; i--) {
    if (before[i].type !== "analysing") return before[i].id;
  }
  return undefined;
}

// ---------------------------------------------------------------------------
// Position and progress, from the funnel's graph (ADR 34)

/** Where a question step stands in its funnel: "Step 3 of 12", 25%. */
export type StepPosition = { position: number; total: number; progress: number };

const MAX_WAYS = 10_000;
const positionsByFunnel = new WeakMap<Funnel, ReadonlyMap<string, StepPosition>>();

/**
 * Each question step's position and the funnel's length as seen from it, worked out from the
 * branches alone (whatever the answers), so a marketer who adds or removes a question never
 * retypes a label. Along every way through the funnel from its first step (a step is not
 * entered twice on one way, so a loop back ends that way), a question's position is the number
 * of questions up to it, and the total is the questions on that way; a step keeps the largest
 * of each. A straight funnel of 12 questions gives "Step 1 of 12" … "Step 12 of 12"; on a
 * shorter branch the count jumps ahead, never backwards, and still ends at 100%.
 * A funnel of one question has no position to show (no step in the map).
 */
export function stepPositions(funnel: Funnel): ReadonlyMap<string, StepPosition> {
  const known = positionsByFunnel.get(funnel);
  if (known) return known;
  const byId = new Map(funnel.steps.map((step) => [step.id, step]));
  const best = new Map<string, { position: number; total: number }>();
  const onWay: string[] = [];
  // Funnels are a few dozen steps with few branches; a pathological graph stops counting here.
  let ways = 0;
  const walk = (step: Step | undefined) => {
    if (ways > MAX_WAYS) return;
    if (!step || onWay.includes(step.id)) return finishWay();
    onWay.push(step.id);
    const targets = "next" in step ? [...new Set(step.next.flatMap((branch) => ("step" in branch.to ? [branch.to.step] : [])))] : [];
    const leaves = step.type === "result" || !("next" in step) || step.next.some((branch) => "href" in branch.to);
    if (leaves) finishWay();
    for (const target of targets) walk(byId.get(target));
    onWay.pop();
  };
  const finishWay = () => {
    ways++;
    const questions = onWay.filter((id) => byId.get(id)!.type === "question");
    questions.forEach((id, i) => {
      const now = best.get(id);
      best.set(id, { position: Math.max(now?.position ?? 0, i + 1), total: Math.max(now?.total ?? 0, questions.length) });
    });
  };
  walk(entryStep(funnel));
  const positions = new Map<string, StepPosition>();
  if (Math.max(0, ...[...best.values()].map((b) => b.total)) > 1) {
    for (const [id, { position, total }] of best) positions.set(id, { position, total, progress: progressPercent(position, total) });
  }
  positionsByFunnel.set(funnel, positions);
  return positions;
}

/** Percent to one decimal, as the seed writes it: 1 of 12 is 8.3. */
export function progressPercent(position: number, total: number): number {
  return Math.round((position / total) * 1000) / 10;
}

/** The label the engine writes when content sets none. */
export function positionLabel({ position, total }: Pick<StepPosition, "position" | "total">): string {
  return `Step ${position} of ${total}`;
}

/**
 * The label and progress a step shows: its own where content sets them (the seed's exact
 * texts, "Final Question"), else the computed ones for a question step; other steps show
 * only what content gives them.
 */
export function stepChrome(funnel: Funnel, step: Step): { label?: string; progress?: number } {
  const computed = step.type === "question" ? stepPositions(funnel).get(step.id) : undefined;
  const label = step.label ?? (computed ? positionLabel(computed) : undefined);
  const progress = step.progress ?? computed?.progress;
  return { ...(label !== undefined ? { label } : {}), ...(progress !== undefined ? { progress } : {}) };
}

// ---------------------------------------------------------------------------
// Words on screen

export function findOption(funnel: Funnel, field: string, value: string): Option | undefined {
  for (const step of funnel.steps) {
    if (step.type !== "question") continue;
    for (const question of step.questions) {
      if (question.field === field) return question.options.find((o) => o.value === value);
    }
  }
  return undefined;
}

/** Each chosen option's short wording (or label), in the order chosen; at most `limit`. */
export function answerWords(funnel: Funnel, answers: Answers, field: string, limit?: number): string[] {
  const values = chosenValues(answers, field).slice(0, limit);
  return values
    .map((v) => findOption(funnel, field, v))
    .filter((o): o is Option => !!o)
    .map((o) => o.summary ?? o.label);
}

/** The words for an answer, joined naturally ("breakouts, redness and dark spots"). */
export function describeAnswer(funnel: Funnel, answers: Answers, field: string): string | undefined {
  const words = answerWords(funnel, answers, field);
  if (words.length === 0) return undefined;
  if (words.length === 1) return words[0];
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

/**
 * Replaces {field} placeholders in content text with the visitor's answers, in the
 * options' short wording (`summary`), which editors write to read well mid-sentence.
 * A field without an answer becomes an empty string, never raw braces on screen.
 */
export function fillTemplate(text: string, funnel: Funnel, answers: Answers): string {
  return text.replace(/\{([a-z][A-Za-z0-9]*)\}/g, (_whole, field: string) => describeAnswer(funnel, answers, field) ?? "");
}

/** The step's button text; "{choice}" becomes the chosen option's label (or is dropped until one is chosen). */
export function continueLabel(step: Pick<QuestionStepT, "continueLabel" | "questions">, answers: Answers): string {
  if (!step.continueLabel.includes("{choice}")) return step.continueLabel;
  const question = step.questions[0];
  const value = answers[question.field];
  const option = typeof value === "string" ? question.options.find((o) => o.value === value) : undefined;
  if (option) return step.continueLabel.replace("{choice}", option.label);
  return step.continueLabel.replace(/\s*\S*\s*\{choice\}/, "").trim() || "Continue";
}
