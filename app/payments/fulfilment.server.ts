/**
 * Writing entitlements: the one place a Subscription row changes. The local test checkout
 * and the Stripe webhooks both come through here, so a test payment grants exactly what a
 * real one would.
 *
 * Order safety: every change carries the time of the fact it reports (a Stripe event's
 * `created`, or the moment a test payment completed). A change older than the row's
 * stateAt is ignored, so a late, re-delivered or shuffled event never overwrites newer
 * state. Applying the same change twice gives the same row, so re-deliveries are harmless.
 */
import crypto from "node:crypto";
import { recordEvent } from "~/analytics/events.server";
import { accountForPurchase } from "~/auth/users.server";
import { getOfferById } from "~/content/content.server";
import { db } from "~/utils/db.server";
import { intervalOf, pricePlan, type Tier } from "./catalogue";

export type EntitlementChange = {
  /** When the reported fact happened; older than the stored state → ignored. */
  at: Date;
  tier?: Tier;
  status?: string;
  planName?: string;
  priceMinor?: number;
  currency?: string;
  offerId?: string | null;
  planId?: string | null;
  startedAt?: Date;
  /** undefined: unchanged; null: none (lifetime). */
  currentPeriodEnd?: Date | null;
  cancelAtPeriodEnd?: boolean;
  stripeCustomerId?: string | null;
  stripeSubscriptionId?: string | null;
  stripeCheckoutSessionId?: string | null;
};

export type ApplyResult = "created" | "updated" | "stale" | "incomplete";

function defined<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * Applies a change to a member's subscription row. A row is only created from a change
 * that says what was bought (tier, plan, price, status); a partial change about an unknown
 * row is "incomplete" and the caller decides (a webhook asks Stripe to retry later).
 * Each write is one conditional statement, so two deliveries applied at once (on one instance
 * or two) can neither both create the row nor let the older one overwrite the newer.
 */
export async function applyEntitlement(userId: string, change: EntitlementChange): Promise<ApplyResult> {
  const { at, ...fields } = change;
  // Only a row whose state is not newer than this change is updated.
  const { count } = await db.subscription.updateMany({ where: { userId, stateAt: { lte: at } }, data: { ...defined(fields), stateAt: at } });
  if (count === 1) return "updated";
  if (await db.subscription.findUnique({ where: { userId }, select: { id: true } })) return "stale";
  const { tier, status, planName, priceMinor } = change;
  if (!tier || !status || !planName || priceMinor === undefined) return "incomplete";
  try {
    await db.subscription.create({
      data: {
        ...defined(fields),
        userId,
        tier,
        status,
        planName,
        priceMinor,
        startedAt: change.startedAt ?? at,
        currentPeriodEnd: change.currentPeriodEnd ?? null,
        stateAt: at,
      },
    });
    return "created";
  } catch (error) {
    // Another delivery created the row first: apply this one to it (or find it newer).
    if ((error as { code?: string }).code !== "P2002") throw error;
    return applyEntitlement(userId, change);
  }
}

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
  /** Who started it, when the session row does not say (a Stripe session's metadata). */
  visitorId?: string | null;
};

export class FulfilmentError extends Error {}

/**
 * A paid checkout: the buyer's account (created from the checkout e-mail if new), their
 * subscription row, the session marked complete, and one 'purchase' event. Safe to call
 * more than once for the same session (webhook re-delivery, the success page checking).
 */
export async function fulfilCheckout(input: CheckoutFulfilment): Promise<{ userId: string; purchased: boolean }> {
  const session = await db.checkoutSession.findUnique({ where: { id: input.checkoutSessionId } });
  // What was sold is what the session recorded when it was created (the price the page
  // showed then); a session we have no row for is priced from the catalogue.
  const sold = session
    ? { offerId: session.offerId, planId: session.planId, tier: session.tier as Tier, name: session.planName, amountMinor: session.amountMinor, currency: session.currency, interval: intervalOf(session.tier as Tier) }
    : await (async () => {
        const offer = await getOfferById(input.offerId);
        return offer ? pricePlan(offer, input.planId) : null;
      })();
  if (!sold) throw new FulfilmentError(`unknown offer/plan ${input.offerId}/${input.planId}`);

  // A checkout's address is typed by the buyer: the plan goes to that account, created pending if new.
  const user = await accountForPurchase(input.email);
  const existing = await db.subscription.findUnique({ where: { userId: user.id } });
  const sameSubscription = !!input.subscriptionId && existing?.stripeSubscriptionId === input.subscriptionId;
  await applyEntitlement(user.id, {
    at: input.at,
    tier: sold.tier,
    status: "active",
    planName: sold.name,
    priceMinor: sold.amountMinor,
    currency: sold.currency,
    offerId: sold.offerId,
    planId: sold.planId,
    startedAt: sameSubscription ? undefined : input.at,
    // Stripe's subscription events carry the exact period; until one arrives (and for a
    // test payment, which has none) the period is one interval from the purchase.
    currentPeriodEnd: sold.interval ? (sameSubscription && existing?.currentPeriodEnd ? undefined : addInterval(input.at, sold.interval)) : null,
    cancelAtPeriodEnd: sameSubscription ? undefined : false,
    stripeCustomerId: input.customerId ?? undefined,
    stripeSubscriptionId: sold.interval ? (input.subscriptionId ?? undefined) : null,
    stripeCheckoutSessionId: input.checkoutSessionId,
  });

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
  if (purchased) {
    await recordEvent({
      visitorId: session?.visitorId ?? input.visitorId ?? "unknown",
      name: "purchase",
      props: {
        offer: sold.offerId,
        plan: sold.planId,
        tier: sold.tier,
        price: sold.amountMinor / 100,
        currency: sold.currency.toUpperCase(),
        checkoutSessionId: input.checkoutSessionId,
        // For ad-pixel de-duplication: the browser pixel and a server-side conversion share it.
        eventId: crypto.randomUUID(),
      },
    });
  }
  return { userId: user.id, purchased };
}
