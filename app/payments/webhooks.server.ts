/**
 * POST /webhooks/stripe: Stripe's events turned into entitlements.
 *
 * - The raw body's signature is verified first; a bad one is a 400 and nothing is written.
 * - Idempotent by event id: an event already applied is acknowledged and skipped. Applying
 *   is itself repeatable (same event → same row), so two concurrent deliveries are harmless.
 * - Order-safe: every change is dated by the event's `created`; applyEntitlement ignores
 *   anything older than what the row already reflects.
 * - An event about a subscription we cannot place yet (an invoice before its subscription)
 *   answers 503, so Stripe delivers it again later, as it does for any non-2xx answer.
 */
import { z } from "zod";
import { accountForPurchase } from "~/auth/users.server";
import { getOfferById } from "~/content/content.server";
import { now } from "~/utils/clock.server";
import { db } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { pricePlan, type Tier } from "./catalogue";
import { applyEntitlement, fulfilCheckout, FulfilmentError, type EntitlementChange } from "./fulfilment.server";
import { stripeClient, verifyWebhook } from "./stripe.server";
import { logger } from "~/utils/logger.server";

export type WebhookAnswer = { status: number; body: string };

export const HANDLED_EVENTS = [
  "checkout.session.completed",
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
  customer_email: z.string().nullish(),
  customer_details: z.object({ email: z.string().nullish() }).nullish(),
  metadata: Metadata,
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
          price: z.object({ unit_amount: z.number().int().nullish(), currency: z.string().nullish(), recurring: z.object({ interval: z.string() }).nullish() }).nullish(),
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
  const row = await db.subscription.findFirst({ where: { stripeCustomerId: customerId }, select: { userId: true } });
  if (row) return row.userId;
  // A customer we have not met yet (its subscription event came before the checkout's):
  // Stripe knows the e-mail; the account is created as the checkout would create it.
  const stripe = stripeClient();
  if (!stripe) throw new RetryLater("no Stripe client to look the customer up");
  const customer = await stripe.customers.retrieve(customerId);
  const email = "deleted" in customer && customer.deleted ? null : (customer as { email?: string | null }).email;
  if (!email) throw new RetryLater(`customer ${customerId} has no e-mail`);
  return (await accountForPurchase(email)).id;
}

/** What a subscription event says, with the plan priced from the catalogue by its metadata. */
async function subscriptionChange(sub: z.infer<typeof SubscriptionObject>, at: Date, deleted: boolean): Promise<EntitlementChange> {
  const item = sub.items?.data[0];
  const offerId = sub.metadata?.offerId;
  const planId = sub.metadata?.planId;
  const offer = offerId ? await getOfferById(offerId) : null;
  const priced = offer && planId ? pricePlan(offer, planId) : null;
  const interval = item?.price?.recurring?.interval;
  const tier: Tier | undefined = priced?.tier ?? (interval === "year" ? "annual" : interval === "month" ? "monthly" : undefined);
  return {
    at,
    tier,
    status: deleted ? "canceled" : sub.status,
    planName: priced?.name ?? (tier === "annual" ? "Annual Plan" : tier === "monthly" ? "Monthly Plan" : undefined),
    priceMinor: item?.price?.unit_amount ?? priced?.amountMinor,
    currency: item?.price?.currency ?? priced?.currency,
    offerId: offerId ?? undefined,
    planId: planId ?? undefined,
    startedAt: seconds(sub.start_date),
    currentPeriodEnd: seconds(item?.current_period_end ?? sub.current_period_end),
    cancelAtPeriodEnd: sub.cancel_at_period_end,
    stripeCustomerId: sub.customer ?? undefined,
    stripeSubscriptionId: sub.id,
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
      await fulfilCheckout({
        checkoutSessionId: session.id,
        email,
        offerId,
        planId,
        at,
        customerId: session.customer,
        subscriptionId: session.subscription,
        visitorId: session.metadata?.visitorId,
      });
      return "fulfilled";
    }
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted": {
      const sub = SubscriptionObject.parse(object);
      const known = await db.subscription.findUnique({ where: { stripeSubscriptionId: sub.id }, select: { userId: true } });
      const userId = known?.userId ?? (await userIdForCustomer(sub.customer));
      if (!userId) throw new RetryLater(`no account for subscription ${sub.id}`);
      if (!known) {
        // A member's row follows their latest purchase: news about a subscription that began
        // before it (one they replaced, say) must not overwrite it.
        const row = await db.subscription.findUnique({ where: { userId }, select: { startedAt: true } });
        const started = seconds(sub.start_date);
        if (row && started && started.getTime() < row.startedAt.getTime()) return "an earlier subscription: ignored";
      }
      const result = await applyEntitlement(userId, await subscriptionChange(sub, at, type === "customer.subscription.deleted"));
      if (result === "incomplete") return "not one of our plans";
      return result;
    }
    case "invoice.paid":
    case "invoice.payment_failed": {
      const invoice = InvoiceObject.parse(object);
      const subscriptionId = invoice.parent?.subscription_details?.subscription ?? invoice.subscription;
      if (!subscriptionId) return "not a subscription invoice";
      const row = await db.subscription.findUnique({ where: { stripeSubscriptionId: subscriptionId }, select: { userId: true } });
      if (!row) {
        // A member whose row is about another purchase: this invoice is for a subscription they
        // replaced. Otherwise the subscription's own events have not arrived yet: retry later.
        const userId = await userIdForCustomer(invoice.customer);
        if (userId && (await db.subscription.findUnique({ where: { userId }, select: { id: true } }))) return "not the member's current subscription";
        throw new RetryLater(`subscription ${subscriptionId} not known yet`);
      }
      const periodEnd = Math.max(0, ...(invoice.lines?.data ?? []).map((line) => line.period?.end ?? 0));
      const change: EntitlementChange =
        type === "invoice.paid" ? { at, status: "active", ...(periodEnd ? { currentPeriodEnd: new Date(periodEnd * 1000) } : {}) } : { at, status: "past_due" };
      return applyEntitlement(row.userId, change);
    }
    case "charge.refunded": {
      const charge = ChargeObject.parse(object);
      if (!charge.refunded) return "partial refund";
      let row = charge.customer ? await db.subscription.findFirst({ where: { stripeCustomerId: charge.customer } }) : null;
      const email = charge.billing_details?.email ?? charge.receipt_email;
      if (!row && email) {
        const user = await db.user.findUnique({ where: { email: email.trim().toLowerCase() }, include: { subscription: true } });
        row = user?.subscription ?? null;
      }
      if (!row) throw new RetryLater(`no purchase found for refunded charge ${charge.id}`);
      // Recurring plans lose access through their subscription events; a refund ends a one-time plan.
      if (row.tier !== "single_payment") return "recurring plan: left to subscription events";
      return applyEntitlement(row.userId, { at, status: "refunded" });
    }
    default:
      return "ignored";
  }
}

export async function handleStripeWebhook(payload: string, signature: string | null): Promise<WebhookAnswer> {
  const secret = env.stripe?.webhookSecret;
  if (!secret) return { status: 404, body: "Stripe webhooks are not configured." };
  if (!signature) return { status: 400, body: "Missing Stripe-Signature header." };

  let event;
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
