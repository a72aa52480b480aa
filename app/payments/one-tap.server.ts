/**
 * The one-tap offer on /payment-success (ADR 45): after a purchase whose buyer agreed on the
 * offer page to keep their card, one further offer from content, bought with one tap on that
 * card. A tap stores a checkout row whose id derives from the purchase (oneTapCheckoutId), so a
 * double tap, a reload or two instances all find the same row, and Stripe gets one idempotency
 * key for the charge: never two charges. When the bank asks for authentication, the buyer
 * completes it on a checkout for that row's price (Stripe Checkout, or the local test checkout).
 */
import { recordEvent } from "~/analytics/events.server";
import { entitlementsOf, ownedEntitlement } from "~/billing/entitlements.server";
import { getOfferByDocumentId, getOfferById } from "~/content/content.server";
import type { CheckoutSession } from "~/generated/prisma/client";
import { now } from "~/utils/clock.server";
import { db, isUniqueViolation } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { logger } from "~/utils/logger.server";
import { go, refusal, type Go, type Refusal } from "~/utils/outcome";
import { displayPrice, type PricedPlan } from "~/billing/catalogue";
import { fulfilCheckout } from "./fulfilment.server";
import { oneTapCheckoutId, oneTapIdempotencyKey, oneTapText, pricedOneTap, type OneTapConfig } from "./one-tap";
import { stripeClient, type Stripe } from "./stripe.server";

/** `testPayment`: the local test checkout's saved test card, which moves no money (the page says so). */
export type OneTapView =
  | { state: "offer"; headline: string; text: string; buttonLabel: string; price: string; planName: string; testPayment: boolean }
  | { state: "bought"; productName: string; price: string; testPayment: boolean };

type Resolved = { config: OneTapConfig; sold: PricedPlan; routinePlanId: string; id: string };

/** The one-tap offer that follows this purchase, priced; null when it has none (or is itself one). */
async function resolve(purchase: CheckoutSession): Promise<Resolved | null> {
  if (purchase.followsCheckoutId) return null;
  const config = (await getOfferById(purchase.offerId))?.oneTapOffer;
  if (!config) return null;
  const target = await getOfferByDocumentId(config.offer._ref);
  const sold = target ? pricedOneTap(config, target) : null;
  if (!target || !sold) {
    logger.warn(`[one-tap] offer ${purchase.offerId}'s one-tap offer ${config.offer._ref}/${config.planId} is not a one-time plan of an offer`);
    return null;
  }
  return { config, sold, routinePlanId: target.routinePlan._ref, id: oneTapCheckoutId(purchase.id, sold) };
}

/** The purchase may be followed by one tap: paid, with the buyer's agreement to keep the card. */
function tappable(purchase: CheckoutSession): purchase is CheckoutSession & { userId: string; email: string } {
  return purchase.status === "complete" && purchase.saveCardAgreed && !!purchase.userId && !!purchase.email;
}

/** What /payment-success shows of the one-tap offer after this (paid, this browser's) purchase. */
export async function oneTapOfferAfter(purchase: CheckoutSession): Promise<OneTapView | null> {
  if (!tappable(purchase)) return null;
  const offer = await resolve(purchase);
  if (!offer) return null;
  const price = displayPrice(offer.sold.amountMinor, offer.sold.currency);
  const testPayment = purchase.provider === "local";
  const row = await db.checkoutSession.findUnique({ where: { id: offer.id }, select: { status: true } });
  if (row?.status === "complete") return { state: "bought", productName: offer.sold.name, price, testPayment };
  // Bought some other way meanwhile: nothing more to offer.
  if (ownedEntitlement(await entitlementsOf(purchase.userId), offer.routinePlanId)) return null;
  await recordEvent({
    visitorId: purchase.visitorId,
    name: "upsell_shown",
    userId: purchase.userId,
    props: { offer: offer.sold.offerId, plan: offer.sold.planId, price: offer.sold.amountMinor / 100, follows: purchase.id },
  });
  return {
    state: "offer",
    headline: oneTapText(offer.config.headline, offer.sold),
    text: oneTapText(offer.config.text, offer.sold),
    buttonLabel: oneTapText(offer.config.buttonLabel, offer.sold),
    price,
    planName: offer.sold.name,
    testPayment,
  };
}

const NOT_AVAILABLE = "This offer isn't available for your purchase, so nothing was charged.";
const DECLINED = "Your bank declined the payment, so nothing was charged. You can buy it from its page with another card.";

/** The one-tap purchase's row: created by the first tap, found by every later one. */
async function oneTapRow(purchase: CheckoutSession & { userId: string; email: string }, offer: Resolved): Promise<CheckoutSession> {
  const existing = await db.checkoutSession.findUnique({ where: { id: offer.id } });
  if (existing) return existing;
  try {
    return await db.checkoutSession.create({
      data: {
        id: offer.id,
        provider: purchase.provider,
        visitorId: purchase.visitorId,
        offerId: offer.sold.offerId,
        planId: offer.sold.planId,
        routinePlanId: offer.routinePlanId,
        tier: offer.sold.tier,
        planName: offer.sold.name,
        amountMinor: offer.sold.amountMinor,
        currency: offer.sold.currency,
        cancelPath: successPath(purchase.id),
        email: purchase.email,
        startedByUserId: purchase.userId,
        followsCheckoutId: purchase.id,
        // The purchase it follows welcomed the buyer (sign-in e-mail): this one never does again.
        welcomedAt: now(),
        createdAt: now(),
      },
    });
  } catch (error) {
    // A second tap at the same moment created it first.
    if (!isUniqueViolation(error)) throw error;
    return db.checkoutSession.findUniqueOrThrow({ where: { id: offer.id } });
  }
}

function successPath(purchaseId: string): string {
  return `/payment-success?session_id=${encodeURIComponent(purchaseId)}`;
}

/**
 * The one tap: charges the card of this browser's purchase `purchaseId` once, whatever the
 * number of taps, and stores the purchase; or sends the buyer to authenticate. null: no such
 * purchase in this browser.
 */
export async function buyOneTap(input: { purchaseId: string; visitorId: string }): Promise<Go | Refusal | null> {
  const purchase = await db.checkoutSession.findUnique({ where: { id: input.purchaseId } });
  if (!purchase || purchase.visitorId !== input.visitorId) return null;
  const back = go(successPath(purchase.id));
  if (!tappable(purchase)) return refusal(409, NOT_AVAILABLE);
  const offer = await resolve(purchase);
  if (!offer) return refusal(409, NOT_AVAILABLE);
  const row = await oneTapRow(purchase, offer);
  if (row.status === "complete") return back;
  // The buyer left the authentication page with 'Cancel' earlier: a new tap opens it again.
  if (row.status === "canceled") await db.checkoutSession.updateMany({ where: { id: row.id, status: "canceled" }, data: { status: "open" } });
  if (ownedEntitlement(await entitlementsOf(purchase.userId), offer.routinePlanId))
    return refusal(409, `You already have ${offer.sold.name}, so nothing was charged.`);

  if (purchase.provider === "local") {
    // The local test checkout's saved card: approves, or asks for authentication (its checkout page).
    if (purchase.testCard === "authenticate") return go(`/checkout/test/${encodeURIComponent(row.id)}`);
    await fulfilCheckout({ checkoutSessionId: row.id, email: purchase.email, offerId: row.offerId, planId: row.planId, at: now() });
    return back;
  }
  const stripe = stripeClient();
  if (!stripe) return refusal(409, NOT_AVAILABLE);
  return chargeWithStripe(stripe, purchase, row, back);
}

/** The card and customer the purchase paid with, from Stripe. */
async function savedCard(stripe: Stripe, purchaseId: string): Promise<{ customer: string; paymentMethod: string } | null> {
  const session = await stripe.checkout.sessions.retrieve(purchaseId, { expand: ["payment_intent", "subscription"] });
  const customer = typeof session.customer === "string" ? session.customer : session.customer?.id;
  const intent = typeof session.payment_intent === "object" ? session.payment_intent : null;
  const subscription = typeof session.subscription === "object" ? session.subscription : null;
  const method = intent?.payment_method ?? subscription?.default_payment_method ?? null;
  const paymentMethod = typeof method === "string" ? method : method?.id;
  return customer && paymentMethod ? { customer, paymentMethod } : null;
}

async function chargeWithStripe(stripe: Stripe, purchase: CheckoutSession & { email: string }, row: CheckoutSession, back: Go): Promise<Go | Refusal> {
  const metadata = { offerId: row.offerId, planId: row.planId, visitorId: row.visitorId, oneTapCheckoutId: row.id, follows: purchase.id };
  let card: { customer: string; paymentMethod: string } | null;
  try {
    card = await savedCard(stripe, purchase.id);
  } catch (error) {
    logger.error({ err: error }, `[one-tap] could not read the card of ${purchase.id}`);
    return refusal(502, "We couldn't reach the payment provider, so nothing was charged. Please try again.");
  }
  if (!card) return refusal(409, NOT_AVAILABLE);
  try {
    const intent = await stripe.paymentIntents.create(
      {
        amount: row.amountMinor,
        currency: row.currency,
        customer: card.customer,
        payment_method: card.paymentMethod,
        off_session: true,
        confirm: true,
        description: row.planName,
        metadata,
      },
      { idempotencyKey: oneTapIdempotencyKey(row.id, "charge") },
    );
    if (intent.status === "succeeded") {
      await fulfilCheckout({
        checkoutSessionId: row.id,
        email: purchase.email,
        offerId: row.offerId,
        planId: row.planId,
        at: now(),
        customerId: card.customer,
        paymentIntentId: intent.id,
      });
      return back;
    }
    if (intent.status !== "requires_action") return refusal(409, DECLINED);
  } catch (error) {
    const stripeError = error as { type?: string; code?: string };
    // Another tap's identical request is still at Stripe: its answer lands on the page.
    if (stripeError.type === "StripeIdempotencyError") return back;
    if (stripeError.code !== "authentication_required") {
      logger.warn({ err: error }, `[one-tap] charge for ${row.id} refused`);
      return refusal(409, DECLINED);
    }
  }
  return authenticateWithCheckout(stripe, row, card.customer, metadata);
}

/**
 * The bank wants the buyer present: a Checkout Session in payment mode for the one-tap price,
 * on the same customer (ADR 45). It completes like any checkout, through /payment-success.
 */
async function authenticateWithCheckout(stripe: Stripe, row: CheckoutSession, customer: string, metadata: Record<string, string>): Promise<Go | Refusal> {
  try {
    const session = await stripe.checkout.sessions.create(
      {
        mode: "payment",
        customer,
        line_items: [{ quantity: 1, price_data: { currency: row.currency, unit_amount: row.amountMinor, product_data: { name: row.planName } } }],
        success_url: `${env.publicUrl}/payment-success?session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${env.publicUrl}${row.cancelPath}`,
        client_reference_id: row.visitorId,
        metadata,
        payment_intent_data: { metadata },
      },
      { idempotencyKey: oneTapIdempotencyKey(row.id, "checkout") },
    );
    if (!session.url) return refusal(502, "We couldn't open the payment page, so nothing was charged. Please try again.");
    const existing = await db.checkoutSession.findUnique({ where: { id: session.id } });
    if (!existing) {
      const { id: _oneTapId, ...copy } = row;
      await db.checkoutSession.create({ data: { ...copy, id: session.id, createdAt: now(), welcomedAt: now() } }).catch((error: unknown) => {
        if (!isUniqueViolation(error)) throw error;
      });
    }
    return go(session.url);
  } catch (error) {
    logger.error({ err: error }, `[one-tap] could not open a checkout for ${row.id}`);
    return refusal(502, "We couldn't open the payment page, so nothing was charged. Please try again.");
  }
}
