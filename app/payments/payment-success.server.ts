/**
 * /payment-success?session_id=...: verify the checkout belongs to this browser and is paid,
 * then (once) welcome the buyer: e-mail a sign-in link, and let this browser use what it
 * just bought when that is safe.
 *
 * A session id is not a secret to rely on (it sits in a URL), so it only works in the browser
 * whose visitor id started the checkout, or in one a checkout reminder sent on to reopen it
 * (read on another device: its signed cookie, and Stripe's word that the session came from that
 * checkout's recovery link). Anyone else learns nothing: the same answer as an id that does not exist.
 *
 * A checkout's e-mail is typed by the buyer and proves nothing about who owns it
 * (account-state.ts decides): an address not yet verified gets this browser a purchase
 * session (this routine, nothing else) that ends when the address is first verified; an
 * address already verified is never signed in by a checkout, and the buyer is asked to sign
 * in with the e-mailed link or its code.
 */
import { accountState, checkoutWelcome, type SessionKind } from "~/auth/account-state";
import { CHECK_EMAIL_PATH, sendSignInLink } from "~/auth/login.server";
import { go, isGo, type Go } from "~/utils/outcome";
import { startSession } from "~/auth/session.server";
import { now } from "~/utils/clock.server";
import { getPlan } from "~/content/content.server";
import { db } from "~/utils/db.server";
import { toastHeader } from "~/utils/toast.server";
import type { Tier } from "~/billing/catalogue";
import { paymentSuccessPath } from "./checkout-steps";
import { adoptRecoveredCheckout } from "./checkout.server";
import { fulfilCheckout } from "./fulfilment.server";
import { oneTapOfferAfter, type OneTapView } from "./one-tap.server";
import { EMAIL_ERROR, MAGIC_LINK_SENT } from "./messages";
import { stripeClient } from "./stripe.server";
import { logger } from "~/utils/logger.server";
import { reopenedCheckout } from "~/recovery/links.server";

export type PaymentState =
  | { state: "no-session" }
  | { state: "unverified" }
  | { state: "pending" }
  | { state: "canceled"; offerPath: string }
  | {
      state: "paid";
      tier: Tier;
      email: string | null;
      emailStatus: "sent" | "failed" | null;
      access: PaidAccess;
      routinePlan: string | null;
      /** The one-tap offer after this purchase (ADR 45), or null. */
      oneTap: OneTapView | null;
    };

/** What this browser can do with the purchase now: everything, this routine, or sign in first. */
export type PaidAccess = "signed-in" | "purchase" | "sign-in-by-link";

const SESSION_ID = /^cs_[A-Za-z0-9_-]{8,255}$/;

/** Asks Stripe whether an open session has been paid, fulfilling it if so (webhooks may lag). */
async function confirmWithStripe(sessionId: string): Promise<void> {
  const stripe = stripeClient();
  if (!stripe) return;
  const session = await stripe.checkout.sessions.retrieve(sessionId);
  if (session.status === "expired") {
    // Abandoned: Stripe will never complete it, so stop waiting.
    await db.checkoutSession.updateMany({ where: { id: sessionId, status: "open" }, data: { status: "canceled" } });
    return;
  }
  const paid = session.status === "complete" && (session.payment_status === "paid" || session.payment_status === "no_payment_required");
  const email = session.customer_details?.email ?? session.customer_email;
  if (!paid || !email) return;
  await fulfilCheckout({
    checkoutSessionId: session.id,
    email,
    offerId: session.metadata?.offerId ?? "",
    planId: session.metadata?.planId ?? "",
    // Dated at the session's creation: Stripe's own events about this purchase are newer and win.
    at: new Date(session.created * 1000),
    customerId: typeof session.customer === "string" ? session.customer : (session.customer?.id ?? null),
    subscriptionId: typeof session.subscription === "string" ? session.subscription : (session.subscription?.id ?? null),
    paymentIntentId: typeof session.payment_intent === "string" ? session.payment_intent : (session.payment_intent?.id ?? null),
  });
}

/**
 * A Stripe session we have no row for, in a browser whose Stripe checkout expired with a
 * recovery link, or that a checkout reminder sent on to reopen one (`reopened`, ADR 44): when
 * Stripe says it was opened from such a link, it is recorded as the expired checkout's copy
 * (adoptRecoveredCheckout). Stripe is asked only for such a browser.
 */
async function recoveredHere(sessionId: string, visitorId: string, reopened: string | null) {
  const stripe = stripeClient();
  if (!stripe) return null;
  const expired = await db.checkoutSession.findFirst({
    where: { provider: "stripe", recoveryUrl: { not: null }, OR: [{ visitorId }, ...(reopened ? [{ id: reopened }] : [])] },
    select: { id: true },
  });
  if (!expired) return null;
  try {
    const session = await stripe.checkout.sessions.retrieve(sessionId);
    if (!session.recovered_from || !(await adoptRecoveredCheckout(session.id, session.recovered_from))) return null;
  } catch (error) {
    logger.warn({ err: error }, `[payment-success] could not look ${sessionId} up at Stripe`);
    return null;
  }
  return db.checkoutSession.findUnique({ where: { id: sessionId } });
}

/**
 * Whether this browser, sent on by a checkout reminder to reopen expired checkout `reopened`,
 * paid checkout `sessionId` from it: the buyer read the e-mail on another device (ADR 44).
 */
async function reopenedHere(sessionId: string, reopened: string | null): Promise<boolean> {
  const stripe = stripeClient();
  if (!stripe || !reopened) return false;
  try {
    return (await stripe.checkout.sessions.retrieve(sessionId)).recovered_from === reopened;
  } catch (error) {
    logger.warn({ err: error }, `[payment-success] could not look ${sessionId} up at Stripe`);
    return false;
  }
}

/**
 * Sends the sign-in e-mail through the login flow's own sender (same template, limits).
 * Returns the cookie that lets this browser type the e-mail's code (/login/check-email).
 */
async function emailSignInLink(cookieHeader: string | null, email: string, clientIp: string): Promise<{ sent: boolean; cookies: string[] }> {
  try {
    const outcome = await sendSignInLink({ cookieHeader, email, redirectTo: "/home", honeypotFilled: false, clientIp });
    const sent = isGo(outcome) && outcome.go === CHECK_EMAIL_PATH;
    return { sent, cookies: sent ? outcome.cookies.filter((cookie) => cookie.startsWith("gc_auth=")) : [] };
  } catch (error) {
    logger.error({ err: error }, `[payment-success] could not send the sign-in e-mail to ${email}`);
    return { sent: false, cookies: [] };
  }
}

/** What /payment-success knows of the browser asking: the route reads it from the request. */
export type PaymentSuccessInput = {
  /** The address's session_id (the checkout), null when there is none. */
  checkoutSessionId: string | null;
  visitorId: string;
  clientIp: string;
  cookieHeader: string | null;
  /** This browser's own session (either kind), null when it has none. */
  browserSession: { kind: SessionKind; userId: string } | null;
};

/**
 * What the page says about this browser's checkout; the first time a paid one is seen, the
 * welcome's cookies and the same page again (a `Go`), so a reload sends nothing twice.
 */
export async function checkPayment(input: PaymentSuccessInput): Promise<PaymentState | Go> {
  const sessionId = input.checkoutSessionId;
  if (!sessionId) return { state: "no-session" };
  if (!SESSION_ID.test(sessionId)) return { state: "unverified" };

  const reopened = await reopenedCheckout(input.cookieHeader);
  let row = (await db.checkoutSession.findUnique({ where: { id: sessionId } })) ?? (await recoveredHere(sessionId, input.visitorId, reopened));
  if (!row) return { state: "unverified" };
  const startedHere = row.visitorId === input.visitorId;
  if (!startedHere && !(await reopenedHere(row.id, reopened))) return { state: "unverified" };

  if (row.status !== "complete" && row.provider === "stripe") {
    try {
      await confirmWithStripe(row.id);
    } catch (error) {
      logger.error({ err: error }, `[payment-success] could not check ${row.id} with Stripe`);
      return { state: "unverified" };
    }
    row = await db.checkoutSession.findUnique({ where: { id: sessionId } });
    if (!row) return { state: "unverified" };
  }
  if (row.status === "canceled") return { state: "canceled", offerPath: row.cancelPath };
  if (row.status !== "complete" || !row.userId || !row.email) return { state: "pending" };

  const session = input.browserSession;

  // Once per checkout: e-mail a sign-in link, and give this browser what is safe to give.
  const { count } = await db.checkoutSession.updateMany({ where: { id: row.id, welcomedAt: null }, data: { welcomedAt: now() } });
  if (count === 1) {
    const account = await db.user.findUnique({ where: { id: row.userId }, select: { emailVerifiedAt: true } });
    const welcome = checkoutWelcome({
      account: accountState(account),
      browserSession: session,
      buyerId: row.userId,
    });
    const email = await emailSignInLink(input.cookieHeader, row.email, input.clientIp);
    await db.checkoutSession.update({
      where: { id: row.id },
      data: { emailStatus: email.sent ? "sent" : "failed", signedInHere: welcome !== "sign-in-by-link" },
    });
    const cookies = [await toastHeader(email.sent ? MAGIC_LINK_SENT : { ...EMAIL_ERROR, variant: "destructive" }), ...email.cookies];
    if (welcome === "purchase-session") cookies.push(await startSession(row.userId, "purchase", row.id));
    return go(paymentSuccessPath(row.id), cookies);
  }
  return {
    state: "paid",
    tier: row.tier as Tier,
    email: row.email,
    emailStatus: row.emailStatus === "sent" || row.emailStatus === "failed" ? row.emailStatus : null,
    access: session?.userId !== row.userId ? "sign-in-by-link" : session.kind === "full" ? "signed-in" : "purchase",
    // The routine plan this purchase unlocked, by name ("Your Crease-Free Makeup routine is now active").
    routinePlan: row.routinePlanId ? ((await getPlan(row.routinePlanId))?.name ?? null) : null,
    // Charged to the saved card from the browser that started the checkout only (buyOneTap).
    oneTap: startedHere ? await oneTapOfferAfter(row) : null,
  };
}
