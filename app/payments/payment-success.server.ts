/**
 * /payment-success?session_id=...: verify the checkout belongs to this browser and is paid,
 * then (once) sign the buyer in right here and e-mail a sign-in link for other devices.
 *
 * A session id is not a secret to rely on (it sits in a URL), so it only works in the browser
 * whose visitor id started the checkout. Anyone else learns nothing: the same answer as an
 * id that does not exist.
 *
 * A checkout's e-mail is typed by the buyer and proves nothing about who owns it. So this
 * browser is signed in only to an account it already had (signed in when the checkout began,
 * or now) or one this checkout created and nobody has used yet. Paying with the address of an
 * existing account gets that account the plan, and its owner the sign-in e-mail, never this
 * browser a session.
 */
import { redirect } from "@remix-run/node";
import { getUser } from "~/auth/guards.server";
import { sendSignInLink, signedIn } from "~/auth/login.server";
import { now } from "~/utils/clock.server";
import { getPlan } from "~/content/content.server";
import { db } from "~/utils/db.server";
import { toastHeader } from "~/utils/toast.server";
import type { Tier } from "./catalogue";
import { fulfilCheckout } from "./fulfilment.server";
import { EMAIL_ERROR, MAGIC_LINK_SENT } from "./messages";
import { stripeClient } from "./stripe.server";


export type PaymentState =
  | { state: "no-session" }
  | { state: "unverified" }
  | { state: "pending" }
  | { state: "canceled"; offerPath: string }
  | { state: "paid"; tier: Tier; email: string | null; emailStatus: "sent" | "failed" | null; signedInHere: boolean; routinePlan: string | null };

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

/** Sends the sign-in e-mail through the login flow's own sender (same template, limits). */
async function emailSignInLink(request: Request, email: string, clientIp: string): Promise<boolean> {
  try {
    const outcome = await sendSignInLink({ request, email, redirectTo: "/home", honeypot: "", clientIp });
    return outcome instanceof Response && (outcome.headers.get("Location") ?? "").startsWith("/login/check-email");
  } catch (error) {
    console.error(`[payment-success] could not send the sign-in e-mail to ${email}`, error);
    return false;
  }
}

export async function checkPayment(input: { request: Request; visitorId: string; clientIp: string }): Promise<PaymentState | Response> {
  const url = new URL(input.request.url);
  const sessionId = url.searchParams.get("session_id");
  if (!sessionId) return { state: "no-session" };
  if (!SESSION_ID.test(sessionId)) return { state: "unverified" };

  let row = await db.checkoutSession.findUnique({ where: { id: sessionId } });
  if (!row || row.visitorId !== input.visitorId) return { state: "unverified" };

  if (row.status !== "complete" && row.provider === "stripe") {
    try {
      await confirmWithStripe(row.id);
    } catch (error) {
      console.error(`[payment-success] could not check ${row.id} with Stripe`, error);
      return { state: "unverified" };
    }
    row = await db.checkoutSession.findUnique({ where: { id: sessionId } });
    if (!row) return { state: "unverified" };
  }
  if (row.status === "canceled") return { state: "canceled", offerPath: row.cancelPath };
  if (row.status !== "complete" || !row.userId || !row.email) return { state: "pending" };

  // Once per checkout: e-mail a link for other devices, and sign in here when that is safe.
  const { count } = await db.checkoutSession.updateMany({ where: { id: row.id, welcomedAt: null }, data: { welcomedAt: now() } });
  if (count === 1) {
    const here = await maySignInHere(input.request, row);
    const sent = await emailSignInLink(input.request, row.email, input.clientIp);
    await db.checkoutSession.update({ where: { id: row.id }, data: { emailStatus: sent ? "sent" : "failed", signedInHere: here } });
    const toast = await toastHeader(sent ? MAGIC_LINK_SENT : { ...EMAIL_ERROR, variant: "destructive" });
    const to = `/payment-success?session_id=${encodeURIComponent(row.id)}`;
    return here ? signedIn(row.userId, to, [toast]) : redirect(to, { status: 303, headers: { "Set-Cookie": toast } });
  }
  return {
    state: "paid",
    tier: row.tier as Tier,
    email: row.email,
    emailStatus: row.emailStatus === "sent" || row.emailStatus === "failed" ? row.emailStatus : null,
    signedInHere: row.signedInHere,
    // The routine plan this purchase unlocked, by name ("Your Crease-Free Makeup routine is now active").
    routinePlan: row.routinePlanId ? ((await getPlan(row.routinePlanId))?.name ?? null) : null,
  };
}

/** Whether the browser that paid may be signed in to the buyer's account without the e-mailed link. */
async function maySignInHere(request: Request, row: { userId: string | null; startedByUserId: string | null; createdAt: Date }): Promise<boolean> {
  if (!row.userId) return false;
  if (row.startedByUserId === row.userId) return true;
  if ((await getUser(request))?.id === row.userId) return true;
  const account = await db.user.findUnique({ where: { id: row.userId }, include: { _count: { select: { sessions: true } } } });
  // Created by this checkout (after it began) and never signed in to, by any method.
  return !!account && account.createdAt >= row.createdAt && account._count.sessions === 0 && !account.passwordHash && !account.googleId;
}
