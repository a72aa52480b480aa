/**
 * A refund the member asks for on the billing page (ADR 33), inside the window the plan they
 * bought promises (`refundDays` in the offer's content). Stripe mode refunds the purchase's
 * payment through Stripe's refund API (and cancels a subscription at once, so nothing renews);
 * the local test checkout records the refund and moves no money. Either way the entitlement
 * gets a 'refunded' state on top of its history, its access ends, and an e-mail says so.
 */
import { applyEntitlementChange, purchaseOf } from "~/billing/entitlements.server";
import { longDate, refundStanding, refundWindow, windowEndedText } from "~/billing/refund-policy";
import { claimRefund, completeRefund, refundsOf, releaseRefund } from "~/billing/refunds.server";
import { getOfferById, getPlan, getSiteSettings } from "~/content/content.server";
import { sendEmail } from "~/email/mailer.server";
import { refundEmail } from "~/email/templates.server";
import { now, validUntil } from "~/utils/clock.server";
import { env } from "~/utils/env.server";
import { logger } from "~/utils/logger.server";
import { go, refusal, type Go, type Refusal } from "~/utils/outcome";
import { toastHeader } from "~/utils/toast.server";
import { displayPrice } from "~/billing/catalogue";
import { localTestPayments, stripeClient, type Stripe } from "./stripe.server";

const NOT_FOUND = "We couldn't find that purchase on your account.";
const ALREADY = "This purchase has already been refunded.";
const NO_WINDOW = "This plan has no refund window. Questions? Write to support@glowcoach.app.";
const ENDED = "This plan has already ended, so there is nothing to refund.";
const PROVIDER_DOWN = "We couldn't reach our payment provider, so nothing was refunded or changed. Please try again in a few minutes.";
const NOT_AT_STRIPE = "This purchase was made in test mode, not through Stripe: please write to support@glowcoach.app.";

/** What the confirmation page shows before the member confirms. */
export type RefundQuote = {
  entitlementId: string;
  planName: string;
  productName: string;
  amount: string;
  recurring: boolean;
  endsAt: Date;
  testMode: boolean;
};

type Checked = { quote: RefundQuote; amountMinor: number; currency: string; purchase: NonNullable<Awaited<ReturnType<typeof purchaseOf>>> };

/** The purchase the member names, if it can be refunded now; otherwise why not, with its status. */
async function checkRefund(userId: string, entitlementId: string): Promise<Checked | Refusal> {
  const at = now();
  const purchase = await purchaseOf(userId, entitlementId, at);
  if (!purchase) return refusal(404, NOT_FOUND);
  const offer = await getOfferById(purchase.current.offerId);
  const standing = refundStanding(purchase.current.status, offer ? refundWindow(purchase.purchase, offer.plans) : null, at);
  if (standing.kind === "refunded") return refusal(409, ALREADY);
  if (standing.kind === "none") return refusal(403, NO_WINDOW);
  if (standing.kind === "ended") return refusal(403, windowEndedText(standing.days, standing.endedAt));
  if (!purchase.current.subscribed) return refusal(409, ENDED);
  const { priceMinor, currency, planName } = purchase.purchase;
  const productName = (await getPlan(purchase.current.routinePlanId))?.name ?? planName;
  return {
    quote: {
      entitlementId,
      planName,
      productName,
      amount: displayPrice(priceMinor, currency),
      recurring: purchase.purchase.tier !== "single_payment",
      endsAt: standing.endsAt,
      testMode: !stripeClient(),
    },
    amountMinor: priceMinor,
    currency,
    purchase,
  };
}

/** The confirmation page's view, or why there is nothing to confirm. */
export async function refundQuote(userId: string, entitlementId: string): Promise<RefundQuote | Refusal> {
  const checked = await checkRefund(userId, entitlementId);
  return "refused" in checked ? checked : checked.quote;
}

/** What the billing page says about refunds, per purchase shown and for purchases refunded. */
export type BillingRefunds = {
  /** Per entitlement id: a refund it can still have ("open": until when), or the window that ended. */
  standing: Map<string, { kind: "open"; until: string } | { kind: "ended"; text: string }>;
  refunded: { id: string; planName: string; text: string }[];
};

/** The billing page's refund lines for a member's purchases (the paid ones, and the refunded ones). */
export async function billingRefunds(userId: string, timeZone: string, entitlementIds: readonly string[]): Promise<BillingRefunds> {
  const at = now();
  const standing: BillingRefunds["standing"] = new Map();
  for (const id of entitlementIds) {
    const purchase = await purchaseOf(userId, id, at);
    const offer = purchase ? await getOfferById(purchase.current.offerId) : null;
    if (!purchase || !offer) continue;
    const s = refundStanding(purchase.current.status, refundWindow(purchase.purchase, offer.plans), at);
    if (s.kind === "open") {
      // The page changes by itself when the window ends (a stored copy must not outlive it).
      validUntil(s.endsAt.getTime());
      standing.set(id, { kind: "open", until: longDate(s.endsAt, timeZone) });
    } else if (s.kind === "ended") standing.set(id, { kind: "ended", text: windowEndedText(s.days, s.endedAt, timeZone) });
  }
  const refunded: BillingRefunds["refunded"] = [];
  for (const [id, refund] of await refundsOf(userId)) {
    if (!refund.completedAt) continue;
    const purchase = await purchaseOf(userId, id, at);
    refunded.push({
      id,
      planName: (purchase && (await getPlan(purchase.current.routinePlanId))?.name) ?? purchase?.purchase.planName ?? "Plan",
      text: `Refunded ${displayPrice(refund.amountMinor, refund.currency)} on ${longDate(refund.completedAt, timeZone)}.`,
    });
  }
  return { standing, refunded };
}

/** The payment a purchase was paid with at Stripe: a one-time plan's, or a subscription's first invoice's. */
async function paidWith(stripe: Stripe, ids: Checked["purchase"]["stripe"]): Promise<string | null> {
  if (ids.paymentIntentId) return ids.paymentIntentId;
  if (!ids.checkoutSessionId) return null;
  const session = await stripe.checkout.sessions.retrieve(ids.checkoutSessionId);
  const invoice = typeof session.invoice === "string" ? session.invoice : (session.invoice?.id ?? null);
  if (!invoice) return null;
  const [paid] = (await stripe.invoicePayments.list({ invoice, status: "paid", limit: 1 })).data;
  const intent = paid?.payment.payment_intent;
  return typeof intent === "string" ? intent : (intent?.id ?? null);
}

/** Stripe: refunds the purchase's payment and ends its subscription; the refund's id. */
async function refundAtStripe(stripe: Stripe, entitlementId: string, ids: Checked["purchase"]["stripe"], amountMinor: number): Promise<string | Refusal> {
  const paymentIntent = await paidWith(stripe, ids);
  if (!paymentIntent) return refusal(409, NOT_AT_STRIPE);
  // The same key for the same purchase: a retried or repeated request is one refund at Stripe.
  const refund = await stripe.refunds.create(
    { payment_intent: paymentIntent, amount: amountMinor, reason: "requested_by_customer", metadata: { entitlementId } },
    { idempotencyKey: `glowcoach-refund-${entitlementId}` },
  );
  if (ids.subscriptionId) {
    await stripe.subscriptions.cancel(ids.subscriptionId, { prorate: false }, { idempotencyKey: `glowcoach-refund-cancel-${entitlementId}` });
  }
  return refund.id;
}

/**
 * Refunds one of the member's purchases inside its window, once: back to /profile with a
 * toast, or a refusal (404 not theirs, 403 outside the window, 409 already refunded, 502
 * Stripe failed — then nothing changed and they may try again).
 */
export async function requestRefund(member: { id: string; email: string }, entitlementId: string): Promise<Go | Refusal> {
  const checked = await checkRefund(member.id, entitlementId);
  if ("refused" in checked) return checked;
  const { quote, purchase, amountMinor, currency } = checked;
  const stripe = stripeClient();
  if (!stripe && !localTestPayments()) return refusal(502, PROVIDER_DOWN);
  if (!(await claimRefund({ entitlementId, amountMinor, currency, provider: stripe ? "stripe" : "local" }))) return refusal(409, ALREADY);

  let providerRefundId: string | null = null;
  if (stripe) {
    try {
      const made = await refundAtStripe(stripe, entitlementId, purchase.stripe, amountMinor);
      if (typeof made !== "string") {
        await releaseRefund(entitlementId);
        return made;
      }
      providerRefundId = made;
    } catch (error) {
      logger.error({ err: error }, `[refund] Stripe refused or failed the refund of ${entitlementId}`);
      await releaseRefund(entitlementId);
      return refusal(502, PROVIDER_DOWN);
    }
  }
  await completeRefund(entitlementId, providerRefundId);
  await applyEntitlementChange(
    { id: entitlementId },
    { at: now(), reason: stripe ? "refund:stripe" : "refund:local", status: "refunded", cancelAtPeriodEnd: false },
    // The refund is the last word, even over an event Stripe's clock stamped a moment later.
    { newest: true },
  );

  try {
    const settings = await getSiteSettings();
    await sendEmail({ to: member.email, ...refundEmail({ ...quote, profileLink: `${env.publicUrl}/profile`, brandName: settings.brandName }) });
  } catch (error) {
    // The money is back either way: a failed e-mail is logged, not shown as a failed refund.
    logger.error({ err: error }, `[refund] the refund e-mail for ${entitlementId} could not be sent`);
  }
  return go("/profile", [
    await toastHeader({ title: "Refund made", description: `${quote.amount} is on its way back to your card. Your access to ${quote.productName} has ended.` }),
  ]);
}
