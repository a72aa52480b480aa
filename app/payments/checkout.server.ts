/**
 * Starting a checkout from an offer page: price the plan from the catalogue, create the
 * checkout at the gateway (Stripe Checkout, or the local test checkout when no Stripe key
 * is set), remember which browser started it, and log 'initiate checkout'.
 */
import { checkoutReminderHours, noteCheckoutStarted } from "~/recovery/leads.server";
import crypto from "node:crypto";
import { recordEvent } from "~/analytics/events.server";
import { recordCheckoutStarted, type AdBrowser } from "~/analytics/conversions.server";
import { initiateCheckoutEvent } from "~/analytics/pixel";
import type { SessionUser } from "~/auth/users.server";
import { entitlementsOf, ownedEntitlement, type EntitlementView } from "~/billing/entitlements.server";
import { getFunnelById } from "~/content/content.server";
import { readFunnelState } from "~/funnels/state.server";
import { now } from "~/utils/clock.server";
import { db, isUniqueViolation } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { pricePlan, type PricedPlan } from "~/billing/catalogue";
import { localCheckoutPath, STRIPE_SUCCESS_PATH } from "./checkout-steps";
import type { Offer } from "../content-model/offer";
import { localTestPayments, stripeClient } from "./stripe.server";
import { logger } from "~/utils/logger.server";

export type CheckoutStart =
  | { ok: true; url: string }
  | { ok: false; status: 400 | 409 | 502; reason: string }
  /** The member already has this product: no second checkout (the offer page says what they have). */
  | { ok: false; status: 409; reason: "already-owned"; owned: EntitlementView };

/** The answers of the most recent funnel result that leads to this offer, if any. */
export async function funnelContext(
  offer: Offer,
  cookieHeader: string | null,
): Promise<{ funnel?: string; answers?: Record<string, string | string[]>; at?: string }> {
  let best: { funnel: string; at: string; answers: Record<string, string | string[]> } | null = null;
  for (const id of offer.funnels) {
    const funnel = await getFunnelById(id);
    if (!funnel) continue;
    const { result } = await readFunnelState(cookieHeader, funnel);
    if (result && (!best || result.at > best.at)) best = { funnel: id, at: result.at, answers: result.answers };
  }
  return best ? { funnel: best.funnel, answers: best.answers, at: best.at } : {};
}

/** Stripe metadata: at most 50 keys, values up to 500 characters. */
export function checkoutMetadata(input: {
  plan: PricedPlan;
  visitorId: string;
  funnel?: string;
  answers?: Record<string, string | string[]>;
}): Record<string, string> {
  const metadata: Record<string, string> = { offerId: input.plan.offerId, planId: input.plan.planId, visitorId: input.visitorId };
  if (input.funnel) metadata.funnel = input.funnel;
  for (const [key, value] of Object.entries(input.answers ?? {}).slice(0, 40)) {
    metadata[`answer_${key}`.slice(0, 40)] = (Array.isArray(value) ? value.join(",") : value).slice(0, 500);
  }
  return metadata;
}

/** Stripe takes an expiry 30 minutes to 24 hours after it creates the session: the reminder's delay, kept in that range (a minute's margin for the clocks). */
export function checkoutExpiry(createdAt: Date, hours: number): number {
  const seconds = Math.min(24 * 3600 - 60, Math.max(31 * 60, Math.round(hours * 3600)));
  return Math.floor(createdAt.getTime() / 1000) + seconds;
}

export async function startCheckout(input: {
  offer: Offer;
  planId: string;
  user: SessionUser | null;
  visitorId: string;
  cookieHeader: string | null;
  /** The browser, when it consented to Meta's pixel (ADR 32). */
  adBrowser?: AdBrowser | null;
  /** The buyer ticked the offer's "save my card" box: its one-tap offer may charge the card (ADR 45). */
  saveCard?: boolean;
}): Promise<CheckoutStart> {
  if (env.paymentsOff) return { ok: false, status: 409, reason: "PAYMENTS=off: nothing is on sale" };
  const plan = pricePlan(input.offer, input.planId);
  if (!plan) return { ok: false, status: 400, reason: `unknown plan "${input.planId}" on offer ${input.offer.offerId}` };
  const routinePlanId = input.offer.routinePlan._ref;
  // Agreement counts only where there is a one-tap offer to agree to.
  const saveCard = !!input.saveCard && !!input.offer.oneTapOffer;
  // One purchase per product: a member who has it manages it (the billing portal), never buys it twice.
  const entitlements = input.user ? await entitlementsOf(input.user.id) : [];
  const owned = ownedEntitlement(entitlements, routinePlanId);
  if (owned) return { ok: false, status: 409, reason: "already-owned", owned };
  const context = await funnelContext(input.offer, input.cookieHeader);

  const checkoutProps = { offer: plan.offerId, plan: plan.planId, name: plan.name, price: plan.amountMinor / 100, currency: plan.currency.toUpperCase() };
  const initiateEventId = await recordEvent({ visitorId: input.visitorId, name: "initiate_checkout", funnel: context.funnel, props: checkoutProps });
  // Meta's InitiateCheckout for a consenting browser, with the id just logged, once the checkout has its id.
  const reportStarted = async (checkoutSessionId: string) => {
    if (!input.adBrowser || !initiateEventId) return;
    await recordCheckoutStarted({
      browser: input.adBrowser,
      eventId: initiateEventId,
      checkoutSessionId,
      visitorId: input.visitorId,
      at: row.createdAt,
      params: initiateCheckoutEvent(checkoutProps, initiateEventId).params,
    });
  };

  const row = {
    visitorId: input.visitorId,
    offerId: plan.offerId,
    planId: plan.planId,
    routinePlanId,
    tier: plan.tier,
    planName: plan.name,
    amountMinor: plan.amountMinor,
    currency: plan.currency,
    cancelPath: input.offer.path,
    email: input.user?.email ?? null,
    startedByUserId: input.user?.id ?? null,
    context: JSON.stringify(context),
    saveCardAgreed: saveCard,
    createdAt: now(),
  };

  const stripe = stripeClient();
  if (!stripe) {
    if (!localTestPayments()) return { ok: false, status: 409, reason: "no Stripe key and no local test checkout here" };
    const id = `cs_local_${crypto.randomBytes(18).toString("base64url")}`;
    await db.checkoutSession.create({ data: { ...row, id, provider: "local" } });
    await reportStarted(id);
    await noteCheckoutStarted(input.visitorId, row.createdAt);
    return { ok: true, url: localCheckoutPath(id) };
  }

  const metadata = checkoutMetadata({ plan, visitorId: input.visitorId, funnel: context.funnel, answers: context.answers });
  // A visitor who agreed to our e-mails is reminded of a checkout left unfinished (ADR 44):
  // Stripe expires it after the funnel's delay and gives a link that reopens it.
  const reminderHours = await checkoutReminderHours(input.visitorId);
  // A member's purchases share one Stripe customer, so the customer portal shows them all.
  const customer = entitlements.find((e) => e.stripeCustomerId)?.stripeCustomerId;
  try {
    const session = await stripe.checkout.sessions.create({
      mode: plan.interval ? "subscription" : "payment",
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: plan.currency,
            unit_amount: plan.amountMinor,
            product_data: { name: plan.name },
            ...(plan.interval ? { recurring: { interval: plan.interval } } : {}),
          },
        },
      ],
      success_url: `${env.publicUrl}${STRIPE_SUCCESS_PATH}`,
      cancel_url: `${env.publicUrl}${input.offer.path}`,
      ...(customer ? { customer } : input.user ? { customer_email: input.user.email } : {}),
      client_reference_id: input.visitorId,
      metadata,
      ...(reminderHours === null ? {} : { after_expiration: { recovery: { enabled: true } }, expires_at: checkoutExpiry(row.createdAt, reminderHours) }),
      ...(plan.interval
        ? { subscription_data: { metadata } }
        : {
            // Kept on the customer for the one-tap offer only when the buyer agreed (a subscription keeps its card anyway).
            payment_intent_data: { metadata, ...(saveCard ? { setup_future_usage: "off_session" as const } : {}) },
            ...(customer ? {} : { customer_creation: "always" as const }),
          }),
    });
    if (!session.url) return { ok: false, status: 502, reason: "No checkout URL received" };
    await db.checkoutSession.create({ data: { ...row, id: session.id, provider: "stripe" } });
    await reportStarted(session.id);
    return { ok: true, url: session.url };
  } catch (error) {
    logger.error({ err: error }, `[checkout] Stripe could not create a checkout for ${plan.offerId}/${plan.planId}`);
    return { ok: false, status: 502, reason: error instanceof Error ? error.message : "Stripe error" };
  }
}

/**
 * A Stripe session opened from an expired one's recovery link (its `recovered_from`): recorded
 * as a checkout of the same browser, at the same price, so /payment-success and fulfilment
 * know it like any other. Repeatable; false when the expired session is not one of ours.
 */
export async function adoptRecoveredCheckout(sessionId: string, recoveredFrom: string): Promise<boolean> {
  if (await db.checkoutSession.findUnique({ where: { id: sessionId }, select: { id: true } })) return true;
  const original = await db.checkoutSession.findUnique({ where: { id: recoveredFrom } });
  if (!original || original.provider !== "stripe") return false;
  const { id: _expired, ...copy } = original;
  await db.checkoutSession
    .create({ data: { ...copy, id: sessionId, status: "open", recoveryUrl: null, recoveryUrlExpiresAt: null, createdAt: now() } })
    .catch((error: unknown) => {
      // Adopted meanwhile by the webhook or the success page.
      if (!isUniqueViolation(error)) throw error;
    });
  return true;
}
