/**
 * Checks of experiment documents. `experimentProblems` checks one experiment against its
 * subject — its shape, then every variant applied to the offer or funnel and checked by the
 * app's own schema and the funnel linter — and names each problem by its path in the
 * experiment, so the Studio marks the field. `lintExperiments` (npm run funnels:check) adds
 * what needs the whole dataset: subjects that exist, one running experiment per subject, and
 * links from variants to pages that exist (the funnels' link check, run on each variant).
 *
 * Pure, relative imports only: the Studio's validation and the linter script share it.
 */
import { lintFunnelDocument, lintFunnels, type ContentDocument, type FunnelFile } from "../funnels/lint";
import { resolveFunnel, stripCmsFields } from "../content/funnel-resolve";
import type { Funnel } from "../content-model/funnel";
import { Offer } from "../content-model/offer";
import { applyOfferChanges, changedFunnel, changedOffer } from "../experiments/apply";
import { Experiment, type OfferChanges, type StepChanges } from "../content-model/experiment";

export type ExperimentProblem = { path: (string | number)[]; message: string };

/** The subject as the dataset (or the Content Lake) holds it; null when the reference leads nowhere. */
export type Subject = {
  /** The offer document the experiment references. */
  offer?: unknown;
  /** The funnel document the experiment references, and the shared questions it uses. */
  funnel?: unknown;
  shared?: ReadonlyMap<string, unknown>;
};

function zodProblems(error: { issues: { path: PropertyKey[]; message: string }[] }): ExperimentProblem[] {
  return error.issues.map((issue) => ({ path: issue.path.filter((p): p is string | number => typeof p !== "symbol"), message: issue.message }));
}

/** Parses an experiment as stored; Sanity's list keys and object type names mean nothing to it. */
export function parseExperiment(doc: unknown): { ok: true; experiment: Experiment } | { ok: false; problems: ExperimentProblem[] } {
  const parsed = Experiment.safeParse(stripCmsFields(doc));
  return parsed.success ? { ok: true, experiment: parsed.data } : { ok: false, problems: zodProblems(parsed.error) };
}

/**
 * Where, in a variant, a problem of the merged offer comes from: a plan's field → that plan's
 * change; the hero → the hero copy; a plans section or final call to action that names a plan
 * not on sale → the plans on sale.
 */
function offerProblemPath(variantPath: (string | number)[], merged: Offer, changes: OfferChanges, path: (string | number)[]): (string | number)[] {
  const at = [...variantPath, "offer"];
  if (path[0] === "pageTitle") return [...at, "pageTitle"];
  if (path[0] === "plans" && typeof path[1] === "number") {
    const planId = merged.plans[path[1]]?.id;
    const j = (changes.plans ?? []).findIndex((p) => p.id === planId);
    if (j < 0) return at;
    const field = path[2];
    const change = changes.plans![j] as Record<string, unknown>;
    return typeof field === "string" && change[field] !== undefined ? [...at, "plans", j, field] : [...at, "plans", j];
  }
  if (path[0] === "sections" && typeof path[1] === "number") {
    const type = merged.sections[path[1]]?._type;
    if (type === "hero") return [...at, "hero", ...(typeof path[2] === "string" ? [path[2]] : [])];
    if (type === "plans" || type === "finalCta") return [...at, "planIds"];
  }
  return at;
}

function offerVariantProblems(offer: Offer, changes: OfferChanges | undefined, variantPath: (string | number)[]): ExperimentProblem[] {
  const applied = applyOfferChanges(offer, changes);
  if (applied.ok || !changes) return [];
  const merged = changedOffer(offer, changes);
  return applied.problems.map((problem) => {
    const unknownPlan = /^the offer has no plan "(.*)"$/.exec(problem.message);
    if (unknownPlan) {
      const j = (changes.plans ?? []).findIndex((p) => p.id === unknownPlan[1]);
      const path = j >= 0 ? [...variantPath, "offer", "plans", j, "id"] : [...variantPath, "offer", "planIds"];
      return { path, message: problem.message };
    }
    const sold = /^unknown plan "(.*)"$/.exec(problem.message);
    const message = sold ? `the page still sells plan "${sold[1]}" (a plans section or the final button): keep it on sale` : problem.message;
    return { path: offerProblemPath(variantPath, merged, changes, problem.path), message };
  });
}

/** Problems of the funnel with a variant's changes: on the subject step → the variant's field; elsewhere → its order (next). */
function funnelVariantProblems(funnel: Funnel, stepId: string, changes: StepChanges | undefined, variantPath: (string | number)[]): ExperimentProblem[] {
  const index = funnel.steps.findIndex((step) => step.id === stepId);
  const step = funnel.steps[index];
  return lintFunnelDocument(changedFunnel(funnel, stepId, changes), new Map()).map((problem) => {
    const at = [...variantPath, "step"];
    const [first, stepIndex, field, ...rest] = problem.path;
    const unknownKey = /^Unrecognized keys?: (.*)$/.exec(problem.message);
    const message = unknownKey ? `a ${step.type} step has no ${unknownKey[1]}` : problem.message;
    if (first === "steps" && stepIndex === index && typeof field === "string") {
      // An unrecognized key is reported on the step itself: name the field the variant set.
      const named = unknownKey ? unknownKey[1].replace(/"/g, "").split(", ")[0] : field;
      return { path: [...at, named, ...(unknownKey ? [] : rest)], message };
    }
    if (first === "steps" && stepIndex === index && unknownKey) return { path: [...at, unknownKey[1].replace(/"/g, "").split(", ")[0]], message };
    // A step elsewhere became unreachable (or cannot exit) because of the variant's order.
    const where = typeof stepIndex === "number" ? `step "${funnel.steps[stepIndex]?.id}": ` : "";
    return { path: changes?.next ? [...at, "next"] : at, message: `${where}${message}` };
  });
}

/**
 * Problems of one experiment document against its subject, by path in the experiment. A
 * subject that is missing, or itself invalid, is one problem on the reference.
 */
export function experimentProblems(doc: unknown, subject: Subject): ExperimentProblem[] {
  const parsed = parseExperiment(doc);
  if (!parsed.ok) return parsed.problems;
  const { experiment } = parsed;
  if (experiment.kind === "offer") {
    if (!subject.offer) return [{ path: ["offer"], message: "no such offer" }];
    const offer = Offer.safeParse(subject.offer);
    if (!offer.success) return [{ path: ["offer"], message: "the offer itself has problems: fix the offer first" }];
    return experiment.variants.flatMap((variant, i) => offerVariantProblems(offer.data, variant.offer, ["variants", i]));
  }
  if (!subject.funnel) return [{ path: ["funnel"], message: "no such funnel" }];
  const resolved = resolveFunnel(subject.funnel, subject.shared ?? new Map());
  if (!resolved.ok) return [{ path: ["funnel"], message: "the funnel itself has problems: fix the funnel first" }];
  const stepId = experiment.step!;
  if (!resolved.funnel.steps.some((step) => step.id === stepId)) return [{ path: ["step"], message: `the funnel has no step "${stepId}"` }];
  return experiment.variants.flatMap((variant, i) => funnelVariantProblems(resolved.funnel, stepId, variant.step, ["variants", i]));
}

/** Two running experiments on one subject would fight over what visitors see. */
export function subjectKey(experiment: Pick<Experiment, "kind" | "offer" | "funnel" | "step">): string {
  return experiment.kind === "offer" ? `offer:${experiment.offer?._ref}` : `funnel:${experiment.funnel?._ref}:${experiment.step}`;
}

export type ExperimentsLintInput = {
  dataset: readonly ContentDocument[];
  /** funnels/*.json as the funnel linter reads them (a funnel experiment's variants are linted in place of their file). */
  files: FunnelFile[];
  appRoutes: string[];
  pendingRoutes?: Record<string, string>;
};

/**
 * Every experiment in the dataset, one line per problem:
 * `content: experiment "<id>": <path>: <what is wrong>`.
 */
export function lintExperiments({ dataset, files, appRoutes, pendingRoutes }: ExperimentsLintInput): { errors: string[]; warnings: string[] } {
  const errors: string[] = [];
  const warnings: string[] = [];
  const byId = new Map(dataset.map((d) => [d._id, d]));
  const shared = new Map<string, unknown>(dataset.filter((d) => d._type === "question").map((d) => [d._id, d]));
  const running = new Map<string, string>();
  const baseLint = lintFunnels({ files, dataset: [...dataset], appRoutes, pendingRoutes });
  const experiments = dataset.filter((d) => d._type === "experiment").sort((a, b) => a._id.localeCompare(b._id));

  for (const doc of experiments) {
    const where = `content: experiment "${doc._id}"`;
    const report = (problems: ExperimentProblem[]) => problems.forEach((p) => errors.push(`${where}: ${p.path.join(".") || "(root)"}: ${p.message}`));
    const parsed = parseExperiment(doc);
    if (!parsed.ok) {
      report(parsed.problems);
      continue;
    }
    const { experiment } = parsed;
    // Ids must be unique across every experiment, running or stopped: results are stored under them.
    const twin = experiments.find((d) => d !== doc && d.experimentId === experiment.experimentId);
    if (twin) report([{ path: ["experimentId"], message: `experiment "${twin._id}" has the same id` }]);
    const ref = experiment.kind === "offer" ? experiment.offer!._ref : experiment.funnel!._ref;
    const target = byId.get(ref);
    const type = experiment.kind;
    if (!target) {
      report([{ path: [type], message: `no document "${ref}"` }]);
      continue;
    }
    if (target._type !== type) {
      report([{ path: [type], message: `"${ref}" is a ${target._type}, not a ${type}` }]);
      continue;
    }
    report(experimentProblems(doc, type === "offer" ? { offer: target } : { funnel: target, shared }));

    if (experiment.status === "running") {
      const key = subjectKey(experiment);
      const other = running.get(key);
      if (other) report([{ path: ["status"], message: `experiment "${other}" already runs on this ${type === "offer" ? "offer" : "step"}: stop one of them` }]);
      else running.set(key, doc._id);
      if (experiment.variants.every((v) => !v.offer && !v.step)) warnings.push(`${where}: (root): no variant changes anything`);
    }

    // Links from a funnel variant (its next steps, its result button) must reach pages that exist.
    if (type === "funnel") {
      const file = files.find((f) => (f.doc as { id?: unknown }).id === target.id);
      if (!file) continue;
      const before = new Set([...baseLint.errors, ...baseLint.warnings]);
      // The funnel linter's link check on the variant's funnel; its other checks ran above.
      const links = (lines: string[], i: number) =>
        lines.flatMap((line) => {
          const prefix = `${file.file}: ${experiment.step}: `;
          const link = line.startsWith(prefix) ? /^((?:next\.\d+\.to|cta)\.href) (.*)$/.exec(line.slice(prefix.length)) : null;
          return link && !before.has(line) ? [`${where}: variants.${i}.step.${link[1]}: ${link[2]}`] : [];
        });
      experiment.variants.forEach((variant, i) => {
        if (!variant.step) return;
        const changedFiles = files.map((f) => (f === file ? { file: f.file, doc: changedFunnel(f.doc as Funnel, experiment.step!, variant.step) } : f));
        const lint = lintFunnels({ files: changedFiles, dataset: [...dataset], appRoutes, pendingRoutes });
        errors.push(...links(lint.errors, i));
        warnings.push(...links(lint.warnings, i));
      });
    }
  }
  return { errors: [...new Set(errors)], warnings };
}
