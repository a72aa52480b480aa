/**
 * POST /webhooks/stripe: Stripe's events turned into entitlements.
 *
 * - The raw body's signature is verified first; a bad one is a 400 and nothing is written.
 * - Idempotent by event id: an event already applied is acknowledged and skipped. Applying
 *   is itself repeatable (same event → same row), so two concurrent deliveries are harmless.
 * - Order-safe: every change is dated by the event's `created`; applyEntitlementChange
 *   ignores anything older than the entitlement's current state.
 * - Each Stripe subscription and each one-time payment is its own entitlement, so news about
 *   one purchase never touches another (a member may own several products).
 * - An event about a subscription we cannot place yet (an invoice before its subscription)
 *   answers 503, so Stripe delivers it again later, as it does for any non-2xx answer.
 */
import { z } from "zod";
import { accountForPurchase } from "~/auth/users.server";
import {
  applyEntitlementChange,
  entitlementsOf,
  entitlementsOfCustomer,
  findEntitlement,
  type EntitlementChange,
  type EntitlementView,
  type Tier,
} from "~/billing/entitlements.server";
import { getOfferById } from "~/content/content.server";
import { now } from "~/utils/clock.server";
import { db } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { findPlan, intervalOf } from "~/billing/catalogue";
import { noteCheckoutExpired } from "~/recovery/leads.server";
import { adoptRecoveredCheckout } from "./checkout.server";
import { fulfilCheckout, FulfilmentError } from "./fulfilment.server";
import type { Offer } from "../content-model/offer";
import { stripeClient, verifyWebhook } from "./stripe.server";
import { logger } from "~/utils/logger.server";

export type WebhookAnswer = { status: number; body: string };

export const HANDLED_EVENTS = [
  "checkout.session.completed",
  "checkout.session.expired",
  "customer.subscription.created",
  "customer.subscription.updated",
  "customer.subscription.deleted",
  "invoice.paid",
  "invoice.payment_failed",
  "charge.refunded",
] as const;

/** Largest webhook body accepted (Stripe's events are a few KB). */
export const MAX_WEBHOOK_BYTES = 512 * 1024;

const idOf = z.union([z.string(), z.object({ id: z.string() }).transform((o) => o.id)]).nullish();
const Metadata = z.record(z.string(), z.string()).nullish();

const CheckoutSessionObject = z.object({
  id: z.string(),
  mode: z.string().nullish(),
  payment_status: z.string().nullish(),
  customer: idOf,
  subscription: idOf,
  payment_intent: idOf,
  customer_email: z.string().nullish(),
  customer_details: z.object({ email: z.string().nullish() }).nullish(),
  metadata: Metadata,
  /** A copy of an expired session, opened from its recovery link: the id of the one it copies. */
  recovered_from: z.string().nullish(),
});

/** An expired session: Stripe's recovery link when it was asked for one (after_expiration.recovery). */
const ExpiredSessionObject = z.object({
  id: z.string(),
  after_expiration: z.object({ recovery: z.object({ url: z.string().url().nullish(), expires_at: z.number().int().nullish() }).nullish() }).nullish(),
});

const SubscriptionObject = z.object({
  id: z.string(),
  status: z.string(),
  customer: idOf,
  cancel_at_period_end: z.boolean().default(false),
  start_date: z.number().int().nullish(),
  /** Before API 2025-03-31 the period end was on the subscription; now it is on its items. */
  current_period_end: z.number().int().nullish(),
  items: z
    .object({
      data: z.array(
        z.object({
          current_period_end: z.number().int().nullish(),
          price: z
            .object({
              unit_amount: z.number().int().nullish(),
              currency: z.string().nullish(),
              recurring: z.object({ interval: z.string() }).nullish(),
              metadata: Metadata,
            })
            .nullish(),
        }),
      ),
    })
    .nullish(),
  metadata: Metadata,
});

const InvoiceObject = z.object({
  id: z.string(),
  customer: idOf,
  /** Older API versions. */
  subscription: idOf,
  parent: z.object({ subscription_details: z.object({ subscription: idOf }).nullish() }).nullish(),
  lines: z.object({ data: z.array(z.object({ period: z.object({ end: z.number().int() }).nullish() })) }).nullish(),
});

const ChargeObject = z.object({
  id: z.string(),
  customer: idOf,
  payment_intent: idOf,
  refunded: z.boolean(),
  billing_details: z.object({ email: z.string().nullish() }).nullish(),
  receipt_email: z.string().nullish(),
});

class RetryLater extends Error {}

function seconds(value: number | null | undefined): Date | undefined {
  return typeof value === "number" ? new Date(value * 1000) : undefined;
}

async function userIdForCustomer(customerId: string | null | undefined): Promise<string | null> {
  if (!customerId) return null;
  const [known] = await entitlementsOfCustomer(customerId);
  if (known) return known.userId;
  // A customer we have not met yet (its subscription event came before the checkout's):
  // Stripe knows the e-mail; the account is created as the checkout would create it.
  const stripe = stripeClient();
  if (!stripe) throw new RetryLater("no Stripe client to look the customer up");
  const customer = await stripe.customers.retrieve(customerId);
  const email = "deleted" in customer && customer.deleted ? null : (customer as { email?: string | null }).email;
  if (!email) throw new RetryLater(`customer ${customerId} has no e-mail`);
  return (await accountForPurchase(email)).id;
}

/**
 * The offer's plan a subscription is on now. The subscription's metadata names the plan it
 * was bought as; after a switch in the customer portal its price says what it is: the
 * price's own metadata (prices the app created for switching carry it), else the offer's plan
 * billed at that interval.
 */
function currentPlan(offer: Offer | null, sub: z.infer<typeof SubscriptionObject>) {
  if (!offer) return null;
  const price = sub.items?.data[0]?.price;
  const byPrice = price?.metadata?.planId ? findPlan(offer, price.metadata.planId) : null;
  if (byPrice) return byPrice;
  const interval = price?.recurring?.interval;
  const atInterval = offer.plans.filter((p) => intervalOf(p.tier) === interval);
  return atInterval.find((p) => p.priceMinor === price?.unit_amount) ?? atInterval[0] ?? (sub.metadata?.planId ? findPlan(offer, sub.metadata.planId) : null);
}

/** What a subscription event says, with the plan priced from the catalogue. */
function subscriptionChange(sub: z.infer<typeof SubscriptionObject>, offer: Offer | null, type: string, at: Date): EntitlementChange {
  const item = sub.items?.data[0];
  const plan = currentPlan(offer, sub);
  const interval = item?.price?.recurring?.interval;
  const tier: Tier | undefined = plan?.tier ?? (interval === "year" ? "annual" : interval === "month" ? "monthly" : undefined);
  return {
    at,
    reason: `stripe:${type}`,
    tier,
    status: type === "customer.subscription.deleted" ? "canceled" : sub.status,
    planId: plan?.id ?? tier,
    planName: plan?.name ?? (tier === "annual" ? "Annual Plan" : tier === "monthly" ? "Monthly Plan" : undefined),
    priceMinor: item?.price?.unit_amount ?? plan?.priceMinor,
    currency: item?.price?.currency ?? plan?.currency,
    startedAt: seconds(sub.start_date),
    currentPeriodEnd: seconds(item?.current_period_end ?? sub.current_period_end),
    cancelAtPeriodEnd: sub.cancel_at_period_end,
  };
}

async function applyEvent(type: string, object: unknown, at: Date): Promise<string> {
  switch (type) {
    case "checkout.session.completed": {
      const session = CheckoutSessionObject.parse(object);
      if (session.payment_status !== "paid" && session.payment_status !== "no_payment_required") return "not paid yet";
      const email = session.customer_details?.email ?? session.customer_email;
      const offerId = session.metadata?.offerId;
      const planId = session.metadata?.planId;
      if (!email || !offerId || !planId) return "not one of our checkouts";
      // Bought through a recovery link: the copy is recorded as a checkout of the same browser.
      if (session.recovered_from) await adoptRecoveredCheckout(session.id, session.recovered_from);
      await fulfilCheckout({
        checkoutSessionId: session.id,
        email,
        offerId,
        planId,
        at,
        customerId: session.customer,
        subscriptionId: session.subscription,
        paymentIntentId: session.payment_intent,
        visitorId: session.metadata?.visitorId,
      });
      return "fulfilled";
    }
    case "checkout.session.expired": {
      const session = ExpiredSessionObject.parse(object);
      const recovery = session.after_expiration?.recovery;
      if (!recovery?.url) {
        await db.checkoutSession.updateMany({ where: { id: session.id, provider: "stripe", status: "open" }, data: { status: "canceled" } });
        return "expired";
      }
      const reminded = await noteCheckoutExpired({
        checkoutSessionId: session.id,
        recoveryUrl: recovery.url,
        recoveryUrlExpiresAt: seconds(recovery.expires_at) ?? null,
        at,
      });
      return reminded ? "expired: reminder due" : "expired: no reminder to send";
    }
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted": {
      const sub = SubscriptionObject.parse(object);
      const known = await findEntitlement({ stripeSubscriptionId: sub.id });
      const offer = await getOfferById(known?.offerId ?? sub.metadata?.offerId ?? "");
      const change = subscriptionChange(sub, offer, type, at);
      if (known) return (await applyEntitlementChange({ id: known.id }, change)).result;
      if (!offer) return "not one of our plans";
      const userId = await userIdForCustomer(sub.customer);
      if (!userId) throw new RetryLater(`no account for subscription ${sub.id}`);
      const identity = {
        userId,
        offerId: offer.offerId,
        routinePlanId: offer.routinePlan._ref,
        stripeCustomerId: sub.customer ?? null,
        stripeSubscriptionId: sub.id,
      };
      const { result } = await applyEntitlementChange(identity, change);
      return result === "incomplete" ? "not one of our plans" : result;
    }
    case "invoice.paid":
    case "invoice.payment_failed": {
      const invoice = InvoiceObject.parse(object);
      const subscriptionId = invoice.parent?.subscription_details?.subscription ?? invoice.subscription;
      if (!subscriptionId) return "not a subscription invoice";
      const known = await findEntitlement({ stripeSubscriptionId: subscriptionId });
      // The subscription's own events have not arrived yet: retry later.
      if (!known) throw new RetryLater(`subscription ${subscriptionId} not known yet`);
      const periodEnd = Math.max(0, ...(invoice.lines?.data ?? []).map((line) => line.period?.end ?? 0));
      const reason = `stripe:${type}`;
      const change: EntitlementChange =
        type === "invoice.paid"
          ? { at, reason, status: "active", ...(periodEnd ? { currentPeriodEnd: new Date(periodEnd * 1000) } : {}) }
          : { at, reason, status: "past_due" };
      return (await applyEntitlementChange({ id: known.id }, change)).result;
    }
    case "charge.refunded": {
      const charge = ChargeObject.parse(object);
      if (!charge.refunded) return "partial refund";
      // The payment names the purchase; older charges are found by customer, then by e-mail.
      let target: EntitlementView | null = charge.payment_intent ? await findEntitlement({ stripePaymentIntentId: charge.payment_intent }) : null;
      const lifetime = (list: EntitlementView[]) =>
        list.find((e) => e.tier === "single_payment" && e.status === "active") ?? list.find((e) => e.tier === "single_payment") ?? null;
      if (!target && charge.customer) target = lifetime(await entitlementsOfCustomer(charge.customer));
      const email = charge.billing_details?.email ?? charge.receipt_email;
      if (!target && email) {
        const user = await db.user.findUnique({ where: { email: email.trim().toLowerCase() }, select: { id: true } });
        target = user ? lifetime(await entitlementsOf(user.id)) : null;
      }
      if (!target) throw new RetryLater(`no purchase found for refunded charge ${charge.id}`);
      // Recurring plans lose access through their subscription events; a refund ends a one-time plan.
      if (target.tier !== "single_payment") return "recurring plan: left to subscription events";
      return (await applyEntitlementChange({ id: target.id }, { at, reason: `stripe:${type}`, status: "refunded" })).result;
    }
    default:
      return "ignored";
  }
}

export async function handleStripeWebhook(payload: string, signature: string | null): Promise<WebhookAnswer> {
  const secret = env.stripe?.webhookSecret;
  if (!secret) return { status: 404, body: "Stripe webhooks are not configured." };
  if (!signature) return { status: 400, body: "Missing Stripe-Signature header." };

  let event: ReturnType<typeof verifyWebhook>;
  try {
    event = verifyWebhook(payload, signature, secret);
  } catch (error) {
    logger.warn(`[webhook] rejected a delivery: ${(error as Error).message}`);
    return { status: 400, body: "Invalid signature." };
  }
  if (!(HANDLED_EVENTS as readonly string[]).includes(event.type)) return { status: 200, body: `Ignored ${event.type}.` };
  if (await db.processedStripeEvent.findUnique({ where: { id: event.id }, select: { id: true } })) {
    return { status: 200, body: `Already processed ${event.id}.` };
  }

  const at = new Date(event.created * 1000);
  let outcome: string;
  try {
    outcome = await applyEvent(event.type, event.data.object, at);
  } catch (error) {
    if (error instanceof RetryLater) return { status: 503, body: `Not ready: ${error.message}. Please retry.` };
    if (error instanceof z.ZodError || error instanceof FulfilmentError) {
      // A payload we cannot use will not get better on retry: record it and say why.
      logger.error({ err: error }, `[webhook] ${event.id} (${event.type}) cannot be applied`);
      await markProcessed(event.id, event.type, at);
      return { status: 422, body: `Unusable ${event.type} payload.` };
    }
    logger.error({ err: error }, `[webhook] ${event.id} (${event.type}) failed`);
    return { status: 503, body: "Temporary failure. Please retry." };
  }
  await markProcessed(event.id, event.type, at);
  return { status: 200, body: `${event.type}: ${outcome}` };
}

async function markProcessed(id: string, type: string, createdAt: Date): Promise<void> {
  try {
    await db.processedStripeEvent.create({ data: { id, type, createdAt, processedAt: now() } });
  } catch (error) {
    // A concurrent delivery of the same event got there first: same result, nothing to do.
    if ((error as { code?: string }).code !== "P2002") throw error;
  }
}
