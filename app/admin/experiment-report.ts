/**
 * An experiment's results, per variant, from the event log: every event carries the
 * variants its visitor was in when it happened (AnalyticsEvent.variants), so each number
 * here counts what visitors did while in a variant. Pure: ./report.server.ts fetches rows.
 *
 * Per variant: visitors (distinct visitors with any event in it; their first is
 * experiment_viewed), completions (visitors who finished the quiz — the experiment's own
 * quiz for a quiz experiment), checkouts and purchases (distinct visitors — of the
 * experiment's own offer for an offer experiment), revenue and revenue per visitor, and the
 * share of buyers still doing the routine in days 1-7 and 22-30 after buying (PlanCompletion
 * rows, as on the dashboard). With each, the probability that the variant is the best one
 * (./stats.ts).
 */
import { completionDates, rate, retentionOf, type RetentionShares } from "./metrics";
import type { ResolvedExperiment } from "../content-model/experiment";
import { MIN_BUYERS_FOR_RETENTION, probabilityBestMean, probabilityBestRate, sampleWarning } from "~/experiments/stats";

export type ExperimentEvent = {
  visitorId: string;
  name: string;
  funnel: string | null;
  props: Record<string, unknown>;
  userId: string | null;
  /** The event's variants: experiment id → variant key. */
  variants: Record<string, string>;
  createdAt: Date;
};

/** The experiment as the report needs it (a document that was deleted is known by its id only). */
export type ReportedExperiment = Pick<ResolvedExperiment, "experimentId" | "name" | "status" | "kind" | "offer" | "funnel" | "step"> & {
  hypothesis?: string;
  variants: { key: string; name: string; weight: number }[];
};

export type Best = { completion: number; checkout: number; purchase: number; revenuePerVisitor: number; week1: number; month: number };

export type VariantResult = {
  key: string;
  name: string;
  weight: number;
  /** Its intended share of visitors, 0..1. */
  share: number;
  visitors: number;
  completions: number;
  checkouts: number;
  purchases: number;
  /** In cents. */
  revenueMinor: number;
  revenuePerVisitorMinor: number | null;
  rates: { completion: number | null; checkout: number | null; purchase: number | null };
  retention: RetentionShares;
  /** The probability that this variant is the best on each measure, 0..1. */
  best: Best;
};

export type ExperimentReport = {
  experiment: ReportedExperiment;
  variants: VariantResult[];
  /** Why the numbers cannot be trusted yet, or null. */
  warning: string | null;
  /** Too few buyers past day 7 / day 30 in some variant to compare retention. */
  retentionWarning: string | null;
};

/** A seed per experiment: the same data always shows the same probabilities. */
function seedOf(text: string): number {
  let hash = 2166136261;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
  return hash >>> 0;
}

/** The price of a purchase event in cents (its props hold major units). */
function priceMinor(event: ExperimentEvent): number {
  const price = event.props.price;
  return typeof price === "number" && Number.isFinite(price) ? Math.round(price * 100) : 0;
}

export function experimentReport(
  experiment: ReportedExperiment,
  events: readonly ExperimentEvent[],
  completions: readonly { userId: string; date: string }[],
  at: Date,
): ExperimentReport {
  const id = experiment.experimentId;
  // An experiment known only by its id (document deleted) has no subject to narrow to.
  const ofOwnOffer = (e: ExperimentEvent) => experiment.kind !== "offer" || !experiment.offer || e.props.offer === experiment.offer;
  const ofOwnFunnel = (e: ExperimentEvent) => experiment.kind !== "funnel" || !experiment.funnel || e.funnel === experiment.funnel;
  const datesByUser = completionDates(completions);
  const totalWeight = experiment.variants.reduce((sum, v) => sum + v.weight, 0);

  const measured = experiment.variants.map((variant) => {
    const inVariant = events.filter((e) => e.variants[id] === variant.key);
    const visitorsWith = (keep: (e: ExperimentEvent) => boolean) => new Set(inVariant.filter(keep).map((e) => e.visitorId));
    const purchases = inVariant.filter((e) => e.name === "purchase" && ofOwnOffer(e));
    const revenueByVisitor = new Map<string, number>();
    for (const p of purchases) revenueByVisitor.set(p.visitorId, (revenueByVisitor.get(p.visitorId) ?? 0) + priceMinor(p));
    const visitors = visitorsWith(() => true).size;
    const completed = visitorsWith((e) => e.name === "funnel_completed" && ofOwnFunnel(e)).size;
    const checkouts = visitorsWith((e) => e.name === "initiate_checkout" && ofOwnOffer(e)).size;
    const buyers = purchases.flatMap((p) => (p.userId ? [{ userId: p.userId, purchasedAt: p.createdAt }] : []));
    const revenueMinor = [...revenueByVisitor.values()].reduce((sum, v) => sum + v, 0);
    return {
      variant,
      visitors,
      completed,
      checkouts,
      purchasers: revenueByVisitor.size,
      revenueMinor,
      revenueValues: [...revenueByVisitor.values()].filter((v) => v > 0),
      retention: retentionOf(buyers, datesByUser, at),
    };
  });

  const seed = seedOf(id);
  const rateBest = (successes: (m: (typeof measured)[number]) => number, trials: (m: (typeof measured)[number]) => number) =>
    probabilityBestRate(
      measured.map((m) => ({ successes: Math.min(successes(m), trials(m)), trials: trials(m) })),
      { draws: 10_000, seed },
    );
  const best = {
    completion: rateBest(
      (m) => m.completed,
      (m) => m.visitors,
    ),
    checkout: rateBest(
      (m) => m.checkouts,
      (m) => m.visitors,
    ),
    purchase: rateBest(
      (m) => m.purchasers,
      (m) => m.visitors,
    ),
    revenuePerVisitor: probabilityBestMean(
      measured.map((m) => ({ visitors: m.visitors, values: m.revenueValues })),
      { resamples: 4_000, seed },
    ),
    week1: rateBest(
      (m) => m.retention.week1.active,
      (m) => m.retention.week1.eligible,
    ),
    month: rateBest(
      (m) => m.retention.month.active,
      (m) => m.retention.month.eligible,
    ),
  };

  const variants: VariantResult[] = measured.map((m, i) => ({
    key: m.variant.key,
    name: m.variant.name,
    weight: m.variant.weight,
    share: totalWeight > 0 ? m.variant.weight / totalWeight : 0,
    visitors: m.visitors,
    completions: m.completed,
    checkouts: m.checkouts,
    purchases: m.purchasers,
    revenueMinor: m.revenueMinor,
    revenuePerVisitorMinor: m.visitors > 0 ? m.revenueMinor / m.visitors : null,
    rates: { completion: rate(m.completed, m.visitors), checkout: rate(m.checkouts, m.visitors), purchase: rate(m.purchasers, m.visitors) },
    retention: m.retention,
    best: {
      completion: best.completion[i],
      checkout: best.checkout[i],
      purchase: best.purchase[i],
      revenuePerVisitor: best.revenuePerVisitor[i],
      week1: best.week1[i],
      month: best.month[i],
    },
  }));

  const fewBuyers = variants.filter((v) => v.retention.week1.eligible < MIN_BUYERS_FOR_RETENTION);
  return {
    experiment,
    variants,
    warning: sampleWarning(variants),
    retentionWarning: fewBuyers.length
      ? `Retention needs at least ${MIN_BUYERS_FOR_RETENTION} buyers past their first week in every variant (${fewBuyers.map((v) => `${v.name} has ${v.retention.week1.eligible}`).join(", ")}).`
      : null,
  };
}
