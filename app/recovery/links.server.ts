/**
 * A recovery e-mail's links, HMAC-signed with a key derived from SESSION_SECRET for this purpose
 * only. None signs anybody in:
 *  - "see my plan" (the offer page's address with the signed lead) names a lead and the e-mail it came in; it restores that lead's answers in the
 *    browser that follows it and lands on the offer (a link forwarded to someone shows them the
 *    plan for those answers, nothing about the account or the address);
 *  - "unsubscribe" names a lead; it stops the recovery e-mails to its address (RFC 8058 one-click,
 *    on /reminders/unsubscribe, the page every e-mail of ours unsubscribes on);
 *  - "open" (the e-mail's 1×1 image) names a lead and the e-mail: loading it counts that e-mail opened.
 * The checkout reminder's "see my plan" is the same link (tag "checkout"): while Stripe's recovery
 * link for her expired checkout lasts, it goes on there, and the browser that followed it carries
 * a signed cookie naming that checkout (`reopenedCheckout`), so the payment success page knows
 * it as the buyer's browser whichever device the e-mail was read on (ADR 44).
 */
import crypto from "node:crypto";
import { signedCookie } from "~/utils/cookies.server";
import { env } from "~/utils/env.server";

type Purpose = "back" | "unsubscribe" | "open";

function signature(purpose: Purpose, value: string): string {
  const key = crypto.createHmac("sha256", env.sessionSecret).update("recovery-links").digest();
  return crypto.createHmac("sha256", key).update(`${purpose}:${value}`).digest("base64url");
}

function matches(purpose: Purpose, value: string, given: string | null): boolean {
  if (!given) return false;
  const expected = Buffer.from(signature(purpose, value));
  const actual = Buffer.from(given);
  return actual.length === expected.length && crypto.timingSafeEqual(actual, expected);
}

/** Which e-mail a link came in: number n of the sequence ("1", "2") or the checkout reminder ("checkout"). */
export type EmailTag = string;

const TAG = /^(?:[1-9]|checkout)$/;
const LEAD_ID = /^[A-Za-z0-9-]{10,64}$/;

/**
 * The offer page itself, with the signed lead: its loader restores the answers and redirects to
 * the plain address (no route of its own, so the client manifest every quiz step loads stays small).
 */
export function backLink(leadId: string, tag: EmailTag, offerPath: string): string {
  return `${env.publicUrl}${offerPath}?${new URLSearchParams({ lead: leadId, e: tag, sig: signature("back", `${leadId}.${tag}`) })}`;
}

/** Where the e-mail's open-counting image is served (before Remix: app/recovery/opens.server.ts). */
export const OPEN_IMAGE_PATH = "/recovery/open.gif";

/** The e-mail's 1×1 image: loading it counts e-mail `tag` of the lead opened. */
export function openImageLink(leadId: string, tag: EmailTag): string {
  return `${env.publicUrl}${OPEN_IMAGE_PATH}?${new URLSearchParams({ lead: leadId, e: tag, sig: signature("open", `${leadId}.${tag}`) })}`;
}

export function recoveryUnsubscribeLink(leadId: string): string {
  // The site's one unsubscribe page, which tells a lead's token from a reminder's by its signature.
  return `${env.publicUrl}/reminders/unsubscribe?${new URLSearchParams({ token: `${leadId}.${signature("unsubscribe", leadId)}` })}`;
}

function signedLeadAndTag(purpose: "back" | "open", url: URL): { leadId: string; tag: EmailTag } | null {
  const leadId = url.searchParams.get("lead") ?? "";
  const tag = url.searchParams.get("e") ?? "";
  if (!LEAD_ID.test(leadId) || !TAG.test(tag)) return null;
  return matches(purpose, `${leadId}.${tag}`, url.searchParams.get("sig")) ? { leadId, tag } : null;
}

/** The lead and e-mail a signed "see my plan" link names, or null when the link was not made by us. */
export function fromSignedLink(url: URL): { leadId: string; tag: EmailTag } | null {
  return signedLeadAndTag("back", url);
}

/** The lead and e-mail an open image's address names, or null when it was not made by us. */
export function fromOpenImageLink(url: URL): { leadId: string; tag: EmailTag } | null {
  return signedLeadAndTag("open", url);
}

/** The lead an unsubscribe token names, or null when it was not made by us. */
export function leadFromUnsubscribeToken(token: string | null): string | null {
  if (!token || token.length > 200) return null;
  const dot = token.lastIndexOf(".");
  if (dot <= 0) return null;
  const leadId = token.slice(0, dot);
  return LEAD_ID.test(leadId) && matches("unsubscribe", leadId, token.slice(dot + 1)) ? leadId : null;
}

/** Stripe keeps a recovery link for at most 30 days. */
const reopenedCookie = signedCookie("gc_reopened", 30 * 24 * 60 * 60);
const CHECKOUT_ID = /^cs_[A-Za-z0-9_-]{8,255}$/;

/** The Set-Cookie of a browser sent on to reopen expired Stripe checkout `checkoutId`. */
export function markReopened(checkoutId: string): Promise<string> {
  return reopenedCookie.serialize(checkoutId);
}

/** The expired Stripe checkout this browser was sent on to reopen by a checkout reminder, or null. */
export async function reopenedCheckout(cookieHeader: string | null): Promise<string | null> {
  const value: unknown = await reopenedCookie.parse(cookieHeader).catch(() => null);
  return typeof value === "string" && CHECKOUT_ID.test(value) ? value : null;
}
