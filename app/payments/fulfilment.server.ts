/**
 * A paid checkout becomes an entitlement. The local test checkout, Stripe's
 * `checkout.session.completed` webhook and /payment-success's direct check with Stripe all
 * call `fulfilCheckout`, so a test payment grants exactly what a real one would.
 *
 * Each purchase is its own entitlement (applyEntitlementChange in app/billing): buying a
 * second product adds one, never replaces the first. What happens to a purchase afterwards
 * (renewals, cancellation, a plan switch) comes from Stripe's events or the billing portal.
 */
import { noteLeadPurchase } from "~/recovery/leads.server";
import crypto from "node:crypto";
import { recordPurchase } from "~/analytics/conversions.server";
import { recordEventWithin } from "~/analytics/events.server";
import { purchaseEvent } from "~/analytics/pixel";
import { accountForPurchase } from "~/auth/users.server";
import { applyEntitlementChange } from "~/billing/entitlements.server";
import { getOfferById } from "~/content/content.server";
import { eventVariants } from "~/analytics/event-variants.server";
import { linkToAccount } from "~/experiments/assignment.server";
import { rememberAnswers } from "~/members/answers.server";
import { againIfCreatedMeanwhile, againWhenLocked, db } from "~/utils/db.server";
import { executeWithin, query, statement } from "~/utils/sql.server";
import { intervalOf, pricePlan, type Tier } from "~/billing/catalogue";
import { PAYMENT_SUCCESS_PATH } from "./checkout-steps";
import { oneTapBought } from "./one-tap-receipt.server";

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
  paymentIntentId?: string | null;
  /** Who started it, when the session row does not say (a Stripe session's metadata). */
  visitorId?: string | null;
};

export class FulfilmentError extends Error {}

/** The funnel answers a checkout carried (CheckoutSession.context), as an answer set. */
function checkoutAnswers(context: string | null | undefined) {
  try {
    const parsed = JSON.parse(context ?? "{}") as { funnel?: unknown; answers?: unknown; at?: unknown };
    if (typeof parsed.funnel !== "string" || typeof parsed.at !== "string" || !parsed.answers || typeof parsed.answers !== "object") return [];
    return [{ funnel: parsed.funnel, answers: parsed.answers as Record<string, string | string[]>, at: parsed.at }];
  } catch {
    return [];
  }
}

/** A write that changes nothing: holds the checkout session's row until the transaction ends. */
const holdCheckoutSession = statement((id: string) =>
  query
    .updateTable("CheckoutSession")
    .set((eb) => ({ status: eb.ref("status") }))
    .where("id", "=", id),
);

/**
 * A paid checkout: the buyer's account (created from the checkout e-mail if new), the
 * entitlement for what was bought, the session marked complete, the answers that led to the
 * purchase kept on the account, and one 'purchase' event. Safe to call more than once for the
 * same session (webhook re-delivery, the success page checking), at the same time too.
 *
 * All of it is one transaction: a server that dies part-way stores nothing of the purchase,
 * and the next call (the buyer submitting the checkout again, Stripe delivering again, the
 * success page asking Stripe) makes it whole, once. Stored in pieces, a death after the
 * session turned complete would lose the chosen plan, the answers and the event for good (the
 * next call finds the session complete), and one before it would keep an entitlement the
 * buyer's next checkout of the same product is refused for.
 */
export async function fulfilCheckout(input: CheckoutFulfilment): Promise<{ userId: string; purchased: boolean; entitlementId: string | null }> {
  // What was sold is what the session recorded when it was created (the price the page
  // showed then); a session we have no row for is priced from the catalogue. Read before the
  // transaction: none of these fields changes after the session is created.
  const session = await db.checkoutSession.findUnique({ where: { id: input.checkoutSessionId } });
  const offer = session?.routinePlanId ? null : await getOfferById(session?.offerId ?? input.offerId);
  const sold = session
    ? {
        offerId: session.offerId,
        planId: session.planId,
        tier: session.tier as Tier,
        name: session.planName,
        amountMinor: session.amountMinor,
        currency: session.currency,
        interval: intervalOf(session.tier as Tier),
      }
    : offer
      ? pricePlan(offer, input.planId)
      : null;
  const routinePlanId = session?.routinePlanId ?? offer?.routinePlan._ref;
  if (!sold || !routinePlanId) throw new FulfilmentError(`unknown offer/plan ${input.offerId}/${input.planId}`);
  const email = input.email.trim().toLowerCase();
  const buyingBrowser = session?.visitorId ?? input.visitorId ?? null;
  const variants = buyingBrowser ? await eventVariants(buyingBrowser) : null;

  // Two first completions for a new address on two instances both create its account: the
  // second's insert is refused, and it runs again and finds everything the first stored.
  // Workers sharing one SQLite file take turns at its write lock: a completion that waited too
  // long for it runs again instead of answering an error.
  const fulfilled = await againWhenLocked(() =>
    againIfCreatedMeanwhile(() =>
      db.$transaction(async (tx) => {
        // Holds the session's row until the end: another completion of it waits here, then finds
        // it complete. On SQLite this write takes the write lock before anything is read.
        await executeWithin(tx, holdCheckoutSession, input.checkoutSessionId);

        // A checkout's address is typed by the buyer: the plan goes to that account, created pending if new.
        const user = await accountForPurchase(email, tx);
        const { entitlementId } = await applyEntitlementChange(
          {
            userId: user.id,
            offerId: sold.offerId,
            routinePlanId,
            stripeCustomerId: input.customerId ?? null,
            stripeSubscriptionId: sold.interval ? (input.subscriptionId ?? null) : null,
            stripePaymentIntentId: sold.interval ? null : (input.paymentIntentId ?? null),
            stripeCheckoutSessionId: input.checkoutSessionId,
          },
          {
            at: input.at,
            reason: "purchase",
            tier: sold.tier,
            status: "active",
            planId: sold.planId,
            planName: sold.name,
            priceMinor: sold.amountMinor,
            currency: sold.currency,
            startedAt: input.at,
            // Stripe's subscription events carry the exact period; until one arrives (and for a
            // test payment, which has none) the period is one interval from the purchase.
            currentPeriodEnd: sold.interval ? addInterval(input.at, sold.interval) : null,
            cancelAtPeriodEnd: false,
          },
          // A purchase creates its entitlement; when Stripe's own events created it first they
          // know better (the exact period), so the purchase only links itself to it.
          { createOnly: true, within: tx },
        );

        // The session turns complete once; that transition records the purchase once.
        let purchased = true;
        if (session) {
          const { count } = await tx.checkoutSession.updateMany({
            where: { id: session.id, status: { not: "complete" } },
            data: { status: "complete", completedAt: input.at, email: user.email, userId: user.id },
          });
          purchased = count === 1;
        }
        const purchase = purchased
          ? {
              offer: sold.offerId,
              plan: sold.planId,
              tier: sold.tier,
              price: sold.amountMinor / 100,
              currency: sold.currency.toUpperCase(),
              checkoutSessionId: input.checkoutSessionId,
              // For ad-pixel de-duplication: the browser pixel and a server-side conversion share it.
              eventId: crypto.randomUUID(),
            }
          : null;
        if (purchase) {
          // The plan just bought is the one the member sees next.
          await tx.user.update({ where: { id: user.id }, data: { activePlanId: routinePlanId } });
          await rememberAnswers(user.id, checkoutAnswers(session?.context), { within: tx });
          await recordEventWithin(tx, { visitorId: buyingBrowser ?? "unknown", name: "purchase", userId: user.id, props: purchase }, variants);
        }
        return { userId: user.id, email: user.email, purchased, entitlementId, purchase };
      }),
    ),
  );

  // Meta's Purchase, when this checkout began in a browser that consented (ADR 32). After the
  // commit: it may start a network send, and a purchase rolled back must never be reported.
  if (fulfilled.purchase) {
    await recordPurchase({
      checkoutSessionId: input.checkoutSessionId,
      eventId: fulfilled.purchase.eventId,
      email: fulfilled.email,
      at: input.at,
      params: purchaseEvent(fulfilled.purchase).params,
      sourcePath: PAYMENT_SUCCESS_PATH,
    });
  }

  // A one-tap purchase after checkout: its event and receipt, once (ADR 45).
  if (fulfilled.purchase && session?.followsCheckoutId) {
    await oneTapBought({
      checkoutSessionId: session.id,
      followsCheckoutId: session.followsCheckoutId,
      visitorId: session.visitorId,
      userId: fulfilled.userId,
      email: fulfilled.email,
      offerId: sold.offerId,
      planId: sold.planId,
      planName: sold.name,
      routinePlanId,
      amountMinor: sold.amountMinor,
      currency: sold.currency,
      testPayment: session.provider === "local",
    });
  }

  // Recovery e-mails stop for the buyer's leads (ADR 44); after the commit, like the conversion.
  if (fulfilled.purchase) {
    await noteLeadPurchase({
      visitorId: buyingBrowser,
      email: fulfilled.email,
      at: input.at,
      price: fulfilled.purchase.price,
      currency: fulfilled.purchase.currency,
      userId: fulfilled.userId,
    });
  }

  // The buyer's experiment variants go with their account: the same prices on their other
  // devices. Outside the transaction: it never fails a purchase, and a link missed here is
  // made by the next page they open signed in.
  if (buyingBrowser) await linkToAccount(buyingBrowser, fulfilled.userId);
  return { userId: fulfilled.userId, purchased: fulfilled.purchased, entitlementId: fulfilled.entitlementId };
}
