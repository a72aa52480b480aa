/**
 * The funnel linter (`npm run funnels:check`): what the schema cannot see from inside one
 * funnel (other funnels, the content dataset, the app's pages) and rules and branches that
 * are valid but can never do what their author meant. Pure: scripts/funnels-check.ts loads
 * the files, so tests can feed broken funnels straight in.
 *
 * Every problem is one line, `file: step id: what is wrong`, with `(funnel)` in place of
 * the step id when no single step is at fault.
 */
import { reservedPathProblem } from "../content-model/reserved-paths";
import { positionLabel, stepPositions } from "./engine";
import { resolveFunnel } from "../content/funnel-resolve";
import type { Condition, Funnel, InsightRules, Step } from "../content-model/funnel";

export type FunnelFile = { file: string; doc: unknown };
export type ContentDocument = { _id: string; _type: string; [key: string]: unknown };

export type LintInput = {
  files: FunnelFile[];
  dataset: ContentDocument[];
  /** The app's own pages as route patterns: "/", "/plan/:id", "/quiz/:step?". */
  appRoutes: string[];
  /** Paths funnels may already link to although their page is not built yet, with the reason. */
  pendingRoutes?: Record<string, string>;
};

export type LintReport = { errors: string[]; warnings: string[] };

type Problem = { file: string; step: string; message: string; warning?: true };
type Resolved = { file: string; funnel: Funnel };

const FUNNEL = "(funnel)";

export function lintFunnels({ files, dataset, appRoutes, pendingRoutes = {} }: LintInput): LintReport {
  const documents = new Map(dataset.map((d) => [d._id, d]));
  const shared = new Map<string, unknown>(dataset.filter((d) => d._type === "question").map((d) => [d._id, d]));
  const mistyped = files.map(({ file, doc }) => mistypedQuestionRefs(file, doc, documents));

  const resolved: Resolved[] = [];
  const schema: Problem[] = [];
  files.forEach(({ file, doc }, i) => {
    const result = resolveFunnel(doc, shared);
    if (result.ok) resolved.push({ file, funnel: result.funnel });
    else schema.push(...schemaProblems(file, doc, result.problems, mistyped[i]));
  });

  // A link to any funnel page or offer page is a link to a page that exists.
  const offerPaths = dataset.flatMap((d) => (d._type === "offer" && typeof d.path === "string" ? [d.path] : []));
  const routes = [...appRoutes, ...files.flatMap(({ doc }) => funnelPaths(doc)), ...offerPaths];
  const pending = new Map(Object.entries(pendingRoutes));
  const problems = [
    ...schema,
    ...duplicateProblems(files, appRoutes),
    // Checks of `resolved` need a valid funnel: a file that does not resolve gets only its schema
    // and reference problems, not a cascade of errors from its broken parts.
    ...resolved.flatMap(graphProblems),
    ...resolved.flatMap(emailStepProblems),
    ...resolved.flatMap(ruleProblems),
    ...resolved.flatMap((r) => targetProblems(r, routes, pending)),
    ...mistyped.flat().map((m) => m.problem),
    ...resolved.flatMap((r) => insightRefProblems(r, documents)),
    ...resolved.flatMap((r) => summaryProblems(r, resolved, files)),
    ...resolved.flatMap(({ file, funnel }) =>
      labelProblems(funnel).map(({ path, message }): Problem => ({ file, step: funnel.steps[path[1] as number].id, message: `${path[2]}: ${message}`, warning: true })),
    ),
  ];
  return {
    errors: problems.filter((p) => !p.warning).map(formatProblem),
    warnings: problems.filter((p) => p.warning).map(formatProblem),
  };
}

/** A problem in one funnel document, by path ("steps", 3, "next", 0, ...), for editors that mark fields. */
export type FunnelDocumentProblem = { path: (string | number)[]; message: string };

/** "steps.3.questions.0 (question-x): options: ..." → the path and the message. */
function splitProblem(problem: string): FunnelDocumentProblem {
  const match = /^([^\s:]+)(?: \([^)]*\))?: (.*)$/s.exec(problem);
  if (!match || match[1] === "(root)") return { path: [], message: match ? match[2] : problem };
  return { path: match[1].split(".").map((part) => (/^\d+$/.test(part) ? Number(part) : part)), message: match[2] };
}

/**
 * The checks one funnel needs on its own, without the other funnels or the app's pages:
 * the schema (through resolveFunnel), every step reachable and able to exit, and result
 * rules that can match. The Studio runs this before a funnel is published; links to app
 * pages and other funnels are left to `npm run funnels:check` after `content:pull`.
 *
 * @param shared shared question documents by _id, for `{ "_ref": ... }` questions
 */
export function lintFunnelDocument(doc: unknown, shared: ReadonlyMap<string, unknown>): FunnelDocumentProblem[] {
  const result = resolveFunnel(doc, shared);
  if (!result.ok) return result.problems.map(splitProblem);
  const resolved = { file: "", funnel: result.funnel };
  const index = new Map(result.funnel.steps.map((step, i) => [step.id, i]));
  return [...graphProblems(resolved), ...emailStepProblems(resolved), ...ruleProblems(resolved)].map(({ step, message }) => {
    const stepPath = index.has(step) ? ["steps", index.get(step)!] : [];
    // Rule problems start with their path inside the step ("pick.rules.1 can never match").
    const inner = /^(pick\.rules\.\d+) (.*)$/s.exec(message);
    return inner ? { path: [...stepPath, ...splitProblem(`${inner[1]}: x`).path], message: inner[2] } : { path: stepPath, message };
  });
}

function formatProblem({ file, step, message }: Problem): string {
  return `${file}: ${step}: ${message.replace(/\s*\n\s*/g, " ")}`;
}

// ---------------------------------------------------------------------------
// Reading the raw document, which may be any shape when it fails the schema

function property(value: unknown, key: string): unknown {
  return value !== null && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
}

function rawSteps(doc: unknown): unknown[] {
  const steps = property(doc, "steps");
  return Array.isArray(steps) ? steps : [];
}

/** The step's id as its author wrote it, or its position when it has no usable id. */
function stepLabel(doc: unknown, index: number): string {
  const id = property(rawSteps(doc)[index], "id");
  return typeof id === "string" && id.trim() ? id : `steps.${index}`;
}

function funnelPaths(doc: unknown): string[] {
  const route = property(doc, "route");
  if (typeof route !== "string") return [];
  const ids = rawSteps(doc)
    .map((step) => property(step, "id"))
    .filter((id): id is string => typeof id === "string");
  return [route, ...ids.map((id) => `${route}/${id}`)];
}

// ---------------------------------------------------------------------------
// a. Schema

const STEP_PATH = /^steps\.(\d+)(?=[.: ]|$)(.*)$/s;

/**
 * resolveFunnel names problems by path ("steps.3.next.0.to.step: no step "9""); authors
 * know steps by id, so "steps.N" becomes the id of step N and the rest of the path stays.
 * Problems another check explains better (a question reference to a non-question) are left to it.
 */
function schemaProblems(file: string, doc: unknown, problems: string[], mistyped: MistypedRef[]): Problem[] {
  const explained = mistyped.map((m) => `${m.path}: `);
  return problems
    .filter((problem) => !explained.some((prefix) => problem.startsWith(prefix)))
    .map((problem) => {
      const match = STEP_PATH.exec(problem);
      if (!match) return { file, step: FUNNEL, message: problem };
      return { file, step: stepLabel(doc, Number(match[1])), message: match[2].replace(/^[.:]?\s*/, "") };
    });
}

// ---------------------------------------------------------------------------
// b. Funnel ids and routes

/** Two funnels with one id share answers and analytics; with one route, only one is ever served. */
function duplicateProblems(files: FunnelFile[], appRoutes: string[]): Problem[] {
  const firstFile = new Map<string, string>();
  return files.flatMap(({ file, doc }) => {
    const problems: Problem[] = [];
    for (const key of ["id", "route"]) {
      const value = property(doc, key);
      if (typeof value !== "string") continue;
      const earlier = firstFile.get(`${key} ${value}`);
      if (earlier) problems.push({ file, step: FUNNEL, message: `${key} "${value}" is already used by ${earlier}` });
      else firstFile.set(`${key} ${value}`, file);
    }
    const route = property(doc, "route");
    // Remix prefers an app page's static path to the generic funnel route, so the funnel would never show.
    // (The schema already refuses the reserved addresses; this catches a page added since.)
    if (typeof route === "string" && !reservedPathProblem(route) && appRoutes.some((pattern) => matchesRoute(pattern, route))) {
      problems.push({ file, step: FUNNEL, message: `route "${route}" is already a page of the app` });
    }
    return problems;
  });
}

// ---------------------------------------------------------------------------
// c. Graph: every branch counts, whatever its conditions

function stepTargets(step: Step): string[] {
  return "next" in step ? step.next.flatMap((branch) => ("step" in branch.to ? [branch.to.step] : [])) : [];
}

/** A step that ends the funnel or leaves it. */
function isExit(step: Step): boolean {
  return step.type === "result" || ("next" in step && step.next.some((branch) => "href" in branch.to));
}

function closure(start: string[], neighbours: (id: string) => string[]): Set<string> {
  const seen = new Set(start);
  const queue = [...start];
  for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
    for (const next of neighbours(id)) {
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return seen;
}

function graphProblems({ file, funnel }: Resolved): Problem[] {
  const targets = new Map(funnel.steps.map((step) => [step.id, stepTargets(step)]));
  const sources = new Map<string, string[]>();
  for (const [id, ids] of targets) for (const target of ids) sources.set(target, [...(sources.get(target) ?? []), id]);

  const entry = funnel.steps[0].id;
  const reachable = closure([entry], (id) => targets.get(id) ?? []);
  const canExit = closure(
    funnel.steps.filter(isExit).map((step) => step.id),
    (id) => sources.get(id) ?? [],
  );
  return funnel.steps.flatMap((step): Problem[] => {
    if (!reachable.has(step.id)) return [{ file, step: step.id, message: `unreachable: no branch leads here from the first step "${entry}"` }];
    if (!canExit.has(step.id)) {
      return [{ file, step: step.id, message: "no exit can be reached from here: every way on stays in the funnel without reaching a result or a link out" }];
    }
    return [];
  });
}

/**
 * The e-mail step asks where to send the plan, so it stands before the result: each of its
 * branches stays in the funnel, and a result is reachable from it. (Reachable from the first
 * step, and one per funnel, are checked with the rest of the graph and by the schema.)
 */
function emailStepProblems({ file, funnel }: Resolved): Problem[] {
  const byId = new Map(funnel.steps.map((step) => [step.id, step]));
  return funnel.steps.flatMap((step): Problem[] => {
    if (step.type !== "email") return [];
    if (step.next.some((branch) => "href" in branch.to)) {
      return [{ file, step: step.id, message: "the e-mail step comes before the result: its branches must lead to steps of this funnel, not out of it" }];
    }
    const after = closure(stepTargets(step), (id) => {
      const next = byId.get(id);
      return next ? stepTargets(next) : [];
    });
    if (![...after].some((id) => byId.get(id)?.type === "result")) {
      return [{ file, step: step.id, message: "the e-mail step comes before the result: no result step can be reached from it" }];
    }
    return [];
  });
}

// ---------------------------------------------------------------------------
// c2. Labels and progress that content typed over the engine's (ADR 34)

/** "Step 3 of 12", "3 of 12": the numbers a label states, if it states any. */
const STATED_POSITION = /\b(\d+)\s+of\s+(\d+)\b/;

/**
 * A question step whose own label or progress disagrees with its place in the funnel, as the
 * engine works it out (stepPositions): the page would show the stale text. Warnings, by path
 * (["steps", i, "label" | "progress"]), for funnels:check and the Studio: the page still works,
 * and clearing the field shows the computed value. Labels without numbers ("Final Question")
 * are the marketer's words and are not checked.
 */
export function labelProblems(funnel: Funnel): FunnelDocumentProblem[] {
  const positions = stepPositions(funnel);
  return funnel.steps.flatMap((step, i): FunnelDocumentProblem[] => {
    const computed = step.type === "question" ? positions.get(step.id) : undefined;
    if (!computed) return [];
    const problems: FunnelDocumentProblem[] = [];
    const stated = step.label ? STATED_POSITION.exec(step.label) : null;
    if (stated && (Number(stated[1]) !== computed.position || Number(stated[2]) !== computed.total)) {
      problems.push({
        path: ["steps", i, "label"],
        message: `"${step.label}" disagrees with the step's place in the quiz: it is ${positionLabel(computed)}. Clear the label to show the computed one.`,
      });
    }
    if (step.progress !== undefined && Math.abs(step.progress - computed.progress) > 0.05) {
      problems.push({
        path: ["steps", i, "progress"],
        message: `${step.progress}% disagrees with the step's place in the quiz (${positionLabel(computed)}): it is ${computed.progress}%. Clear it to show the computed one.`,
      });
    }
    return problems;
  });
}

/**
 * The label and progress warnings of one funnel document, for the Studio (a warning marker
 * on the field; publishing is not blocked). A document the app cannot run has none: its errors come first.
 */
export function lintFunnelLabels(doc: unknown, shared: ReadonlyMap<string, unknown>): FunnelDocumentProblem[] {
  const result = resolveFunnel(doc, shared);
  return result.ok ? labelProblems(result.funnel) : [];
}

// ---------------------------------------------------------------------------
// d. Result and insight rules

function questionsOf(funnel: Funnel) {
  return funnel.steps.flatMap((step) => (step.type === "question" ? step.questions : []));
}

function ruleProblems({ file, funnel }: Resolved): Problem[] {
  const singleChoice = new Set(
    questionsOf(funnel)
      .filter((q) => q.select === "one")
      .map((q) => q.field),
  );
  return funnel.steps.flatMap((step) =>
    step.type === "insight" || step.type === "result" ? pickProblems(step.pick, singleChoice).map((message) => ({ file, step: step.id, message })) : [],
  );
}

function pickProblems(pick: InsightRules, singleChoice: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  // Rules that can match; a contradictory rule never matches, so it shadows nothing.
  const possible: number[] = [];
  pick.rules.forEach((rule, i) => {
    const contradiction = findContradiction(rule.when, singleChoice);
    if (contradiction) {
      problems.push(`pick.rules.${i} can never match: ${contradiction}`);
      return;
    }
    const earlier = possible.find((j) => pick.rules[j].when.every((condition) => impliedBy(condition, rule.when)));
    if (earlier !== undefined) problems.push(`pick.rules.${i} is never used: whenever it matches, pick.rules.${earlier} matches first`);
    possible.push(i);
  });
  return problems;
}

const valueList = (values: readonly string[]) => values.map((v) => `"${v}"`).join(", ");

function findContradiction(conditions: Condition[], singleChoice: ReadonlySet<string>): string | undefined {
  for (const [i, a] of conditions.entries()) {
    for (const b of conditions.slice(i + 1)) {
      const why = a.field === b.field ? contradiction(a, b, singleChoice.has(a.field)) : undefined;
      if (why) return why;
    }
  }
  return undefined;
}

/** Why two conditions on the same field cannot both hold, if they cannot. */
function contradiction(a: Condition, b: Condition, singleChoice: boolean): string | undefined {
  const field = a.field;
  if (a.answered !== undefined && b.answered !== undefined) {
    return a.answered === b.answered ? undefined : `"${field}" cannot be answered and unanswered at once`;
  }
  if (a.answered === false || b.answered === false) {
    return `"${field}" cannot be unanswered and one of ${valueList(a.anyOf ?? b.anyOf ?? [])} at once`;
  }
  // Two lists on a multi-choice field can both hold: one chosen value from each.
  if (a.anyOf && b.anyOf && singleChoice && !a.anyOf.some((value) => b.anyOf!.includes(value))) {
    return `"${field}" has a single answer, which cannot be one of ${valueList(a.anyOf)} and one of ${valueList(b.anyOf)}`;
  }
  return undefined;
}

/** True when `condition` holds whenever all of `conditions` hold, judging one condition at a time. */
function impliedBy(condition: Condition, conditions: Condition[]): boolean {
  return conditions.some((c) => c.field === condition.field && implies(c, condition));
}

function implies(c: Condition, then: Condition): boolean {
  if (then.anyOf) return c.anyOf?.every((value) => then.anyOf!.includes(value)) ?? false;
  // An anyOf only holds for a chosen value, so the field is answered.
  if (then.answered) return c.anyOf !== undefined || c.answered === true;
  return c.answered === false;
}

// ---------------------------------------------------------------------------
// e. Links out of the funnel

/** Route patterns match by path segment: ":x" is any one segment, "x?" may be left out, "*" is the rest. */
function matchesRoute(pattern: string, path: string): boolean {
  return matchSegments(pattern.split("/").filter(Boolean), path.split("/").filter(Boolean));
}

function matchSegments(pattern: string[], path: string[]): boolean {
  if (pattern.length === 0) return path.length === 0;
  const [head, ...rest] = pattern;
  if (head === "*") return true;
  const optional = head.endsWith("?");
  const name = optional ? head.slice(0, -1) : head;
  const here = path.length > 0 && (name.startsWith(":") || name === path[0]) && matchSegments(rest, path.slice(1));
  return here || (optional && matchSegments(rest, path));
}

function linksOf(step: Step): { where: string; href: string }[] {
  const branches = "next" in step ? step.next.flatMap((branch, j) => ("href" in branch.to ? [{ where: `next.${j}.to.href`, href: branch.to.href }] : [])) : [];
  return step.type === "result" ? [...branches, { where: "cta.href", href: step.cta.href }] : branches;
}

function targetProblems({ file, funnel }: Resolved, routes: string[], pending: ReadonlyMap<string, string>): Problem[] {
  return funnel.steps.flatMap((step) =>
    linksOf(step).flatMap(({ where, href }): Problem[] => {
      const path = href.split(/[?#]/)[0];
      if (routes.some((pattern) => matchesRoute(pattern, path))) return [];
      const reason = pending.get(path);
      if (reason !== undefined) return [{ file, step: step.id, message: `${where} "${href}" is a page that is not built yet (${reason})`, warning: true }];
      return [{ file, step: step.id, message: `${where} "${href}" is not a page of the app` }];
    }),
  );
}

// ---------------------------------------------------------------------------
// f. Content documents

function documentProblem(documents: ReadonlyMap<string, ContentDocument>, ref: string, type: string): string | undefined {
  const doc = documents.get(ref);
  if (!doc) return `no content document "${ref}"`;
  return doc._type === type ? undefined : `"${ref}" is a document of _type "${doc._type}", not "${type}"`;
}

function insightRefProblems({ file, funnel }: Resolved, documents: ReadonlyMap<string, ContentDocument>): Problem[] {
  return funnel.steps.flatMap((step) => {
    if (step.type !== "insight" && step.type !== "result") return [];
    const refs = [
      ...step.pick.rules.map((rule, j) => ({ where: `pick.rules.${j}.insight`, ref: rule.insight._ref })),
      { where: "pick.otherwise", ref: step.pick.otherwise._ref },
    ];
    return refs.flatMap(({ where, ref }) => {
      const problem = documentProblem(documents, ref, "insight");
      return problem ? [{ file, step: step.id, message: `${where}: ${problem}` }] : [];
    });
  });
}

/**
 * Question references to a document that exists but is not a question. resolveFunnel only
 * says "no question document"; this names the document's type, and replaces its line.
 */
type MistypedRef = { path: string; problem: Problem };

function mistypedQuestionRefs(file: string, doc: unknown, documents: ReadonlyMap<string, ContentDocument>): MistypedRef[] {
  return rawSteps(doc).flatMap((step, i) => {
    const questions = property(step, "questions");
    return (Array.isArray(questions) ? questions : []).flatMap((question, j) => {
      const ref = property(question, "_ref");
      // A missing document is reported by resolveFunnel already.
      if (typeof ref !== "string" || !documents.has(ref)) return [];
      const problem = documentProblem(documents, ref, "question");
      if (!problem) return [];
      return [{ path: `steps.${i}.questions.${j}._ref`, problem: { file, step: stepLabel(doc, i), message: `questions.${j}._ref: ${problem}` } }];
    });
  });
}

// ---------------------------------------------------------------------------
// g. Summaries of another funnel's answers

function summaryProblems({ file, funnel }: Resolved, resolved: Resolved[], files: FunnelFile[]): Problem[] {
  const ids = new Set(files.map(({ doc }) => property(doc, "id")));
  return funnel.steps.flatMap((step): Problem[] => {
    if (step.type !== "summary" || !step.answersFrom) return [];
    const from = step.answersFrom;
    if (!ids.has(from)) return [{ file, step: step.id, message: `answersFrom: no funnel has the id "${from}"` }];
    // A source funnel that does not resolve has its own schema problems; its fields are unknown.
    const source = resolved.find((r) => r.funnel.id === from);
    if (!source) return [];
    const asked = new Set(questionsOf(source.funnel).map((q) => q.field));
    return step.cards.flatMap((card, j) =>
      asked.has(card.field) ? [] : [{ file, step: step.id, message: `cards.${j}.field: funnel "${from}" does not ask "${card.field}"` }],
    );
  });
}

// ---------------------------------------------------------------------------
// h. Routine plans: their rules run on the answers of the funnels they name

/** A rule list of a plan: where it is in the document, and its rules' conditions. */
type RuleList = { path: (string | number)[]; rules: { when: Condition[] }[] };

function planRuleLists(plan: PlanRules): RuleList[] {
  return [
    { path: ["reasons", "rules"], rules: plan.reasons?.rules ?? [] },
    { path: ["homeTips", "rules"], rules: plan.homeTips?.rules ?? [] },
    { path: ["products", "rules"], rules: plan.products?.rules ?? [] },
    ...(plan.steps ?? []).map((step, i) => ({ path: ["steps", i, "variants"], rules: step.variants ?? [] })),
    ...(["start", "halfwayWeek", "pace"] as const).map((part) => ({ path: ["progress", part, "rules"], rules: plan.progress?.[part]?.rules ?? [] })),
  ];
}

/** The parts of a plan document the rule checks read (stored or resolved alike). */
export type PlanRules = {
  reasons?: { rules?: { when: Condition[] }[] };
  homeTips?: { rules?: { when: Condition[] }[] };
  products?: { rules?: { when: Condition[] }[] };
  steps?: { variants?: { when: Condition[] }[] }[];
  progress?: Partial<Record<"start" | "halfwayWeek" | "pace", { rules?: { when: Condition[] }[] }>>;
};

/**
 * The checks a plan's rules get, as a funnel's result rules do: every condition names a field
 * one of the plan's funnels asks and options that field has, no rule contradicts itself, and
 * no rule is hidden behind an earlier one. `funnels` are the plan's funnels (answersFrom).
 */
export function lintPlanRules(plan: PlanRules, funnels: readonly Funnel[]): FunnelDocumentProblem[] {
  const questions = funnels.flatMap(questionsOf);
  const options = new Map<string, Set<string>>();
  for (const q of questions) options.set(q.field, new Set([...(options.get(q.field) ?? []), ...q.options.map((o) => o.value)]));
  // Single-choice only when every funnel asking the field asks it that way.
  const singleChoice = new Set([...options.keys()].filter((field) => questions.filter((q) => q.field === field).every((q) => q.select === "one")));
  const quizzes = funnels.length ? funnels.map((f) => `"${f.id}"`).join(", ") : "none (add the quizzes whose answers this plan uses)";
  return planRuleLists(plan).flatMap(({ path, rules }) => {
    const problems: FunnelDocumentProblem[] = [];
    rules.forEach((rule, i) =>
      rule.when.forEach((condition, k) => {
        const known = options.get(condition.field);
        if (!known) {
          problems.push({ path: [...path, i, "when", k, "field"], message: `no quiz of this plan asks "${condition.field}" (its quizzes: ${quizzes})` });
          return;
        }
        condition.anyOf?.forEach((value, m) => {
          if (!known.has(value)) problems.push({ path: [...path, i, "when", k, "anyOf", m], message: `"${condition.field}" has no option "${value}"` });
        });
      }),
    );
    // The funnels' own checks for rules that can never match or are never used.
    for (const message of pickProblems({ rules: rules.map((rule) => ({ when: rule.when, insight: { _ref: "" } })), otherwise: { _ref: "" } }, singleChoice)) {
      const inner = /^pick\.rules\.(\d+) (.*)$/s.exec(message);
      // Rules are counted from 1 in messages, as an editor sees the list.
      if (inner)
        problems.push({
          path: [...path, Number(inner[1])],
          message: `rule ${Number(inner[1]) + 1} ${inner[2].replace(/pick\.rules\.(\d+)/g, (_all, n: string) => `rule ${Number(n) + 1}`)}`,
        });
    }
    return problems;
  });
}
