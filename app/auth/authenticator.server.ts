/**
 * remix-auth: the e-mail link strategy (and Google, when configured). remix-auth keeps
 * its short-lived state (the address a link was sent to, OAuth state) in the signed
 * gc_auth cookie; the signed-in session itself is a database row (session.server.ts).
 */
import { signedCookieOptions } from "~/utils/cookies.server";
import crypto from "node:crypto";
import { createCookieSessionStorage } from "@remix-run/node";
import { Authenticator } from "remix-auth";
import { EmailLinkStrategy } from "remix-auth-email-link";
import { sendEmail } from "~/email/mailer.server";
import { signInEmail, type LinkEmailKind } from "~/email/templates.server";
import { getSiteSettings } from "~/content/content.server";
import { env } from "~/utils/env.server";
import type { Proof } from "./account-state";
import { claimLink, issueLoginToken, LINK_MINUTES, type PendingRegistration, type TokenState } from "./login-tokens.server";
import { EmailAddress } from "./users.server";
import { logger } from "~/utils/logger.server";

/**
 * What a strategy proved: an address (and, for Google, the account's id there). The sign-in
 * itself is finished by sign-in.server.ts. A registration link also carries the sign-up it
 * confirms, applied only in the browser that registered.
 */
export type AuthResult = {
  email: string;
  proof: Proof;
  redirectTo: string | null;
  registration: PendingRegistration | null;
  googleId?: string;
  googleName?: string | null;
};

export const authSessionStorage = createCookieSessionStorage({
  cookie: { name: "gc_auth", ...signedCookieOptions(60 * 60) },
});

export const authenticator = new Authenticator<AuthResult>(authSessionStorage, { sessionErrorKey: "auth:error" });

/** Keys for different purposes are derived from the one secret, never reused as is. */
function derivedKey(purpose: string): string {
  return crypto.createHmac("sha256", env.sessionSecret).update(purpose).digest("hex");
}

/** A sign-in link that cannot be used, with the reason. */
export class LinkError extends Error {
  constructor(readonly state: Exclude<TokenState, "valid">) {
    super(`sign-in link ${state}`);
  }
}

/**
 * A sign-up's password and name, handed to the strategy's sendEmail for the one call that
 * sends its confirmation (keyed by the link's single-use secret). Never put in the link:
 * remix-auth-email-link seals its form fields into the URL.
 */
const registrationsBeingSent = new Map<string, PendingRegistration>();

export async function whileSending<T>(secret: string, registration: PendingRegistration | undefined, send: () => Promise<T>): Promise<T> {
  if (!registration) return send();
  registrationsBeingSent.set(secret, registration);
  try {
    return await send();
  } finally {
    registrationsBeingSent.delete(secret);
  }
}

const EMAIL_KINDS: readonly LinkEmailKind[] = ["sign-in", "confirm-registration", "account-exists"];

/** What people see when sending a link fails (the catalogue's fallback text). */
export const SEND_FAILED = "Failed to send magic link. Please try again.";

/**
 * The link in the e-mail. remix-auth-email-link builds it from the request's Host
 * header, which a client controls; we rebuild it on PUBLIC_URL so a forged Host can
 * never send someone a link to another site. `id` is the single-use secret.
 */
export function publicMagicLink(strategyLink: string, secret: string): string {
  const token = new URL(strategyLink).searchParams.get("token") ?? "";
  const link = new URL("/magic", env.publicUrl);
  link.searchParams.set("token", token);
  link.searchParams.set("id", secret);
  return link.toString();
}

const emailLinkStrategy = new EmailLinkStrategy<AuthResult>(
  {
    secret: derivedKey("email-link"),
    callbackURL: "/magic",
    linkExpirationTime: LINK_MINUTES * 60_000,
    verifyEmailAddress: async (email) => {
      EmailAddress.parse(email);
    },
    sendEmail: async ({ emailAddress, magicLink, form }) => {
      const secret = String(form.get("secret"));
      const redirectTo = form.get("redirectTo");
      const kind = EMAIL_KINDS.find((k) => k === form.get("kind")) ?? "sign-in";
      const registration = kind === "confirm-registration" ? registrationsBeingSent.get(secret) : undefined;
      const { code } = await issueLoginToken({
        email: emailAddress,
        secret,
        redirectTo: typeof redirectTo === "string" ? redirectTo : undefined,
        registration,
      });
      const link = publicMagicLink(magicLink, secret);
      try {
        const settings = await getSiteSettings();
        const message = signInEmail({ link, code, brandName: settings.brandName, supportEmail: settings.supportEmail, expiresInMinutes: LINK_MINUTES, kind });
        await sendEmail({ to: emailAddress, ...message, link });
      } catch (error) {
        logger.error({ err: error }, `[auth] could not send a sign-in e-mail to ${emailAddress}`);
        throw new Error(SEND_FAILED);
      }
    },
  },
  async ({ email, form, magicLinkVerify }) => {
    // While sending, the strategy asks for the user only to pass it to sendEmail; we
    // don't need it (and must not reveal whether an account exists).
    if (!magicLinkVerify) throw new Error("not needed");
    const claim = await claimLink(String(form.get("secret")), email);
    if (!claim.ok) throw new LinkError(claim.state === "valid" ? "used" : claim.state);
    return { email: claim.email, proof: "email-link", redirectTo: claim.redirectTo, registration: claim.registration };
  },
);
authenticator.use(emailLinkStrategy, "email-link");

/**
 * The e-mail and single-use secret sealed inside a link's token, or null when the token
 * was changed or cut off. Uses the strategy's own check (not part of its typed API).
 */
export async function readLinkToken(token: string): Promise<{ email: string; secret: string } | null> {
  const link = new URL("/magic", env.publicUrl);
  link.searchParams.set("token", token);
  const strategy = emailLinkStrategy as unknown as { validateMagicLink(url: string, sessionLink: string): Promise<{ emailAddress: unknown; form: FormData }> };
  try {
    const { emailAddress, form } = await strategy.validateMagicLink(link.toString(), "");
    const secret = form.get("secret");
    return typeof emailAddress === "string" && typeof secret === "string" ? { email: emailAddress, secret } : null;
  } catch {
    // Changed, cut off, or past the library's own expiry (the database row says which).
    return null;
  }
}
