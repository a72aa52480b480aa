/**
 * What the sign-in forms do: send a link, sign in with a password or a code. Routes call
 * these and turn the outcome into a response.
 */
import { redirect } from "@remix-run/node";
import { toastHeader } from "~/utils/toast.server";
import { authenticator, authSessionStorage } from "./authenticator.server";
import { randomSecret, verifyPassword } from "./crypto.server";
import { claimCode, TOKEN_MESSAGES } from "./login-tokens.server";
import { guessLimits, retryAfterSeconds, retryAfterText, signInEmailLimits, tryAcquire } from "./rate-limit.server";
import { safeRedirect } from "./redirect";
import { createUserSession } from "./session.server";
import { EmailAddress, findUserByEmail, signInByEmail, toSessionUser } from "./users.server";

export type FormOutcome = { status: number; error: string; field?: string; headers?: HeadersInit };

export const MAGIC_LINK_SENT = { title: "Magic link sent!", description: "Check your email and click the link to access your skincare plan." } as const;

export function tooMany(retryAt: Date, what: string): FormOutcome {
  return {
    status: 429,
    error: `Too many ${what}. Please try again ${retryAfterText(retryAt)}.`,
    headers: { "Retry-After": String(retryAfterSeconds(retryAt)) },
  };
}

/** Signs the user in on this browser and goes on. */
export async function signedIn(userId: string, to: string, extraCookies: string[] = []): Promise<Response> {
  const headers = new Headers();
  headers.append("Set-Cookie", await createUserSession(userId));
  for (const cookie of extraCookies) headers.append("Set-Cookie", cookie);
  return redirect(to, { status: 303, headers });
}

/**
 * Sends a sign-in link (or, for a bot that filled the honeypot, pretends to). The
 * answer is the same whether or not the address has an account.
 */
export async function sendSignInLink(input: {
  request: Request;
  email: unknown;
  redirectTo: unknown;
  honeypot: unknown;
  clientIp: string;
}): Promise<Response | FormOutcome> {
  const email = EmailAddress.safeParse(typeof input.email === "string" ? input.email : "");
  if (!email.success) return { status: 400, field: "email", error: email.error.issues[0].message };
  const redirectTo = safeRedirect(input.redirectTo);

  if (input.honeypot) return checkEmailPage(input.request, email.data);

  const limit = await tryAcquire(signInEmailLimits(email.data, input.clientIp));
  if (!limit.ok) return tooMany(limit.retryAt, "sign-in e-mails");

  // remix-auth-email-link reads the address and extra fields from a form body.
  const body = new URLSearchParams({ email: email.data, secret: randomSecret(), redirectTo });
  const headers = new Headers({ "Content-Type": "application/x-www-form-urlencoded", Host: new URL(input.request.url).host });
  const cookie = input.request.headers.get("Cookie");
  if (cookie) headers.set("Cookie", cookie);
  try {
    await authenticator.authenticate("email-link", new Request(input.request.url, { method: "POST", headers, body }), {
      successRedirect: "/login/check-email",
    });
  } catch (thrown) {
    if (thrown instanceof Response) {
      // 303: the answer to a form POST is a GET of the next page.
      const headers = new Headers(thrown.headers);
      headers.append("Set-Cookie", await toastHeader(MAGIC_LINK_SENT));
      return redirect(thrown.headers.get("Location") ?? "/login/check-email", { status: 303, headers });
    }
    // The strategy's own message for a failed send is the catalogue's fallback text.
    const message = thrown instanceof Error && thrown.message ? thrown.message : "Failed to send magic link. Please try again.";
    return redirect(`/login?${new URLSearchParams({ redirectTo })}`, {
      status: 303,
      headers: { "Set-Cookie": await toastHeader({ title: "Error", description: message, variant: "destructive" }) },
    });
  }
  throw new Error("remix-auth did not redirect after sending a link");
}

/** The "Check Your Email!" page for an address, as after a real send. */
async function checkEmailPage(request: Request, email: string): Promise<Response> {
  const session = await authSessionStorage.getSession(request.headers.get("Cookie"));
  session.set("auth:email", email);
  const headers = new Headers();
  headers.append("Set-Cookie", await authSessionStorage.commitSession(session));
  headers.append("Set-Cookie", await toastHeader(MAGIC_LINK_SENT));
  return redirect("/login/check-email", { status: 303, headers });
}

/** The address a link was last sent to from this browser (for the code form). */
export async function pendingEmail(request: Request): Promise<string | null> {
  const session = await authSessionStorage.getSession(request.headers.get("Cookie"));
  const email = session.get("auth:email");
  return typeof email === "string" ? email : null;
}

const WRONG_PASSWORD = "That e-mail and password don't match. Try again, or send yourself a magic link.";

export async function signInWithPassword(input: { email: unknown; password: unknown; redirectTo: unknown; clientIp: string }): Promise<Response | FormOutcome> {
  const email = EmailAddress.safeParse(typeof input.email === "string" ? input.email : "");
  if (!email.success) return { status: 400, field: "email", error: email.error.issues[0].message };
  if (typeof input.password !== "string" || input.password.length === 0) return { status: 400, field: "password", error: "Please enter your password." };
  if (input.password.length > 200) return { status: 400, field: "password", error: WRONG_PASSWORD };

  const limit = await tryAcquire(guessLimits("password", email.data, input.clientIp));
  if (!limit.ok) return tooMany(limit.retryAt, "sign-in attempts");

  const user = await findUserByEmail(email.data);
  const ok = user?.passwordHash ? await verifyPassword(input.password, user.passwordHash) : false;
  if (!user || !ok) return { status: 400, error: WRONG_PASSWORD };
  // ADMIN_EMAILS applies at every sign-in, whatever the method.
  const account = await signInByEmail(toSessionUser(user).email);
  return signedIn(account.id, safeRedirect(input.redirectTo));
}

export async function signInWithCode(input: { request: Request; code: unknown; clientIp: string }): Promise<Response | FormOutcome> {
  const email = await pendingEmail(input.request);
  if (!email) return redirect("/login", 303);
  const code = typeof input.code === "string" ? input.code.trim() : "";
  if (!/^[A-Za-z0-9 -]{6,9}$/.test(code)) return { status: 400, field: "code", error: "Please enter the 6-character code from the e-mail." };

  const limit = await tryAcquire(guessLimits("code", email, input.clientIp));
  if (!limit.ok) return tooMany(limit.retryAt, "codes tried");

  const result = await claimCode(email, code);
  if (result.ok) {
    const user = await signInByEmail(result.email);
    return signedIn(user.id, safeRedirect(result.redirectTo));
  }
  if (result.state === "wrong-code") {
    return {
      status: 400,
      field: "code",
      error: result.attemptsLeft > 0 ? `That code doesn't match. ${result.attemptsLeft} ${result.attemptsLeft === 1 ? "try" : "tries"} left.` : "That code doesn't match, and this one can't be used any more. Send yourself a new link.",
    };
  }
  const message = TOKEN_MESSAGES[result.state === "valid" ? "used" : result.state];
  return { status: 410, error: `${message.title}. ${message.text}` };
}

