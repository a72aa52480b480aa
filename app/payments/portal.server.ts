/**
 * 'Manage Subscription': the Stripe customer portal (Stripe mode), or the local test portal
 * (embedded default), which can cancel at period end. Only for a recurring subscription.
 */
import { redirect } from "@remix-run/node";
import { getSubscriptionView } from "~/billing/subscriptions.server";
import { now } from "~/utils/clock.server";
import { db } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { applyEntitlement } from "./fulfilment.server";
import { NO_SUBSCRIPTION_TO_MANAGE } from "./messages";
import { localTestPayments, stripeClient } from "./stripe.server";
import { logger } from "~/utils/logger.server";

export async function openBillingPortal(userId: string): Promise<Response> {
  const view = await getSubscriptionView(userId);
  const row = await db.subscription.findUnique({ where: { userId } });
  if (!view.recurring || !row) {
    logger.info(NO_SUBSCRIPTION_TO_MANAGE);
    return redirect("/profile", 303);
  }
  const stripe = stripeClient();
  if (!stripe) return redirect(localTestPayments() ? "/billing/test-portal" : "/profile", 303);
  if (!row.stripeCustomerId) {
    // Bought with the local test checkout before Stripe was configured: nothing to manage at Stripe.
    logger.info(`${NO_SUBSCRIPTION_TO_MANAGE} (no Stripe customer for this member)`);
    return redirect("/profile", 303);
  }
  const session = await stripe.billingPortal.sessions.create({ customer: row.stripeCustomerId, return_url: `${env.publicUrl}/profile` });
  return redirect(session.url, 303);
}

/** The local test portal's one action: cancel at the end of the paid period (spec: Terms). */
export async function cancelAtPeriodEndLocally(userId: string, cancel: boolean): Promise<boolean> {
  const view = await getSubscriptionView(userId);
  if (!view.recurring) return false;
  await applyEntitlement(userId, { at: now(), cancelAtPeriodEnd: cancel });
  return true;
}
