/**
 * The one-tap offer after a purchase (ADR 45), its pure part: what is sold and at what price,
 * and the ids that make a tap idempotent. A purchase has at most one one-tap offer, so the
 * purchase's checkout id and the plan sold name the one-tap purchase for good: every tap, a
 * double tap and a reload all land on the same checkout row and, at Stripe, on the same
 * PaymentIntent (its idempotency key).
 */
import crypto from "node:crypto";
import { displayPrice, findPlan, type PricedPlan } from "~/billing/catalogue";
import type { Offer } from "~/content-model/offer";

export type OneTapConfig = NonNullable<Offer["oneTapOffer"]>;

/** The saved test card of the local test checkout: charges at once, or asks for authentication. */
export const TEST_CARDS = ["approves", "authenticate"] as const;
export type TestCard = (typeof TEST_CARDS)[number];

/**
 * The checkout id of the one-tap purchase that follows `purchaseId`. A local purchase's keeps
 * the local test checkout's prefix (it can complete it when authentication is asked for).
 */
export function oneTapCheckoutId(purchaseId: string, sold: { offerId: string; planId: string }): string {
  const digest = crypto.createHash("sha256").update(`${purchaseId}\n${sold.offerId}\n${sold.planId}`).digest("base64url").slice(0, 32);
  return purchaseId.startsWith("cs_local_") ? `cs_local_onetap_${digest}` : `cs_onetap_${digest}`;
}

/** Stripe's idempotency key for the off-session charge (and, separately, its Checkout fallback). */
export function oneTapIdempotencyKey(oneTapId: string, step: "charge" | "checkout"): string {
  return `${oneTapId}:${step}`;
}

/**
 * What the one-tap offer sells: the follow-up offer's one-time plan at the one-tap price, or
 * null when the content does not hold together (no such plan, or a subscription plan: one tap
 * never starts a subscription).
 */
export function pricedOneTap(config: OneTapConfig, target: Offer): PricedPlan | null {
  const plan = findPlan(target, config.planId);
  if (!plan || plan.tier !== "single_payment") return null;
  return {
    offerId: target.offerId,
    planId: plan.id,
    tier: plan.tier,
    name: plan.name,
    amountMinor: config.priceMinor,
    currency: plan.currency,
    interval: null,
  };
}

/** A text of the one-tap offer with {price} filled in. */
export function oneTapText(template: string, plan: Pick<PricedPlan, "amountMinor" | "currency">): string {
  return template.replaceAll("{price}", displayPrice(plan.amountMinor, plan.currency));
}
