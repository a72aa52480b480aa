/**
 * What a visitor sees of an offer or a funnel while experiments run on it: the variant they
 * are assigned, applied to the content document before anything is presented, so rendering,
 * pricing and checkout code read an ordinary offer or funnel. The page and the checkout call
 * the same function, so the price charged is the price shown.
 *
 * A variant that does not apply cleanly to its subject (the offer changed under it, say) is
 * logged and the whole experiment sits out: nobody is assigned and everyone sees the subject
 * as written, rather than some visitors a broken page.
 */
import { getExperiments, getFunnelByRoute } from "~/content/content.server";
import type { Funnel } from "~/content-model/funnel";
import type { Offer } from "~/content-model/offer";
import { logger } from "~/utils/logger.server";
import { applyOfferChanges, applyStepChanges, type Applied } from "./apply";
import { assignVariants, storedAssignments, type Assignments, type Viewer } from "./assignment.server";
import type { ResolvedExperiment } from "../content-model/experiment";

/**
 * Each variant's version of a subject, worked out once per content version (the subject and
 * experiment objects are replaced when content changes); null when a variant does not apply.
 */
const versions = new WeakMap<object, WeakMap<ResolvedExperiment, ReadonlyMap<string, unknown> | null>>();
function versionsOf<T>(
  subject: object,
  experiment: ResolvedExperiment,
  apply: (variant: ResolvedExperiment["variants"][number]) => Applied<T>,
): ReadonlyMap<string, T> | null {
  let bySubject = versions.get(subject);
  if (!bySubject) versions.set(subject, (bySubject = new WeakMap()));
  if (!bySubject.has(experiment)) {
    const built = new Map<string, unknown>();
    for (const variant of experiment.variants) {
      const applied = apply(variant);
      if (!applied.ok) {
        const problems = applied.problems.map((p) => `${p.path.join(".") || "(root)"}: ${p.message}`).join("; ");
        logger.error(`[experiments] ${experiment.experimentId}: variant "${variant.key}" does not apply (${problems}); the experiment is not run`);
        bySubject.set(experiment, null);
        return null;
      }
      built.set(variant.key, applied.value);
    }
    bySubject.set(experiment, built);
  }
  return bySubject.get(experiment) as ReadonlyMap<string, T> | null;
}

/** "experiment:variant" pairs, sorted: what pages name (and their caches key on). */
function variantLabel(assignments: Assignments, experiments: readonly ResolvedExperiment[]): string | null {
  const pairs = experiments.map((e) => `${e.experimentId}:${assignments[e.experimentId]}`);
  return pairs.length ? pairs.sort().join(",") : null;
}

/** The offer as this viewer sees it, and the variant's label (null: no experiment runs on it). */
export async function offerForViewer(offer: Offer, viewer: Viewer): Promise<{ offer: Offer; variant: string | null }> {
  const experiment = (await getExperiments()).find((e) => e.status === "running" && e.kind === "offer" && e.offer === offer.offerId);
  const offers = experiment ? versionsOf(offer, experiment, (variant) => applyOfferChanges(offer, variant.offer)) : null;
  if (!experiment || !offers) return { offer, variant: null };
  const assignments = await assignVariants([experiment], viewer);
  const key = assignments[experiment.experimentId];
  // A variant removed while visitors were in it: they see the offer as written.
  return { offer: offers.get(key) ?? offer, variant: variantLabel(assignments, [experiment]) };
}

/** A funnel as one visitor runs it: with their variants' changes, and the variants' label. */
export type FunnelVersion = { funnel: Funnel; variant: string | null };

/** The running experiments on a funnel (at most one per step) that apply cleanly, with each variant's funnel. */
async function experimentsOn(funnel: Funnel) {
  const running = (await getExperiments()).filter((e) => e.status === "running" && e.kind === "funnel" && e.funnel === funnel.id);
  return running.flatMap((experiment) => {
    const funnels = versionsOf(funnel, experiment, (variant) => applyStepChanges(funnel, experiment.step!, variant.step));
    return funnels ? [{ experiment, funnels }] : [];
  });
}

/** Combined versions by funnel and variant label, so each is built once per content version. */
const combinations = new WeakMap<Funnel, Map<string, Funnel>>();

/** Several experiments on one funnel (on different steps): each variant's step changes, one after another. */
function combined(
  funnel: Funnel,
  experiments: { experiment: ResolvedExperiment; funnels: ReadonlyMap<string, Funnel> }[],
  assignments: Assignments,
): FunnelVersion {
  const variant = variantLabel(
    assignments,
    experiments.map((e) => e.experiment),
  );
  if (variant === null) return { funnel, variant };
  let built = combinations.get(funnel);
  if (!built) combinations.set(funnel, (built = new Map()));
  let version = built.get(variant);
  if (!version) {
    version = funnel;
    for (const { experiment, funnels } of experiments) {
      // A variant removed while visitors were in it: they see the step as written.
      const changed = funnels.get(assignments[experiment.experimentId]);
      if (!changed) continue;
      if (experiments.length === 1) version = changed;
      else {
        const step = changed.steps.find((s) => s.id === experiment.step)!;
        version = { ...version, steps: version.steps.map((s) => (s.id === step.id ? step : s)) };
      }
    }
    built.set(variant, version);
  }
  return { funnel: version, variant };
}

/**
 * The funnel at `route` as this viewer runs it, assigning them to its running experiments
 * (null: no funnel there). `memberId` is asked only when an experiment runs on the funnel.
 */
export async function funnelForViewer(route: string, visitorId: string, memberId: () => Promise<string | null | undefined>): Promise<FunnelVersion | null> {
  const funnel = await getFunnelByRoute(route);
  if (!funnel) return null;
  const experiments = await experimentsOn(funnel);
  if (experiments.length === 0) return { funnel, variant: null };
  const assignments = await assignVariants(
    experiments.map((e) => e.experiment),
    { visitorId, userId: await memberId() },
  );
  return combined(funnel, experiments, assignments);
}

/**
 * The funnel at `route` for a visitor already assigned to its running experiments, changing
 * nothing (the page cache's question); "unassigned" when they still have to be assigned.
 */
export async function storedFunnelVersion(route: string, visitorId: string): Promise<FunnelVersion | "unassigned" | null> {
  const funnel = await getFunnelByRoute(route);
  if (!funnel) return null;
  const experiments = await experimentsOn(funnel);
  if (experiments.length === 0) return { funnel, variant: null };
  const assignments = await storedAssignments(visitorId);
  if (experiments.some((e) => !(e.experiment.experimentId in assignments))) return "unassigned";
  return combined(funnel, experiments, assignments);
}
