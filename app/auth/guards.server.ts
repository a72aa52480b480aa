/**
 * Route guards, as loader redirects (who may open which page: docs/decisions/0005-accounts.md), applying the
 * session rules of account-state.ts: a full session opens what its role allows, a purchase
 * session only home and the routine it paid for.
 */
import { redirect } from "@remix-run/node";
import { mayOpen, type Area } from "./account-state";
import { currentSession, type CurrentSession } from "./session.server";
import type { SessionUser } from "./users.server";

/** The member signed in with a full session (a verified account), or null. */
export async function getUser(request: Request): Promise<SessionUser | null> {
  const session = await currentSession(request);
  return session?.kind === "full" ? session.user : null;
}

/** This browser's session of either kind: full, or a purchase session for a pending account. */
export function getSession(request: Request): Promise<CurrentSession | null> {
  return currentSession(request);
}

function here(request: Request): string {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}`;
}

function toLogin(request: Request): Response {
  return redirect(`/login?${new URLSearchParams({ redirectTo: here(request) })}`);
}

/**
 * A full session only; others go to `to` (default /login, remembering where they were). A
 * purchase session is sent the same way: signing in by link verifies the address.
 */
export async function requireUser(request: Request, to: "/login" | "/email-instructions" = "/login"): Promise<SessionUser> {
  const user = await getUser(request);
  if (user) return user;
  throw to === "/login" ? toLogin(request) : redirect(to);
}

/**
 * A session that may open `area` (for the routine: `planPaidFor` says whether a purchase
 * session paid for this plan). Anyone else goes to /login.
 */
export async function requireAccess(
  request: Request,
  area: Area,
  planPaidFor: (checkoutSessionId: string) => Promise<boolean> = async () => false,
): Promise<CurrentSession> {
  const session = await currentSession(request);
  if (session) {
    const paid = session.kind === "purchase" && session.checkoutSessionId !== null && (await planPaidFor(session.checkoutSessionId));
    if (mayOpen({ kind: session.kind, role: session.user.role }, area, paid)) return session;
  }
  throw toLogin(request);
}

/** Admins only: signed-out visitors go to /login, other members to /home. */
export async function requireAdmin(request: Request): Promise<SessionUser> {
  const user = await requireUser(request);
  if (!mayOpen({ kind: "full", role: user.role }, "admin")) throw redirect("/home");
  return user;
}

/**
 * Pages for signing in (login, registration, check your e-mail): members with a full session
 * go to /home. A purchase session stays: signing in is how it becomes a full one.
 */
export async function requireAnonymous(request: Request): Promise<void> {
  if (await getUser(request)) throw redirect("/home");
}
