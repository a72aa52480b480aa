/**
 * The price catalogue: what each offer's plans cost and how that is written on the page.
 * Pure functions over offer documents; the server decides every price from an offer and a
 * plan id with these, so nothing a browser sends can change what is charged.
 */
import type { Offer, OfferPlan } from "../content-model/offer";

export type Tier = OfferPlan["tier"];

/**
 * An en-US currency formatter, made once per currency and digits: constructing an
 * Intl.NumberFormat costs far more than formatting with one (it showed in the server profile).
 */
const formatters = new Map<string, Intl.NumberFormat>();
export function moneyFormat(currency: string, fractionDigits?: 0 | 2): Intl.NumberFormat {
  const key = `${currency}:${fractionDigits ?? ""}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.NumberFormat("en-US", {
      style: "currency",
      currency: currency.toUpperCase(),
      ...(fractionDigits === undefined ? {} : { minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits }),
    });
    formatters.set(key, format);
  }
  return format;
}

/** "$59" for whole amounts, "$9.99" otherwise (how the offers write prices). */
export function displayPrice(minor: number, currency = "usd"): string {
  return moneyFormat(currency, minor % 100 === 0 ? 0 : 2).format(minor / 100);
}

/** An annual price per day, to the cent: 5900 → "$0.16". */
export function perDay(annualMinor: number, currency = "usd"): string {
  const cents = Math.round(annualMinor / 365);
  return moneyFormat(currency).format(cents / 100);
}

/** Whole percent saved against the struck-through price: 4900 vs 9900 → 51. */
export function percentOff(priceMinor: number, compareAtMinor: number): number {
  return Math.round((1 - priceMinor / compareAtMinor) * 100);
}

/** How often a tier bills; null for one-time. */
export function intervalOf(tier: Tier): "month" | "year" | null {
  return tier === "monthly" ? "month" : tier === "annual" ? "year" : null;
}

/** Fills {price}, {compareAt} and {perDay} in a plan's text. */
export function planText(template: string, plan: Pick<OfferPlan, "priceMinor" | "currency" | "compareAtMinor" | "tier">): string {
  return template
    .replaceAll("{price}", displayPrice(plan.priceMinor, plan.currency))
    .replaceAll("{compareAt}", plan.compareAtMinor ? displayPrice(plan.compareAtMinor, plan.currency) : "")
    .replaceAll("{perDay}", plan.tier === "annual" ? perDay(plan.priceMinor, plan.currency) : "");
}

export function findPlan(offer: Offer, planId: string): OfferPlan | null {
  return offer.plans.find((p) => p.id === planId) ?? null;
}

/** What a checkout for this plan charges: the only source of amounts sent to a gateway. */
export type PricedPlan = {
  offerId: string;
  planId: string;
  tier: Tier;
  name: string;
  amountMinor: number;
  currency: string;
  interval: "month" | "year" | null;
};

export function pricePlan(offer: Offer, planId: string): PricedPlan | null {
  const plan = findPlan(offer, planId);
  if (!plan) return null;
  return {
    offerId: offer.offerId,
    planId: plan.id,
    tier: plan.tier,
    name: plan.name,
    amountMinor: plan.priceMinor,
    currency: plan.currency,
    interval: intervalOf(plan.tier),
  };
}

/** Countdown as m:ss with two-digit seconds; never below 0:00. */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** The time left as an ISO 8601 duration ("PT599S"): a countdown's `<time datetime>` and its value in the page's data. */
export function countdownDuration(seconds: number): string {
  return `PT${Math.max(0, Math.floor(seconds))}S`;
}

/** Seconds from countdownDuration's text; null for anything else. */
export function durationSeconds(duration: string | null | undefined): number | null {
  const match = /^PT(\d{1,9})S$/.exec(duration ?? "");
  return match ? Number(match[1]) : null;
}

/** Plan prices in cents (monthly $9.99, annual $59, single payment $29.99) that the derivation below may match a dollar amount against. */
export const STANDARD_PRICES: Record<Exclude<Tier, never>, number> = { monthly: 999, annual: 5900, single_payment: 2999 };

/**
 * The plan type, from a subscription check result:
 * tier single_payment gives single_payment; else a plan name containing annual or year
 * gives annual; containing monthly or month gives monthly; else the dollar amount in the
 * price text is matched to a plan price; otherwise none (null).
 */
export function derivePlanType(
  input: { tier?: string | null; planName?: string | null; priceText?: string | null },
  prices: Record<Tier, number> = STANDARD_PRICES,
): Tier | null {
  if (input.tier === "single_payment") return "single_payment";
  const name = (input.planName ?? "").toLowerCase();
  if (name.includes("annual") || name.includes("year")) return "annual";
  if (name.includes("monthly") || name.includes("month")) return "monthly";
  const amount = /\$\s*(\d{1,3}(?:,\d{3})*|\d+)(?:\.(\d{1,2}))?/.exec(input.priceText ?? "");
  if (!amount) return null;
  const minor = Number(amount[1].replaceAll(",", "")) * 100 + Number((amount[2] ?? "0").padEnd(2, "0"));
  for (const tier of ["monthly", "annual", "single_payment"] as const) if (prices[tier] === minor) return tier;
  return null;
}
