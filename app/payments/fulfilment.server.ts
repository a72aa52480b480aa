/**
 * A paid checkout becomes an entitlement. The local test checkout, Stripe's
 * `checkout.session.completed` webhook and /payment-success's direct check with Stripe all
 * call `fulfilCheckout`, so a test payment grants exactly what a real one would.
 *
 * Each purchase is its own entitlement (applyEntitlementChange in app/billing): buying a
 * second product adds one, never replaces the first. What happens to a purchase afterwards
 * (renewals, cancellation, a plan switch) comes from Stripe's events or the billing portal.
 */
import crypto from "node:crypto";
import { recordEvent } from "~/analytics/events.server";
import { recordPurchase } from "~/analytics/conversions.server";
import { purchaseEvent } from "~/analytics/pixel";
import { accountForPurchase } from "~/auth/users.server";
import { applyEntitlementChange } from "~/billing/entitlements.server";
import { getOfferById } from "~/content/content.server";
import { linkToAccount } from "~/experiments/assignment.server";
import { rememberAnswers } from "~/members/answers.server";
import { db } from "~/utils/db.server";
import { intervalOf, pricePlan, type Tier } from "./catalogue";

/** One period after `from` (a month or a year), for a test payment's provisional period. */
export function addInterval(from: Date, interval: "month" | "year"): Date {
  const end = new Date(from);
  if (interval === "month") end.setUTCMonth(end.getUTCMonth() + 1);
  else end.setUTCFullYear(end.getUTCFullYear() + 1);
  return end;
}

export type CheckoutFulfilment = {
  checkoutSessionId: string;
  email: string;
  offerId: string;
  planId: string;
  at: Date;
  customerId?: string | null;
  subscriptionId?: string | null;
  paymentIntentId?: string | null;
  /** Who started it, when the session row does not say (a Stripe session's metadata). */
  visitorId?: string | null;
};

export class FulfilmentError extends Error {}

/** The funnel answers a checkout carried (CheckoutSession.context), as an answer set. */
function checkoutAnswers(context: string | null | undefined) {
  try {
    const parsed = JSON.parse(context ?? "{}") as { funnel?: unknown; answers?: unknown; at?: unknown };
    if (typeof parsed.funnel !== "string" || typeof parsed.at !== "string" || !parsed.answers || typeof parsed.answers !== "object") return [];
    return [{ funnel: parsed.funnel, answers: parsed.answers as Record<string, string | string[]>, at: parsed.at }];
  } catch {
    return [];
  }
}

/**
 * A paid checkout: the buyer's account (created from the checkout e-mail if new), the
 * entitlement for what was bought, the session marked complete, the answers that led to the
 * purchase kept on the account, and one 'purchase' event. Safe to call more than once for the
 * same session (webhook re-delivery, the success page checking).
 */
export async function fulfilCheckout(input: CheckoutFulfilment): Promise<{ userId: string; purchased: boolean; entitlementId: string | null }> {
  const session = await db.checkoutSession.findUnique({ where: { id: input.checkoutSessionId } });
  // What was sold is what the session recorded when it was created (the price the page
  // showed then); a session we have no row for is priced from the catalogue.
  const offer = session?.routinePlanId ? null : await getOfferById(session?.offerId ?? input.offerId);
  const sold = session
    ? {
        offerId: session.offerId,
        planId: session.planId,
        tier: session.tier as Tier,
        name: session.planName,
        amountMinor: session.amountMinor,
        currency: session.currency,
        interval: intervalOf(session.tier as Tier),
      }
    : offer
      ? pricePlan(offer, input.planId)
      : null;
  const routinePlanId = session?.routinePlanId ?? offer?.routinePlan._ref;
  if (!sold || !routinePlanId) throw new FulfilmentError(`unknown offer/plan ${input.offerId}/${input.planId}`);

  // A checkout's address is typed by the buyer: the plan goes to that account, created pending if new.
  const user = await accountForPurchase(input.email.trim().toLowerCase());
  const { entitlementId } = await applyEntitlementChange(
    {
      userId: user.id,
      offerId: sold.offerId,
      routinePlanId,
      stripeCustomerId: input.customerId ?? null,
      stripeSubscriptionId: sold.interval ? (input.subscriptionId ?? null) : null,
      stripePaymentIntentId: sold.interval ? null : (input.paymentIntentId ?? null),
      stripeCheckoutSessionId: input.checkoutSessionId,
    },
    {
      at: input.at,
      reason: "purchase",
      tier: sold.tier,
      status: "active",
      planId: sold.planId,
      planName: sold.name,
      priceMinor: sold.amountMinor,
      currency: sold.currency,
      startedAt: input.at,
      // Stripe's subscription events carry the exact period; until one arrives (and for a
      // test payment, which has none) the period is one interval from the purchase.
      currentPeriodEnd: sold.interval ? addInterval(input.at, sold.interval) : null,
      cancelAtPeriodEnd: false,
    },
    // A purchase creates its entitlement; when Stripe's own events created it first they
    // know better (the exact period), so the purchase only links itself to it.
    { createOnly: true },
  );

  // The session turns complete once; that transition records the purchase once.
  let purchased = false;
  if (session) {
    const { count } = await db.checkoutSession.updateMany({
      where: { id: session.id, status: { not: "complete" } },
      data: { status: "complete", completedAt: input.at, email: user.email, userId: user.id },
    });
    purchased = count === 1;
  } else {
    purchased = true;
  }
  // The buyer's experiment variants go with their account: the same prices on their other devices.
  const buyingBrowser = session?.visitorId ?? input.visitorId;
  if (buyingBrowser) await linkToAccount(buyingBrowser, user.id);
  if (purchased) {
    // The plan just bought is the one the member sees next.
    await db.user.update({ where: { id: user.id }, data: { activePlanId: routinePlanId } });
    await rememberAnswers(user.id, checkoutAnswers(session?.context));
    const purchase = {
      offer: sold.offerId,
      plan: sold.planId,
      tier: sold.tier,
      price: sold.amountMinor / 100,
      currency: sold.currency.toUpperCase(),
      checkoutSessionId: input.checkoutSessionId,
      // For ad-pixel de-duplication: the browser pixel and a server-side conversion share it.
      eventId: crypto.randomUUID(),
    };
    await recordEvent({ visitorId: session?.visitorId ?? input.visitorId ?? "unknown", name: "purchase", userId: user.id, props: purchase });
    // Meta's Purchase, when this checkout began in a browser that consented (ADR 32).
    await recordPurchase({
      checkoutSessionId: input.checkoutSessionId,
      eventId: purchase.eventId,
      email: user.email,
      at: input.at,
      params: purchaseEvent(purchase).params,
    });
  }
  return { userId: user.id, purchased, entitlementId };
}
