/**
 * The reminder e-mail's two links, signed with a key derived from SESSION_SECRET for this
 * purpose only. Neither signs anybody in:
 *  - "open today's routine" names a plan; it leads to /plan/:id, where the normal sign-in rules apply;
 *  - "turn off reminders" names an account; it turns that account's reminder off without a
 *    sign-in (RFC 8058 one-click), and is useless for any other account.
 */
import crypto from "node:crypto";
import { env } from "~/utils/env.server";

function signature(purpose: "open" | "unsubscribe", value: string): string {
  const key = crypto.createHmac("sha256", env.sessionSecret).update("reminder-links").digest();
  return crypto.createHmac("sha256", key).update(`${purpose}:${value}`).digest("base64url");
}

function matches(purpose: "open" | "unsubscribe", value: string, given: string): boolean {
  const expected = Buffer.from(signature(purpose, value));
  const actual = Buffer.from(given);
  return actual.length === expected.length && crypto.timingSafeEqual(actual, expected);
}

export function routineLink(planId: string): string {
  return `${env.publicUrl}/reminders/open?${new URLSearchParams({ plan: planId, sig: signature("open", planId) })}`;
}

export function unsubscribeLink(userId: string): string {
  return `${env.publicUrl}/reminders/unsubscribe?${new URLSearchParams({ token: `${userId}.${signature("unsubscribe", userId)}` })}`;
}

/** The plan a routine link names, or null when the link was not made by us. */
export function planFromRoutineLink(url: URL): string | null {
  const plan = url.searchParams.get("plan");
  const sig = url.searchParams.get("sig");
  if (!plan || !sig || plan.length > 200) return null;
  return matches("open", plan, sig) ? plan : null;
}

/** The account an unsubscribe token names, or null when it was not made by us. */
export function userFromUnsubscribeToken(token: string | null): string | null {
  if (!token || token.length > 300) return null;
  const dot = token.lastIndexOf(".");
  if (dot <= 0) return null;
  const userId = token.slice(0, dot);
  return matches("unsubscribe", userId, token.slice(dot + 1)) ? userId : null;
}
