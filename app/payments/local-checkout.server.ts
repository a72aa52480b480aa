/**
 * The local test checkout (no STRIPE_SECRET_KEY): a page standing in for Stripe Checkout.
 * Completing it runs the same fulfilment as a Stripe 'checkout.session.completed' webhook.
 * Only the browser that started a checkout can see or complete it.
 */
import { safeRedirect } from "~/auth/redirect";
import type { SessionUser } from "~/auth/users.server";
import { EmailAddress } from "~/auth/users.server";
import { entitlementsOf, ownedEntitlement } from "~/billing/entitlements.server";
import { now } from "~/utils/clock.server";
import { db } from "~/utils/db.server";
import { go, refusal, type Go, type Refusal } from "~/utils/outcome";
import { displayPrice, intervalOf, type Tier } from "~/billing/catalogue";
import { paymentSuccessPath } from "./checkout-steps";
import { fulfilCheckout } from "./fulfilment.server";
import type { TestCard } from "./one-tap";

const LOCAL_ID = /^cs_local_[A-Za-z0-9_-]{10,60}$/;

export type LocalCheckoutView = {
  id: string;
  planName: string;
  price: string;
  billing: string;
  cancelPath: string;
  /** The signed-in buyer's address (fixed), or null (the form asks for one). */
  fixedEmail: string | null;
  /** The buyer agreed to keep the card: the page lets them choose how the saved test card behaves. */
  savesCard: boolean;
  /** A one-tap purchase whose (test) bank asked for authentication: this page stands for it. */
  authenticating: boolean;
};

async function findOwn(id: string, visitorId: string) {
  if (!LOCAL_ID.test(id)) return null;
  const row = await db.checkoutSession.findUnique({ where: { id } });
  return row && row.provider === "local" && row.visitorId === visitorId ? row : null;
}

function billingText(tier: Tier): string {
  const interval = intervalOf(tier);
  return interval ? `Billed every ${interval}, renews automatically` : "One-time payment, lifetime access";
}

function paymentSuccess(id: string): Go {
  return go(paymentSuccessPath(id));
}

/** The order to show, or where to go when this checkout is already finished; null: not found. */
export async function openLocalCheckout(id: string, visitorId: string, user: SessionUser | null): Promise<LocalCheckoutView | Go | null> {
  const row = await findOwn(id, visitorId);
  if (!row) return null;
  if (row.status === "complete") return paymentSuccess(row.id);
  if (row.status === "canceled") return go(safeRedirect(row.cancelPath, "/"));
  return {
    id: row.id,
    planName: row.planName,
    price: displayPrice(row.amountMinor, row.currency),
    billing: billingText(row.tier as Tier),
    cancelPath: row.cancelPath,
    fixedEmail: user?.email ?? row.email ?? null,
    savesCard: row.saveCardAgreed,
    authenticating: row.followsCheckoutId !== null,
  };
}

/** Pays a checkout of this browser's (null: no such checkout here). */
export async function completeLocalCheckout(input: {
  id: string;
  visitorId: string;
  user: SessionUser | null;
  email?: string;
  /** How the saved test card answers a one-tap charge (only kept when the buyer agreed to save it). */
  testCard?: TestCard;
}): Promise<Go | Refusal | null> {
  const row = await findOwn(input.id, input.visitorId);
  if (!row) return null;
  if (row.status === "canceled") return go(safeRedirect(row.cancelPath, "/"));
  if (row.status !== "complete") {
    // Signed in (or signed in when the checkout began): the account's address, whatever the form says.
    const fixed = input.user?.email ?? row.email;
    const email = EmailAddress.safeParse(fixed ?? input.email ?? "");
    if (!email.success) return refusal(400, email.error.issues[0].message, { field: "email" });
    // Bought in another tab since this checkout began: one purchase per product.
    if (input.user && row.routinePlanId && ownedEntitlement(await entitlementsOf(input.user.id), row.routinePlanId)) {
      return refusal(409, "You already have this plan, so nothing was charged. Go to your plan from the home page.");
    }
    if (row.saveCardAgreed) await db.checkoutSession.update({ where: { id: row.id }, data: { testCard: input.testCard ?? "approves" } });
    await fulfilCheckout({ checkoutSessionId: row.id, email: email.data, offerId: row.offerId, planId: row.planId, at: now() });
  }
  return paymentSuccess(row.id);
}

/** Cancels a checkout of this browser's and goes back to its offer (null: no such checkout here). */
export async function cancelLocalCheckout(input: { id: string; visitorId: string }): Promise<Go | null> {
  const row = await findOwn(input.id, input.visitorId);
  if (!row) return null;
  if (row.status === "complete") return paymentSuccess(row.id);
  await db.checkoutSession.updateMany({ where: { id: row.id, status: "open" }, data: { status: "canceled" } });
  return go(safeRedirect(row.cancelPath, "/"));
}
