/**
 * 'Manage Subscription': Stripe's customer portal (Stripe mode) or the local test portal (the
 * embedded default), for one of the member's recurring entitlements. Both can cancel at the
 * end of the period and switch between an offer's recurring plans (monthly ↔ annual); a
 * switch changes the same subscription, so the member never pays for two.
 *
 * A switch is confirmed on the app's own page (/billing/switch, ADR 33), in both modes: it first
 * says what happens to the money already paid (Stripe's invoice preview for exactly that
 * change, or the test portal's reckoning), then makes the change and e-mails the same lines.
 * Stripe needs a Price for the new plan, so the app keeps one Stripe Product per offer and one
 * Price per plan and price (found again by lookup key). The subscription event Stripe sends
 * afterwards confirms the new plan (webhooks.server.ts).
 */
import { applyEntitlementChange, entitlementsOf, type EntitlementView } from "~/billing/entitlements.server";
import { localProration, prorationFromInvoice, prorationLines, type Proration } from "~/billing/proration";
import { getOfferById, getSiteSettings } from "~/content/content.server";
import { sendEmail } from "~/email/mailer.server";
import { planSwitchEmail } from "~/email/templates.server";
import { now } from "~/utils/clock.server";
import { env } from "~/utils/env.server";
import { go, isRefusal, refusal, type Go, type Refusal } from "~/utils/outcome";
import { toastHeader } from "~/utils/toast.server";
import { intervalOf } from "~/billing/catalogue";
import { addInterval } from "./fulfilment.server";
import { NO_SUBSCRIPTION_TO_MANAGE } from "./messages";
import type { Offer, OfferPlan } from "../content-model/offer";
import { localTestPayments, stripeClient, type Stripe } from "./stripe.server";
import { logger } from "~/utils/logger.server";

export type PortalRequest = { entitlementId?: string | null; switchTo?: string | null };

/** The member's recurring entitlement the request names (or their first one), if they have it. */
async function recurringEntitlement(userId: string, entitlementId: string | null | undefined): Promise<EntitlementView | null> {
  const recurring = (await entitlementsOf(userId)).filter((e) => e.recurring);
  if (entitlementId) return recurring.find((e) => e.id === entitlementId) ?? null;
  return recurring[0] ?? null;
}

/** The plans a recurring entitlement can switch to: the offer's other recurring plans. */
export function switchablePlans(offer: Offer, current: { planId: string }): OfferPlan[] {
  return offer.plans.filter((plan) => plan.id !== current.planId && intervalOf(plan.tier) !== null);
}

/**
 * Where 'Manage Subscription' sends the member: a portal session Stripe opened for them (an
 * address at Stripe), the local test portal, or back to /profile when there is nothing to manage.
 */
export async function openBillingPortal(userId: string, request: PortalRequest = {}): Promise<string> {
  const target = await recurringEntitlement(userId, request.entitlementId);
  if (!target) {
    logger.info(NO_SUBSCRIPTION_TO_MANAGE);
    return "/profile";
  }
  const stripe = stripeClient();
  if (!stripe && !localTestPayments()) return "/profile";
  // A plan switch is confirmed on the app's own page, which first says what happens to the
  // money already paid (Stripe's invoice preview, or the test portal's own reckoning).
  const offer = request.switchTo ? await getOfferById(target.offerId) : null;
  const switchTo = offer ? switchablePlans(offer, target).find((p) => p.id === request.switchTo) : undefined;
  if (switchTo && (!stripe || (target.stripeCustomerId && target.stripeSubscriptionId))) {
    return `/billing/switch?${new URLSearchParams({ entitlement: target.id, to: switchTo.id })}`;
  }
  // The test portal exists only beside the local test checkout (never in production).
  if (!stripe) return `/billing/test-portal?${new URLSearchParams({ entitlement: target.id })}`;
  if (!target.stripeCustomerId) {
    // Bought with the local test checkout before Stripe was configured: nothing to manage at Stripe.
    logger.info(`${NO_SUBSCRIPTION_TO_MANAGE} (no Stripe customer for this member)`);
    return "/profile";
  }
  const session = await stripe.billingPortal.sessions.create({ customer: target.stripeCustomerId, return_url: `${env.publicUrl}/profile` });
  return session.url;
}

const productId = (offer: Offer) => `glowcoach_${offer.offerId}`.slice(0, 60);
const lookupKey = (offer: Offer, plan: OfferPlan) => `glowcoach:${offer.offerId}:${plan.id}:${plan.priceMinor}:${plan.currency}`;

/** The Stripe Product for an offer, created the first time it is needed. */
async function stripeProduct(stripe: Stripe, offer: Offer): Promise<string> {
  const id = productId(offer);
  try {
    return (await stripe.products.retrieve(id)).id;
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode !== 404) throw error;
    return (await stripe.products.create({ id, name: offer.pageTitle, metadata: { offerId: offer.offerId } })).id;
  }
}

/** The Stripe Price for a recurring plan at its current price, created the first time it is needed. */
async function stripePrice(stripe: Stripe, offer: Offer, plan: OfferPlan, product: string): Promise<string> {
  const key = lookupKey(offer, plan);
  const [found] = (await stripe.prices.list({ lookup_keys: [key], active: true, limit: 1 })).data;
  if (found) return found.id;
  const interval = intervalOf(plan.tier);
  if (!interval) throw new Error(`${offer.offerId}/${plan.id} is not a recurring plan`);
  const created = await stripe.prices.create({
    lookup_key: key,
    product,
    currency: plan.currency,
    unit_amount: plan.priceMinor,
    recurring: { interval },
    nickname: plan.name,
    // The subscription event after a switch names the plan through its price.
    metadata: { offerId: offer.offerId, planId: plan.id },
  });
  return created.id;
}

/** The subscription's item and the Stripe Price of the plan it switches to (created the first time). */
async function switchTarget(stripe: Stripe, offer: Offer, to: OfferPlan, subscriptionId: string) {
  const product = await stripeProduct(stripe, offer);
  const priceId = await stripePrice(stripe, offer, to, product);
  const subscription = await stripe.subscriptions.retrieve(subscriptionId);
  const itemId = subscription.items.data[0]?.id;
  if (!itemId) throw new Error(`subscription ${subscriptionId} has no item to switch`);
  return { priceId, itemId };
}

/** What the local test portal shows for one of the member's recurring entitlements. */
export async function testPortalView(userId: string, entitlementId: string | null) {
  const target = await recurringEntitlement(userId, entitlementId);
  if (!target) return null;
  const offer = await getOfferById(target.offerId);
  return { entitlement: target, switchTo: offer ? switchablePlans(offer, target) : [] };
}

/** The local test portal: cancel at the end of the paid period (the Terms), or resume. */
async function cancelAtPeriodEndLocally(userId: string, entitlementId: string | null, cancel: boolean): Promise<boolean> {
  const target = await recurringEntitlement(userId, entitlementId);
  if (!target) return false;
  await applyEntitlementChange({ id: target.id }, { at: now(), reason: cancel ? "portal:cancel" : "portal:resume", cancelAtPeriodEnd: cancel });
  return true;
}

/** One interval before `end` (a month or a year): the start of the period paid for. */
function periodStartBefore(end: Date, interval: "month" | "year"): Date {
  const start = new Date(end);
  if (interval === "month") start.setUTCMonth(start.getUTCMonth() - 1);
  else start.setUTCFullYear(start.getUTCFullYear() - 1);
  return start;
}

/** What the switch page shows before the member confirms: the plans and what happens to the money. */
export type SwitchPreview = {
  entitlementId: string;
  fromPlan: string;
  toPlan: OfferPlan;
  proration: Proration;
  /** The money, in the member's words (the e-mail repeats them). */
  lines: string[];
  /** Stripe mode: the moment the preview was priced at; the switch is made at the same moment, so it costs what was shown. */
  prorationDate: number | null;
  testMode: boolean;
};

const NO_SUCH_SWITCH = "That plan can't be chosen here.";
/** How long the switch page's price holds (Stripe's proration date): a page left open longer is priced again. */
const PREVIEW_VALID_SECONDS = 15 * 60;
const PROVIDER_DOWN = "We couldn't reach our payment provider, so your plan was not changed. Please try again in a few minutes.";

/** The member's subscription, the offer and the plan it may switch to; null when any is not theirs or not allowed. */
async function switchOf(userId: string, entitlementId: string, planId: string) {
  const target = await recurringEntitlement(userId, entitlementId);
  const offer = target ? await getOfferById(target.offerId) : null;
  const plan = target && offer ? switchablePlans(offer, target).find((p) => p.id === planId) : undefined;
  const interval = plan ? intervalOf(plan.tier) : null;
  return target && offer && plan && interval ? { target, offer, plan, interval } : null;
}

/**
 * What switching one of the member's subscriptions to another plan of its offer does to the
 * money already paid: Stripe's invoice preview for exactly that change (Stripe mode), or the
 * test portal's reckoning of the unused time (localProration).
 */
export async function previewSwitch(userId: string, entitlementId: string, planId: string, pricedAt?: number): Promise<SwitchPreview | Refusal> {
  const found = await switchOf(userId, entitlementId, planId);
  if (!found) return refusal(404, NO_SUCH_SWITCH);
  const { target, offer, plan } = found;
  const stripe = stripeClient();
  let proration: Proration;
  let prorationDate: number | null = null;
  if (stripe) {
    if (!target.stripeCustomerId || !target.stripeSubscriptionId)
      return refusal(409, "This subscription was bought in test mode: it can't be changed at Stripe.");
    prorationDate = pricedAt ?? Math.floor(now().getTime() / 1000);
    try {
      const { priceId, itemId } = await switchTarget(stripe, offer, plan, target.stripeSubscriptionId);
      const invoice = await stripe.invoices.createPreview({
        customer: target.stripeCustomerId,
        subscription: target.stripeSubscriptionId,
        subscription_details: { items: [{ id: itemId, price: priceId }], proration_behavior: "create_prorations", proration_date: prorationDate },
      });
      proration = prorationFromInvoice({ total: invoice.total, currency: invoice.currency, lines: invoice.lines.data });
    } catch (error) {
      logger.error({ err: error }, `[billing] Stripe could not preview the switch of ${entitlementId}`);
      return refusal(502, PROVIDER_DOWN);
    }
  } else {
    if (!localTestPayments()) return refusal(404, NO_SUCH_SWITCH);
    const currentInterval = target.tier ? intervalOf(target.tier) : null;
    const periodEnd = target.currentPeriodEnd ? new Date(target.currentPeriodEnd) : now();
    proration = localProration({
      paidMinor: target.priceMinor,
      periodStart: currentInterval ? periodStartBefore(periodEnd, currentInterval) : now(),
      periodEnd,
      at: now(),
      newPriceMinor: plan.priceMinor,
      currency: plan.currency,
    });
  }
  const fromPlan = target.planName ?? "current plan";
  return {
    entitlementId: target.id,
    fromPlan,
    toPlan: plan,
    proration,
    lines: prorationLines(proration, fromPlan, plan.name),
    prorationDate,
    testMode: !stripe,
  };
}

/**
 * The switch the member confirmed: the same subscription moves to the other plan from now, with
 * a new period. Stripe mode updates the subscription at Stripe with the preview's proration date
 * (so it costs what the page said); the test portal appends the state itself. The e-mail says
 * what happened to the money. Back to /profile with a toast.
 */
export async function confirmSwitch(member: { id: string; email: string }, entitlementId: string, planId: string, previewedAt?: number): Promise<Go | Refusal> {
  // The moment the page was priced at, if it is recent: the switch then costs exactly what was
  // shown. A made-up moment can shift the proration by a few minutes' worth at most.
  const age = previewedAt === undefined ? Infinity : Math.floor(now().getTime() / 1000) - previewedAt;
  const preview = await previewSwitch(member.id, entitlementId, planId, age >= 0 && age <= PREVIEW_VALID_SECONDS ? previewedAt : undefined);
  if (isRefusal(preview)) return preview;
  const found = await switchOf(member.id, entitlementId, planId);
  if (!found) return refusal(404, NO_SUCH_SWITCH);
  const { target, offer, plan, interval } = found;
  const stripe = stripeClient();
  const at = now();
  let periodEnd = addInterval(at, interval);
  if (stripe && target.stripeSubscriptionId) {
    try {
      const { priceId, itemId } = await switchTarget(stripe, offer, plan, target.stripeSubscriptionId);
      const updated = await stripe.subscriptions.update(target.stripeSubscriptionId, {
        items: [{ id: itemId, price: priceId }],
        proration_behavior: "create_prorations",
        ...(preview.prorationDate ? { proration_date: preview.prorationDate } : {}),
      });
      const end = updated.items.data[0]?.current_period_end;
      if (end) periodEnd = new Date(end * 1000);
    } catch (error) {
      logger.error({ err: error }, `[billing] Stripe refused the switch of ${entitlementId}`);
      return refusal(502, PROVIDER_DOWN);
    }
  }
  await applyEntitlementChange(
    { id: target.id },
    {
      at,
      reason: stripe ? "stripe:switch" : "portal:switch",
      tier: plan.tier,
      planId: plan.id,
      planName: plan.name,
      priceMinor: plan.priceMinor,
      currency: plan.currency,
      currentPeriodEnd: periodEnd,
      cancelAtPeriodEnd: false,
    },
  );
  try {
    const settings = await getSiteSettings();
    await sendEmail({
      to: member.email,
      ...planSwitchEmail({
        fromPlan: preview.fromPlan,
        toPlan: plan.name,
        money: preview.lines,
        profileLink: `${env.publicUrl}/profile`,
        brandName: settings.brandName,
      }),
    });
  } catch (error) {
    // The plan has changed either way: a failed e-mail is logged, not shown as a failed switch.
    logger.error({ err: error }, `[billing] the switch e-mail for ${entitlementId} could not be sent`);
  }
  return go("/profile", [await toastHeader({ title: "Plan changed", description: `You're now on the ${plan.name}. ${preview.lines.at(-1) ?? ""}`.trim() })]);
}

/** What the local test portal's buttons ask for (a switch goes through the switch page, confirmSwitch). */
export type TestPortalChange = { intent: "cancel" | "resume" };

const CANCELLED = { title: "Subscription cancelled", description: "You keep full access until the end of your paid period." };
const RESUMED = { title: "Subscription resumed", description: "Your plan will renew as usual." };

/**
 * The local test portal's change to one of the member's subscriptions (or their first), then
 * back to the portal with a toast; a member with no such subscription goes to /profile.
 */
export async function changeSubscriptionLocally(userId: string, entitlementId: string | null, change: TestPortalChange): Promise<Go> {
  const back = `/billing/test-portal${entitlementId ? `?${new URLSearchParams({ entitlement: entitlementId })}` : ""}`;
  const changed = await cancelAtPeriodEndLocally(userId, entitlementId, change.intent === "cancel");
  if (!changed) return go("/profile");
  return go(back, [await toastHeader(change.intent === "cancel" ? CANCELLED : RESUMED)]);
}
