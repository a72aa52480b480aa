/**
 * The admin dashboard's numbers: pure functions over the first-party event log, the
 * subscriptions and the routine completions. The loader (dashboard.server.ts) fetches the
 * rows; everything here is deterministic and unit-tested on seeded data.
 */
import { viewOf, type Tier } from "~/billing/entitlements.server";

export type EventRow = {
  visitorId: string;
  name: string;
  funnel: string | null;
  step: string | null;
  props: Record<string, unknown>;
  userId: string | null;
  createdAt: Date;
};

/**
 * A funnel as reported: a quiz, or a flow of several funnel pages (`parts`, in order; the
 * prototype app). A step names its page (`funnel`) when the flow has several.
 */
export type FunnelInfo = { id: string; title: string; parts?: string[]; steps: { id: string; label: string; funnel?: string }[] };

export type StepBar = { id: string; label: string; visitors: number };

export type FunnelReport = {
  id: string;
  title: string;
  views: number;
  completions: number;
  checkouts: number;
  purchases: number;
  /** Shares in 0..1, null when the stage before had nobody. */
  rates: { completion: number | null; checkout: number | null; purchase: number | null; overall: number | null };
  /** Viewed, then each question step answered, then completed: distinct visitors at each. */
  steps: StepBar[];
};

const DAY_MS = 86_400_000;

export function rate(part: number, whole: number): number | null {
  return whole > 0 ? part / whole : null;
}

function byTime(a: EventRow, b: EventRow) {
  return a.createdAt.getTime() - b.createdAt.getTime();
}

/**
 * The funnel a checkout or purchase came from: the event's own funnel if it names one,
 * else the visitor's latest completed funnel before it, else the latest viewed one.
 */
export function attributeToFunnel(event: EventRow, history: EventRow[]): string | null {
  if (event.funnel) return event.funnel;
  let viewed: string | null = null;
  let completed: string | null = null;
  for (const e of [...history].sort(byTime)) {
    if (e.visitorId !== event.visitorId || e.createdAt.getTime() > event.createdAt.getTime() || !e.funnel) continue;
    if (e.name === "funnel_completed") completed = e.funnel;
    if (e.name === "funnel_viewed") viewed = e.funnel;
  }
  return completed ?? viewed;
}

/**
 * Per funnel, over events since `since`: views → completions → checkouts → purchases, each
 * counted as distinct visitors, with conversion rates and the per-step drop-off. `history`
 * (all events of the visitors involved, any date) attributes checkouts and purchases.
 */
export function funnelReports(events: EventRow[], funnels: FunnelInfo[], since: Date, history: EventRow[] = events): FunnelReport[] {
  const inWindow = events.filter((e) => e.createdAt.getTime() >= since.getTime());
  const visitors = (funnel: string, name: string) => new Set(inWindow.filter((e) => e.name === name && e.funnel === funnel).map((e) => e.visitorId));
  const attributed = (name: string) => {
    const map = new Map<string, Set<string>>();
    for (const e of inWindow.filter((x) => x.name === name)) {
      const funnel = attributeToFunnel(e, history);
      if (!funnel) continue;
      if (!map.has(funnel)) map.set(funnel, new Set());
      map.get(funnel)!.add(e.visitorId);
    }
    return map;
  };
  const checkouts = attributed("initiate_checkout");
  const purchases = attributed("purchase");

  return funnels.map((funnel) => {
    const parts = funnel.parts ?? [funnel.id];
    // A visitor of any page of a flow viewed it once; finishing its last page completes it.
    const views = new Set(parts.flatMap((part) => [...visitors(part, "funnel_viewed")])).size;
    const completions = visitors(parts[parts.length - 1], "funnel_completed").size;
    const ofFlow = (map: Map<string, Set<string>>) => new Set(parts.flatMap((part) => [...(map.get(part) ?? [])])).size;
    const checkoutCount = ofFlow(checkouts);
    const purchaseCount = ofFlow(purchases);
    const steps: StepBar[] = [
      { id: "viewed", label: "Viewed", visitors: views },
      ...funnel.steps.map((step) => {
        const page = step.funnel ?? funnel.id;
        return {
          id: parts.length > 1 ? `${page}/${step.id}` : step.id,
          label: step.label,
          visitors: new Set(inWindow.filter((e) => e.name === "step_answered" && e.funnel === page && e.step === step.id).map((e) => e.visitorId)).size,
        };
      }),
      { id: "completed", label: "Completed", visitors: completions },
    ];
    return {
      id: funnel.id,
      title: funnel.title,
      views,
      completions,
      checkouts: checkoutCount,
      purchases: purchaseCount,
      rates: {
        completion: rate(completions, views),
        checkout: rate(checkoutCount, completions),
        purchase: rate(purchaseCount, checkoutCount),
        overall: rate(purchaseCount, views),
      },
      steps,
    };
  });
}

export type OfferRevenue = { offer: string; currency: string; purchases: number; amount: number };

/** Purchases since `since` grouped by offer and currency; amounts in major units (the events' price). */
export function revenueByOffer(events: EventRow[], since: Date): OfferRevenue[] {
  const groups = new Map<string, OfferRevenue>();
  for (const e of events) {
    if (e.name !== "purchase" || e.createdAt.getTime() < since.getTime()) continue;
    const price = typeof e.props.price === "number" && Number.isFinite(e.props.price) ? e.props.price : 0;
    const offer = typeof e.props.offer === "string" ? e.props.offer : "unknown";
    const currency = typeof e.props.currency === "string" ? e.props.currency.toUpperCase() : "USD";
    const key = `${offer}\u0000${currency}`;
    const group = groups.get(key) ?? { offer, currency, purchases: 0, amount: 0 };
    group.purchases++;
    // Cents, then back: 0.1 + 0.2 must not show as 0.30000000000000004.
    group.amount = Math.round(group.amount * 100 + price * 100) / 100;
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) => b.amount - a.amount || a.offer.localeCompare(b.offer));
}

/** An event with the running experiments' variants it was made in ({"<experimentId>": "<variant key>"}), or null. */
export type VariantEventRow = Pick<EventRow, "visitorId" | "name" | "props" | "createdAt"> & { variants: Record<string, string> | null };

/** The one-tap offer after purchase (ADR 45): the purchases it was shown after, those it sold, and their revenue by currency. */
export type OneTapReport = {
  /** "experiment: variant", or null for everyone. */
  variant: string | null;
  shownAfter: number;
  bought: number;
  revenue: { currency: string; amount: number }[];
};

function oneTapReport(variant: string | null, events: VariantEventRow[]): OneTapReport {
  // Shown counts purchases it followed, not page views: a reload shows it again to the same buyer.
  const shown = new Set<string>();
  let bought = 0;
  const cents = new Map<string, number>();
  for (const e of events) {
    if (e.name === "upsell_shown") shown.add(typeof e.props.follows === "string" ? e.props.follows : e.visitorId);
    if (e.name === "upsell_bought") {
      bought++;
      const currency = typeof e.props.currency === "string" ? e.props.currency.toUpperCase() : "USD";
      const price = typeof e.props.price === "number" && Number.isFinite(e.props.price) ? e.props.price : 0;
      cents.set(currency, (cents.get(currency) ?? 0) + Math.round(price * 100));
    }
  }
  const revenue = [...cents].map(([currency, amount]) => ({ currency, amount: amount / 100 })).sort((a, b) => a.currency.localeCompare(b.currency));
  return { variant, shownAfter: shown.size, bought, revenue };
}

/**
 * Everyone's one-tap numbers since `since`, then one row per experiment variant the events were
 * made in (each event's own `variants`: the buyer's variants when the offer was shown or bought),
 * as the recovery numbers are split.
 */
export function oneTapReports(events: VariantEventRow[], since: Date): OneTapReport[] {
  const inWindow = events.filter((e) => (e.name === "upsell_shown" || e.name === "upsell_bought") && e.createdAt.getTime() >= since.getTime());
  const variants = [...new Set(inWindow.flatMap((e) => Object.entries(e.variants ?? {}).map(([experiment, key]) => `${experiment}: ${key}`)))].sort();
  return [
    oneTapReport(null, inWindow),
    ...variants.map((variant) => {
      const [experiment, key] = variant.split(": ");
      return oneTapReport(
        variant,
        inWindow.filter((e) => e.variants?.[experiment] === key),
      );
    }),
  ];
}

export type SubscriptionRow = Parameters<typeof viewOf>[0] & {};

export type SubscriptionCounts = { monthly: number; annual: number; lifetime: number };

/**
 * Plans paid for at `at`, by tier (single_payment is lifetime): one per entitlement's current
 * state, so a member who switched from annual to monthly counts once, as monthly.
 */
export function activeSubscriptions(rows: NonNullable<SubscriptionRow>[], at: Date): SubscriptionCounts {
  const counts: SubscriptionCounts = { monthly: 0, annual: 0, lifetime: 0 };
  for (const row of rows) {
    const view = viewOf(row, at);
    if (!view.subscribed || !view.tier) continue;
    const tier: Tier = view.tier;
    if (tier === "single_payment") counts.lifetime++;
    else counts[tier]++;
  }
  return counts;
}

export type Buyer = { userId: string; funnel: string | null; purchasedAt: Date };

export type RetentionRow = {
  funnel: string | null;
  /** Buyers at least 7 days past purchase, and those of them with a completion in days 1-7. */
  week1: { eligible: number; active: number; share: number | null };
  /** Buyers at least 30 days past purchase, and those with a completion in days 22-30. */
  month: { eligible: number; active: number; share: number | null };
};

/** Day 1 is the (UTC) day of the purchase; a completion's date is the member's local day. */
export function dayNumber(purchasedAt: Date, date: string): number {
  const start = Date.UTC(purchasedAt.getUTCFullYear(), purchasedAt.getUTCMonth(), purchasedAt.getUTCDate());
  return Math.round((Date.parse(`${date}T00:00:00Z`) - start) / DAY_MS) + 1;
}

export type RetentionShares = Pick<RetentionRow, "week1" | "month">;

/**
 * For one group of buyers (each counted once: their first purchase in the group), the share
 * who completed the routine in days 1-7 and in days 22-30 after buying. Only buyers for whom
 * the whole window has passed by `at` count, so a purchase yesterday does not drag the
 * 30-day share down.
 */
export function retentionOf(
  buyers: readonly Pick<Buyer, "userId" | "purchasedAt">[],
  datesByUser: ReadonlyMap<string, readonly string[]>,
  at: Date,
): RetentionShares {
  const first = new Map<string, Date>();
  for (const buyer of [...buyers].sort((a, b) => a.purchasedAt.getTime() - b.purchasedAt.getTime()))
    if (!first.has(buyer.userId)) first.set(buyer.userId, buyer.purchasedAt);
  const shares: RetentionShares = { week1: { eligible: 0, active: 0, share: null }, month: { eligible: 0, active: 0, share: null } };
  for (const [userId, purchasedAt] of first) {
    const age = dayNumber(purchasedAt, at.toISOString().slice(0, 10));
    const days = (datesByUser.get(userId) ?? []).map((d) => dayNumber(purchasedAt, d));
    if (age > 7) {
      shares.week1.eligible++;
      if (days.some((d) => d >= 1 && d <= 7)) shares.week1.active++;
    }
    if (age > 30) {
      shares.month.eligible++;
      if (days.some((d) => d >= 22 && d <= 30)) shares.month.active++;
    }
  }
  shares.week1.share = rate(shares.week1.active, shares.week1.eligible);
  shares.month.share = rate(shares.month.active, shares.month.eligible);
  return shares;
}

/** Each member's completion dates. */
export function completionDates(completions: readonly { userId: string; date: string }[]): Map<string, string[]> {
  const datesByUser = new Map<string, string[]>();
  for (const c of completions) datesByUser.set(c.userId, [...(datesByUser.get(c.userId) ?? []), c.date]);
  return datesByUser;
}

/**
 * For buyers from each funnel, the share still doing the routine (retentionOf). One buyer
 * counts once, under the funnel of their first purchase.
 */
export function retention(buyers: Buyer[], completions: { userId: string; date: string }[], at: Date): RetentionRow[] {
  const datesByUser = completionDates(completions);
  const first = new Map<string, Buyer>();
  for (const buyer of [...buyers].sort((a, b) => a.purchasedAt.getTime() - b.purchasedAt.getTime()))
    if (!first.has(buyer.userId)) first.set(buyer.userId, buyer);
  const groups = new Map<string | null, Buyer[]>();
  for (const buyer of first.values()) groups.set(buyer.funnel, [...(groups.get(buyer.funnel) ?? []), buyer]);
  return [...groups]
    .map(([funnel, group]) => ({ funnel, ...retentionOf(group, datesByUser, at) }))
    .sort((a, b) => (a.funnel ?? "~").localeCompare(b.funnel ?? "~"));
}
