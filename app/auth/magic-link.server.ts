/**
 * Opening and using an e-mailed sign-in link. Opening only looks (so e-mail scanners
 * that follow links spend nothing); pressing 'Sign in as ...' spends it.
 */
import { env } from "~/utils/env.server";
import { authenticator, LinkError, readLinkToken } from "./authenticator.server";
import { inspectLink, type TokenState } from "./login-tokens.server";
import { safeRedirect } from "./redirect";
import { signedIn } from "./login.server";

export type LinkView = { state: TokenState; email?: string; token: string; id: string };

export async function openLink(url: URL): Promise<LinkView> {
  const token = url.searchParams.get("token") ?? "";
  const id = url.searchParams.get("id") ?? "";
  if (!token) return { state: "malformed", token, id };
  const { state, email } = await inspectLink(id);
  if (state !== "valid") return { state, email, token, id };
  // The token must be the one sent with this secret: a changed token cannot be used later.
  const sealed = await readLinkToken(token);
  if (!sealed || sealed.secret !== id || sealed.email !== email) return { state: "malformed", token, id };
  return { state, email, token, id };
}

/** HTTP status for a link that cannot be used: gone when it once worked, bad otherwise. */
export function statusFor(state: TokenState): number {
  return state === "malformed" ? 400 : state === "valid" ? 200 : 410;
}

export async function spendLink(request: Request, token: string, id: string): Promise<Response | LinkView> {
  const view: LinkView = { ...(await inspectLink(id)), token, id };
  if (view.state !== "valid" || !token) return { ...view, state: token ? view.state : "malformed" };

  // remix-auth-email-link checks its encrypted token (and its age) on a GET of the link.
  const link = new URL("/magic", env.publicUrl);
  link.searchParams.set("token", token);
  const headers = new Headers();
  const cookie = request.headers.get("Cookie");
  if (cookie) headers.set("Cookie", cookie);
  try {
    const { user, redirectTo } = await authenticator.authenticate("email-link", new Request(link, { headers }));
    return signedIn(user.id, safeRedirect(redirectTo));
  } catch (error) {
    if (error instanceof Response) throw error;
    if (error instanceof LinkError) return { ...view, state: error.state };
    const expired = error instanceof Error && /expired/i.test(error.message);
    return { ...view, state: expired ? "expired" : "malformed" };
  }
}
