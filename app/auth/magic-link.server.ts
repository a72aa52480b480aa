/**
 * Opening and using an e-mailed sign-in link. Opening only looks (so e-mail scanners
 * that follow links spend nothing); pressing 'Sign in as ...' spends it.
 */
import { env } from "~/utils/env.server";
import type { Go } from "~/utils/outcome";
import { authenticator, LinkError, readLinkToken } from "./authenticator.server";
import { inspectLink, type LinkPurpose, type TokenState } from "./login-tokens.server";
import { signedInWithEmail } from "./login.server";
import { accountState } from "./account-state";
import { findUserByEmail } from "./users.server";

/** `returning`: the address was proven before (a sign-in, not a first visit), for the greeting. */
export type LinkView = { state: TokenState; email?: string; purpose?: LinkPurpose; returning?: boolean; token: string; id: string };

/**
 * A link is its `token` (sealed by remix-auth-email-link: the address and the secret) and
 * its `id` (the secret itself, whose hash is the LoginToken row). Both must come from the
 * same e-mail: a token from one link with the id of another is not a link.
 */
async function checkLink(token: string, id: string): Promise<LinkView> {
  if (!token || !id) return { state: "malformed", token, id };
  const row = await inspectLink(id);
  if (row.state !== "valid") return { ...row, token, id };
  const sealed = await readLinkToken(token);
  if (!sealed || sealed.secret !== id || sealed.email !== row.email) return { state: "malformed", token, id };
  return { ...row, token, id };
}

/** What opening a link shows, from the link's `token` and `id` query parameters. */
export async function openLink(link: { token: string | null; id: string | null }): Promise<LinkView> {
  const view = await checkLink(link.token ?? "", link.id ?? "");
  if (view.state !== "valid" || !view.email) return view;
  // A buyer or a new address opening their first link has never signed in: not "welcome back".
  return { ...view, returning: accountState(await findUserByEmail(view.email)) === "verified" };
}

/** HTTP status for a link that cannot be used: gone when it once worked, bad otherwise. */
export function statusFor(state: TokenState): number {
  return state === "malformed" ? 400 : state === "valid" ? 200 : 410;
}

/**
 * Signs in with the link (`Go`), or says why it cannot be used. `cookieHeader` is this
 * browser's Cookie header: a registration's password counts only in the browser that signed up.
 */
export async function spendLink(input: { token: string; id: string; cookieHeader: string | null }): Promise<Go | LinkView> {
  const { token, id, cookieHeader } = input;
  const view = await checkLink(token, id);
  if (view.state !== "valid") return view;

  // remix-auth-email-link checks its encrypted token (and its age) on a GET of the link; it
  // only takes a Request, so one is built from the token and this browser's cookies.
  const link = new URL("/magic", env.publicUrl);
  link.searchParams.set("token", token);
  const headers = new Headers();
  if (cookieHeader) headers.set("Cookie", cookieHeader);
  try {
    const proven = await authenticator.authenticate("email-link", new Request(link, { headers }));
    return signedInWithEmail(cookieHeader, proven, "email-link");
  } catch (error) {
    if (error instanceof Response) throw error;
    if (error instanceof LinkError) return { ...view, state: error.state };
    const expired = error instanceof Error && /expired/i.test(error.message);
    return { ...view, state: expired ? "expired" : "malformed" };
  }
}
