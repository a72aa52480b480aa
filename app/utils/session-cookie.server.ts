/**
 * The signed, HttpOnly gc_session cookie, and the session id it carries. Here, below auth/, so the
 * request gate (security/request-limits: one count per session) and the stored pages can read
 * the id without importing sign-in; the session rows are app/auth/session.server.ts.
 */
import { signedCookie } from "./cookies.server";

export const SESSION_DAYS = 30;

export const sessionCookie = signedCookie("gc_session", SESSION_DAYS * 24 * 60 * 60);

/** Cookie headers already read, with the session id each holds (a POST reads it twice: its limit, then its session). */
const sessionIds = new Map<string, string | null>();

/**
 * The session id in a Cookie header, when its cookie carries our signature (else null). The
 * answer depends on nothing but the header, so each header is checked once (the last 1,000).
 */
export async function sessionIdIn(cookieHeader: string | null | undefined): Promise<string | null> {
  if (!cookieHeader?.includes("gc_session=")) return null;
  const known = sessionIds.get(cookieHeader);
  if (known !== undefined) return known;
  const value = await sessionCookie.parse(cookieHeader).catch(() => null);
  const id = typeof value === "string" && value.length > 0 && value.length <= 100 ? value : null;
  if (sessionIds.size >= 1000) sessionIds.clear();
  sessionIds.set(cookieHeader, id);
  return id;
}
