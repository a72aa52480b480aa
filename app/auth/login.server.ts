/**
 * What the sign-in forms do: send a link, sign in with a password or a code. They take
 * validated input and answer where to go next (`Go`, with the cookies to set) or why not
 * (`Refusal`); routes turn those into responses. Of the request they need only its Cookie
 * header (`cookieHeader`: this browser's gc_auth and visitor cookies). Every successful
 * sign-in finishes in completeSignIn() (sign-in.server.ts).
 */
import { visitorIdOf } from "~/analytics/visitor.server";
import { env } from "~/utils/env.server";
import { go, refusal, type Go, type Refusal } from "~/utils/outcome";
import { toastHeader, type Toast } from "~/utils/toast.server";
import { passwordUsable } from "./account-state";
import { authenticator, authSessionStorage, whileSending } from "./authenticator.server";
import { hashPassword, randomSecret, sha256, verifyPassword } from "./crypto.server";
import { claimCode, TOKEN_MESSAGES, type PendingRegistration } from "./login-tokens.server";
import { codeGuessLimits, passwordGuessLimits, retryAfterText, signInEmailLimits, tryAcquire } from "./rate-limit.server";
import { safeRedirect } from "./redirect";
import { completeSignIn, type SignInIdentity } from "./sign-in.server";
import { findUserByEmail } from "./users.server";

export const MAGIC_LINK_SENT = { title: "Magic link sent!", description: "Check your email and click the link to access your skincare plan." } as const;
export const CONFIRMATION_SENT = { title: "Check your e-mail", description: "Open the link we sent you to finish creating your account." } as const;

export function tooMany(retryAt: Date, what: string): Refusal {
  return refusal(429, `Too many ${what}. Please try again ${retryAfterText(retryAt)}.`, { retryAt });
}

/** Finishes a proven sign-in on this browser (a fresh full session) and goes on. */
export async function signedIn(identity: SignInIdentity, to: string, extraCookies: string[] = []): Promise<Go> {
  const { sessionCookie } = await completeSignIn(identity);
  return go(to, [sessionCookie, ...extraCookies]);
}

/** Why the 'Check Your Email!' page is shown: after a sign-in link, or after signing up. */
export type CheckEmailPurpose = "sign-in" | "registration";

/** What this browser remembers about the e-mail it just asked for (in the signed gc_auth cookie). */
const AUTH_EMAIL = "auth:email";
const AUTH_PURPOSE = "auth:purpose";
/** The secret whose hash a registration's link carries: proof that this browser signed up. */
const AUTH_REGISTRATION = "auth:registration";

/**
 * Sets this browser's pending e-mail (the code form reads it) and purpose, keeping what the
 * e-mail link strategy stored. `cookies` are the Set-Cookie values the strategy answered with.
 */
async function rememberPendingEmail(
  cookieHeader: string | null,
  cookies: string[],
  email: string,
  purpose: CheckEmailPurpose,
  registrationSecret: string | null,
): Promise<string[]> {
  const own = cookies.find((cookie) => cookie.startsWith("gc_auth="));
  const session = await authSessionStorage.getSession(own ? own.split(";")[0] : cookieHeader);
  session.set(AUTH_EMAIL, email);
  session.set(AUTH_PURPOSE, purpose);
  if (registrationSecret) session.set(AUTH_REGISTRATION, registrationSecret);
  else session.unset(AUTH_REGISTRATION);
  return [...cookies.filter((cookie) => cookie !== own), await authSessionStorage.commitSession(session)];
}

export const CHECK_EMAIL_PATH = "/login/check-email";

/** The 'Check Your Email!' page, with the pending e-mail remembered and a toast. */
async function checkEmailAnswer(
  cookieHeader: string | null,
  input: { cookies?: string[]; email: string; purpose: CheckEmailPurpose; registrationSecret: string | null; toast: Toast },
): Promise<Go> {
  const remembered = await rememberPendingEmail(cookieHeader, input.cookies ?? [], input.email, input.purpose, input.registrationSecret);
  return go(CHECK_EMAIL_PATH, [...remembered, await toastHeader(input.toast)]);
}

type LinkEmail = {
  cookieHeader: string | null;
  email: string;
  redirectTo: string;
  kind: "sign-in" | "confirm-registration" | "account-exists";
  registration?: PendingRegistration;
};

/**
 * Sends a link and code through remix-auth-email-link. Resolves to the strategy's cookies, or
 * throws an Error whose message is the catalogue's text for a failed send.
 */
async function sendLinkEmail(input: LinkEmail): Promise<string[]> {
  const secret = randomSecret();
  // remix-auth only takes a Request: it reads the address and extra fields from a form body,
  // this browser's gc_auth from Cookie, and the link's host from Host. The link in the e-mail
  // is rebuilt on PUBLIC_URL anyway (publicMagicLink), so the request is built on it too.
  const body = new URLSearchParams({ email: input.email, secret, redirectTo: input.redirectTo, kind: input.kind });
  const url = new URL("/login", env.publicUrl);
  const headers = new Headers({ "Content-Type": "application/x-www-form-urlencoded", Host: url.host });
  if (input.cookieHeader) headers.set("Cookie", input.cookieHeader);
  try {
    await whileSending(secret, input.registration, () =>
      authenticator.authenticate("email-link", new Request(url, { method: "POST", headers, body }), { successRedirect: CHECK_EMAIL_PATH }),
    );
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.headers.getSetCookie();
    throw thrown instanceof Error && thrown.message ? thrown : new Error("Failed to send magic link. Please try again.");
  }
  throw new Error("remix-auth did not redirect after sending a link");
}

/** A failed send: back to /login with the catalogue's error toast. */
async function sendFailed(error: unknown, redirectTo: string): Promise<Go> {
  const message = error instanceof Error && error.message ? error.message : "Failed to send magic link. Please try again.";
  return go(`/login?${new URLSearchParams({ redirectTo })}`, [await toastHeader({ title: "Error", description: message, variant: "destructive" })]);
}

/**
 * Sends a sign-in link to a valid address (or, for a bot that filled the honeypot, pretends
 * to). The answer is the same whether or not the address has an account.
 */
export async function sendSignInLink(input: {
  cookieHeader: string | null;
  email: string;
  redirectTo: unknown;
  honeypotFilled: boolean;
  clientIp: string;
}): Promise<Go | Refusal> {
  const redirectTo = safeRedirect(input.redirectTo);
  const answer = { email: input.email, purpose: "sign-in" as const, registrationSecret: null, toast: MAGIC_LINK_SENT };

  if (input.honeypotFilled) return checkEmailAnswer(input.cookieHeader, answer);

  const limit = await tryAcquire(signInEmailLimits(input.email, input.clientIp));
  if (!limit.ok) return tooMany(limit.retryAt, "sign-in e-mails");
  try {
    const cookies = await sendLinkEmail({ cookieHeader: input.cookieHeader, email: input.email, redirectTo, kind: "sign-in" });
    return checkEmailAnswer(input.cookieHeader, { ...answer, cookies });
  } catch (error) {
    return sendFailed(error, redirectTo);
  }
}

/**
 * A registration's confirmation e-mail, or, for an address that is already verified, a
 * note to its owner with a sign-in link. This browser gets the same answer either way.
 */
export async function sendRegistrationEmail(input: {
  cookieHeader: string | null;
  email: string;
  name: string;
  passwordHash: string;
  accountExists: boolean;
}): Promise<Go> {
  // Kept in this browser's cookie; the link carries only its hash.
  const registrationSecret = randomSecret();
  const answer = { email: input.email, purpose: "registration" as const, registrationSecret, toast: CONFIRMATION_SENT };
  try {
    const cookies = await sendLinkEmail(
      input.accountExists
        ? { cookieHeader: input.cookieHeader, email: input.email, redirectTo: "/home", kind: "account-exists" }
        : {
            cookieHeader: input.cookieHeader,
            email: input.email,
            redirectTo: "/home",
            kind: "confirm-registration",
            registration: { passwordHash: input.passwordHash, name: input.name, browserHash: sha256(registrationSecret) },
          },
    );
    return checkEmailAnswer(input.cookieHeader, { ...answer, cookies });
  } catch (error) {
    return sendFailed(error, "/home");
  }
}

/** The address a link was last sent to from this browser, and why (for the 'Check Your Email!' page). */
export async function pendingEmail(cookieHeader: string | null): Promise<{ email: string; purpose: CheckEmailPurpose } | null> {
  const session = await authSessionStorage.getSession(cookieHeader);
  const email = session.get(AUTH_EMAIL);
  if (typeof email !== "string") return null;
  return { email, purpose: session.get(AUTH_PURPOSE) === "registration" ? "registration" : "sign-in" };
}

/**
 * A registration's password and name, when the link or code confirming it is used in the
 * browser that registered (it holds the secret whose hash the link carries). From any other
 * browser the address is still verified, but nobody's typed password is adopted.
 */
export async function confirmedRegistration(
  cookieHeader: string | null,
  registration: PendingRegistration | null,
): Promise<{ passwordHash: string; name: string | null } | null> {
  if (!registration) return null;
  const session = await authSessionStorage.getSession(cookieHeader);
  const secret = session.get(AUTH_REGISTRATION);
  if (typeof secret !== "string" || sha256(secret) !== registration.browserHash) return null;
  return { passwordHash: registration.passwordHash, name: registration.name || null };
}

export const ACCOUNT_CREATED = { title: "Account created", description: "Your e-mail is confirmed and you're signed in." } as const;
export const PASSWORD_NOT_KEPT = {
  title: "E-mail confirmed",
  description:
    "You're signed in. Your password wasn't saved: it only counts when you confirm in the browser you signed up in. You can always sign in with an e-mailed link.",
} as const;

/**
 * Finishes sign-in with a used link or code: a registration's password and name count only
 * in the browser that registered, and the toast says which happened.
 */
export async function signedInWithEmail(
  cookieHeader: string | null,
  claim: { email: string; redirectTo: string | null; registration: PendingRegistration | null },
  proof: "email-link" | "email-code",
): Promise<Go> {
  const registration = await confirmedRegistration(cookieHeader, claim.registration);
  const toast = claim.registration ? [await toastHeader(registration ? ACCOUNT_CREATED : PASSWORD_NOT_KEPT)] : [];
  const visitorId = await visitorIdOf(cookieHeader);
  return signedIn({ email: claim.email, proof, confirmedRegistration: registration, visitorId }, safeRedirect(claim.redirectTo), toast);
}

const WRONG_PASSWORD = "That e-mail and password don't match. Try again, or send yourself a magic link.";

/** A hash to check against when there is no usable password, so every try costs the same scrypt. */
let decoy: Promise<string> | undefined;
function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomSecret());
  return decoy;
}

/** Signs in with a valid address and a typed password (at most 200 characters: longer is never right). */
export async function signInWithPassword(input: {
  email: string;
  password: string;
  redirectTo: unknown;
  clientIp: string;
  visitorId?: string;
}): Promise<Go | Refusal> {
  if (input.password.length > 200) return refusal(400, WRONG_PASSWORD, { field: "password" });

  const limit = await tryAcquire(passwordGuessLimits(input.email, input.clientIp));
  if (!limit.ok) return tooMany(limit.retryAt, "sign-in attempts");

  // The same work whether or not the address has an account, or a password: the answer's
  // timing tells nobody which.
  const user = await findUserByEmail(input.email);
  const usable = passwordUsable(user);
  const matches = await verifyPassword(input.password, usable ? user.passwordHash : await decoyHash());
  if (!usable || !matches) return refusal(400, WRONG_PASSWORD);
  return signedIn({ email: input.email, proof: "password", visitorId: input.visitorId }, safeRedirect(input.redirectTo));
}

/** Signs in with the code from the e-mail this browser last asked for (a well-formed code: see CODE_SHAPE). */
export async function signInWithCode(input: { cookieHeader: string | null; code: string; clientIp: string }): Promise<Go | Refusal> {
  const pending = await pendingEmail(input.cookieHeader);
  if (!pending) return go("/login");

  const limit = await tryAcquire(codeGuessLimits(pending.email, input.clientIp));
  if (!limit.ok) return tooMany(limit.retryAt, "codes tried");

  const result = await claimCode(pending.email, input.code);
  if (result.ok) return signedInWithEmail(input.cookieHeader, result, "email-code");
  if (result.state === "wrong-code") {
    const message =
      result.attemptsLeft > 0 ? `That code doesn't match. ${result.attemptsLeft} ${result.attemptsLeft === 1 ? "try" : "tries"} left.` : CODE_RETIRED;
    return refusal(400, message, { field: "code" });
  }
  if (result.state === "code-retired") return refusal(400, CODE_RETIRED, { field: "code" });
  const message = TOKEN_MESSAGES[result.state === "valid" ? "used" : result.state];
  return refusal(410, `${message.title}. ${message.text}`);
}

/** What a typed code may look like (six characters; spaces or dashes between groups are forgiven). */
export const CODE_SHAPE = /^[A-Za-z0-9 -]{6,9}$/;
export const CODE_FORMAT_MESSAGE = "Please enter the 6-character code from the e-mail.";

const CODE_RETIRED =
  "That code doesn't match, and after five wrong tries it can't be used any more. The link in the same e-mail still works, or send yourself a new one.";
