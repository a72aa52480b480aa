/**
 * 'Manage Subscription': Stripe's customer portal (Stripe mode) or the local test portal (the
 * embedded default), for one of the member's recurring entitlements. Both can cancel at the
 * end of the period and switch between an offer's recurring plans (monthly ↔ annual); a
 * switch changes the same subscription, so the member never pays for two.
 *
 * With Stripe, a switch opens the portal's "confirm this update" page for the plan chosen.
 * Stripe needs a Price for it and a portal configuration that allows it, so the app keeps one
 * Stripe Product per offer and one Price per plan and price (found again by lookup key), and
 * one portal configuration per set of prices. The subscription event Stripe sends afterwards
 * moves the entitlement to the new plan (webhooks.server.ts).
 */
import { applyEntitlementChange, entitlementsOf, type EntitlementView } from "~/billing/entitlements.server";
import { getOfferById } from "~/content/content.server";
import { now } from "~/utils/clock.server";
import { env } from "~/utils/env.server";
import { go, refusal, type Go, type Refusal } from "~/utils/outcome";
import { toastHeader } from "~/utils/toast.server";
import { intervalOf } from "./catalogue";
import { addInterval } from "./fulfilment.server";
import { NO_SUBSCRIPTION_TO_MANAGE } from "./messages";
import type { Offer, OfferPlan } from "./offer-schema";
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
  if (!stripe) {
    // The test portal exists only beside the local test checkout (never in production).
    if (!localTestPayments()) return "/profile";
    const query = new URLSearchParams({ entitlement: target.id, ...(request.switchTo ? { switchTo: request.switchTo } : {}) });
    return `/billing/test-portal?${query}`;
  }
  if (!target.stripeCustomerId) {
    // Bought with the local test checkout before Stripe was configured: nothing to manage at Stripe.
    logger.info(`${NO_SUBSCRIPTION_TO_MANAGE} (no Stripe customer for this member)`);
    return "/profile";
  }
  const returnUrl = `${env.publicUrl}/profile`;
  const offer = await getOfferById(target.offerId);
  const switchTo = offer && request.switchTo ? switchablePlans(offer, target).find((p) => p.id === request.switchTo) : undefined;
  if (offer && switchTo && target.stripeSubscriptionId) {
    const flow = await switchFlow(stripe, offer, switchTo, target.stripeSubscriptionId);
    const session = await stripe.billingPortal.sessions.create({
      customer: target.stripeCustomerId,
      return_url: returnUrl,
      configuration: flow.configuration,
      flow_data: {
        type: "subscription_update_confirm",
        subscription_update_confirm: { subscription: target.stripeSubscriptionId, items: [{ id: flow.itemId, price: flow.priceId, quantity: 1 }] },
        after_completion: { type: "redirect", redirect: { return_url: returnUrl } },
      },
    });
    return session.url;
  }
  const session = await stripe.billingPortal.sessions.create({ customer: target.stripeCustomerId, return_url: returnUrl });
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

const configurations = new Map<string, string>();

/** A portal configuration that allows switching between these prices (one per set of prices). */
async function portalConfiguration(stripe: Stripe, product: string, prices: string[]): Promise<string> {
  const key = `${product}:${[...prices].sort().join(",")}`.slice(0, 500);
  const cached = configurations.get(key);
  if (cached) return cached;
  const existing = (await stripe.billingPortal.configurations.list({ active: true, limit: 100 })).data.find((c) => c.metadata?.glowcoach === key);
  const id =
    existing?.id ??
    (
      await stripe.billingPortal.configurations.create({
        business_profile: { privacy_policy_url: `${env.publicUrl}/privacy-policy`, terms_of_service_url: `${env.publicUrl}/terms-of-service` },
        features: {
          invoice_history: { enabled: true },
          payment_method_update: { enabled: true },
          subscription_cancel: { enabled: true, mode: "at_period_end" },
          subscription_update: { enabled: true, default_allowed_updates: ["price"], proration_behavior: "create_prorations", products: [{ product, prices }] },
        },
        metadata: { glowcoach: key },
      })
    ).id;
  configurations.set(key, id);
  return id;
}

async function switchFlow(stripe: Stripe, offer: Offer, to: OfferPlan, subscriptionId: string) {
  const product = await stripeProduct(stripe, offer);
  const recurring = offer.plans.filter((plan) => intervalOf(plan.tier) !== null);
  const prices = await Promise.all(recurring.map((plan) => stripePrice(stripe, offer, plan, product)));
  const priceId = prices[recurring.findIndex((plan) => plan.id === to.id)];
  const configuration = await portalConfiguration(stripe, product, prices);
  const subscription = await stripe.subscriptions.retrieve(subscriptionId);
  const itemId = subscription.items.data[0]?.id;
  if (!itemId) throw new Error(`subscription ${subscriptionId} has no item to switch`);
  return { priceId, configuration, itemId };
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

/**
 * The local test portal's plan switch: the same entitlement moves to the other plan from now,
 * with a new period (as Stripe does when the billing interval changes).
 */
export async function switchPlanLocally(userId: string, entitlementId: string | null, planId: string): Promise<OfferPlan | null> {
  const target = await recurringEntitlement(userId, entitlementId);
  if (!target) return null;
  const offer = await getOfferById(target.offerId);
  const plan = offer ? switchablePlans(offer, target).find((p) => p.id === planId) : undefined;
  const interval = plan ? intervalOf(plan.tier) : null;
  if (!plan || !interval) return null;
  const at = now();
  await applyEntitlementChange(
    { id: target.id },
    {
      at,
      reason: "portal:switch",
      tier: plan.tier,
      planId: plan.id,
      planName: plan.name,
      priceMinor: plan.priceMinor,
      currency: plan.currency,
      currentPeriodEnd: addInterval(at, interval),
      cancelAtPeriodEnd: false,
    },
  );
  return plan;
}

/** What the local test portal's buttons ask for. */
export type TestPortalChange = { intent: "switch"; planId: string } | { intent: "cancel" | "resume" };

const CANCELLED = { title: "Subscription cancelled", description: "You keep full access until the end of your paid period." };
const RESUMED = { title: "Subscription resumed", description: "Your plan will renew as usual." };

/**
 * The local test portal's change to one of the member's subscriptions (or their first), then
 * back to the portal with a toast; a member with no such subscription goes to /profile.
 */
export async function changeSubscriptionLocally(userId: string, entitlementId: string | null, change: TestPortalChange): Promise<Go | Refusal> {
  const back = `/billing/test-portal${entitlementId ? `?${new URLSearchParams({ entitlement: entitlementId })}` : ""}`;
  if (change.intent === "switch") {
    const plan = await switchPlanLocally(userId, entitlementId, change.planId);
    if (!plan) return refusal(400, "That plan can't be chosen here.");
    return go(back, [await toastHeader({ title: "Plan changed", description: `You're now on the ${plan.name}.` })]);
  }
  const changed = await cancelAtPeriodEndLocally(userId, entitlementId, change.intent === "cancel");
  if (!changed) return go("/profile");
  return go(back, [await toastHeader(change.intent === "cancel" ? CANCELLED : RESUMED)]);
}
