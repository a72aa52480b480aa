/**
 * Route guards, as loader redirects (the spec's route table, Access column).
 */
import { redirect } from "@remix-run/node";
import { currentSession } from "./session.server";
import type { SessionUser } from "./users.server";

export async function getUser(request: Request): Promise<SessionUser | null> {
  return (await currentSession(request))?.user ?? null;
}

function here(request: Request): string {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}`;
}

/** Signed-in users only; others go to `to` (default /login, remembering where they were). */
export async function requireUser(request: Request, to: "/login" | "/email-instructions" = "/login"): Promise<SessionUser> {
  const user = await getUser(request);
  if (user) return user;
  throw redirect(to === "/login" ? `/login?${new URLSearchParams({ redirectTo: here(request) })}` : to);
}

/** Admins only: signed-out visitors go to /login, other members to /home. */
export async function requireAdmin(request: Request): Promise<SessionUser> {
  const user = await requireUser(request);
  if (user.role !== "admin") throw redirect("/home");
  return user;
}

/** Pages for signed-out visitors (login): members go to /home. */
export async function requireAnonymous(request: Request): Promise<void> {
  if (await getUser(request)) throw redirect("/home");
}
