/**
 * What makes an e-mailed sign-in link single-use. remix-auth-email-link encrypts and
 * dates the link, but any copy of it would work until it expires. Each link also carries
 * a random secret whose hash is stored here with its 6-character code, so a link or code
 * works once, for 15 minutes, and only while it is the newest one for that address.
 */
import { db } from "~/utils/db.server";
import { now } from "~/utils/clock.server";
import { normalizeCode, randomCode, sha256 } from "./crypto.server";

export const LINK_MINUTES = 15;
const MAX_CODE_ATTEMPTS = 5;

export type TokenState = "valid" | "expired" | "used" | "superseded" | "malformed";

export type LinkPurpose = "sign-in" | "registration";

/** A sign-up waiting on its confirmation e-mail: applied only when confirmed in the browser that made it. */
export type PendingRegistration = { passwordHash: string; name: string; browserHash: string };

function codeHash(secretHash: string, code: string): string {
  return sha256(`${secretHash}:${normalizeCode(code)}`);
}

/** Stores a new link (superseding the address's earlier ones) and returns its code. */
export async function issueLoginToken(input: {
  email: string;
  secret: string;
  redirectTo?: string;
  registration?: PendingRegistration;
}): Promise<{ code: string }> {
  const at = now();
  const secretHash = sha256(input.secret);
  const code = randomCode();
  await db.$transaction([
    db.loginToken.updateMany({
      where: { email: input.email, usedAt: null, supersededAt: null },
      data: { supersededAt: at },
    }),
    db.loginToken.create({
      data: {
        email: input.email,
        secretHash,
        codeHash: codeHash(secretHash, code),
        redirectTo: input.redirectTo,
        purpose: input.registration ? "registration" : "sign-in",
        passwordHash: input.registration?.passwordHash,
        name: input.registration?.name,
        browserHash: input.registration?.browserHash,
        createdAt: at,
        expiresAt: new Date(at.getTime() + LINK_MINUTES * 60_000),
      },
    }),
  ]);
  return { code };
}

type TokenRow = {
  email: string;
  redirectTo: string | null;
  usedAt: Date | null;
  supersededAt: Date | null;
  expiresAt: Date;
  purpose: string;
  passwordHash: string | null;
  name: string | null;
  browserHash: string | null;
};

function stateOf(row: TokenRow | null): TokenState {
  if (!row) return "malformed";
  if (row.usedAt) return "used";
  if (row.supersededAt) return "superseded";
  if (row.expiresAt <= now()) return "expired";
  return "valid";
}

/** What a link's secret is worth right now, without spending it (the page a link opens). */
export async function inspectLink(secret: string | null): Promise<{ state: TokenState; email?: string; purpose?: LinkPurpose }> {
  if (!secret || !/^[A-Za-z0-9_-]{43}$/.test(secret)) return { state: "malformed" };
  const row = await db.loginToken.findUnique({ where: { secretHash: sha256(secret) } });
  return row ? { state: stateOf(row), email: row.email, purpose: purposeOf(row) } : { state: "malformed" };
}

function purposeOf(row: TokenRow): LinkPurpose {
  return row.purpose === "registration" ? "registration" : "sign-in";
}

function registrationOf(row: TokenRow): PendingRegistration | null {
  return row.purpose === "registration" && row.passwordHash && row.browserHash
    ? { passwordHash: row.passwordHash, name: row.name ?? "", browserHash: row.browserHash }
    : null;
}

export type Claim = { ok: true; email: string; redirectTo: string | null; registration: PendingRegistration | null } | { ok: false; state: TokenState };

/**
 * Spends a link: succeeds for exactly one caller, even when two requests race, because
 * the update only matches a row that is still unused, current and unexpired.
 */
export async function claimLink(secret: string, email: string): Promise<Claim> {
  const secretHash = sha256(secret);
  const at = now();
  const { count } = await db.loginToken.updateMany({
    where: { secretHash, email, usedAt: null, supersededAt: null, expiresAt: { gt: at } },
    data: { usedAt: at },
  });
  const row = await db.loginToken.findUnique({ where: { secretHash } });
  if (count === 1 && row) return { ok: true, email: row.email, redirectTo: row.redirectTo, registration: registrationOf(row) };
  return { ok: false, state: row && row.email !== email ? "malformed" : stateOf(row) };
}

export type CodeCheck = Claim | { ok: false; state: "wrong-code"; attemptsLeft: number } | { ok: false; state: "code-retired" };

/**
 * Signs in with the code from the newest link for this address. Five wrong codes retire
 * the code, not the link: anyone who asked for a link to this address can type codes, and
 * must not be able to spend the e-mail waiting in the owner's mailbox.
 */
export async function claimCode(email: string, code: string): Promise<CodeCheck> {
  const at = now();
  const row = await db.loginToken.findFirst({ where: { email }, orderBy: { createdAt: "desc" } });
  const state = stateOf(row);
  if (!row || state !== "valid") return { ok: false, state };
  if (row.codeAttempts >= MAX_CODE_ATTEMPTS) return { ok: false, state: "code-retired" };
  if (codeHash(row.secretHash, code) !== row.codeHash) {
    // Counted in one statement, so parallel guesses cannot get past the limit.
    const { count } = await db.loginToken.updateMany({
      where: { id: row.id, codeAttempts: { lt: MAX_CODE_ATTEMPTS } },
      data: { codeAttempts: { increment: 1 } },
    });
    if (count === 0) return { ok: false, state: "code-retired" };
    const attempts = (await db.loginToken.findUnique({ where: { id: row.id }, select: { codeAttempts: true } }))?.codeAttempts ?? MAX_CODE_ATTEMPTS;
    return { ok: false, state: "wrong-code", attemptsLeft: Math.max(0, MAX_CODE_ATTEMPTS - attempts) };
  }
  const { count } = await db.loginToken.updateMany({
    where: { id: row.id, usedAt: null, supersededAt: null, expiresAt: { gt: at }, codeAttempts: { lt: MAX_CODE_ATTEMPTS } },
    data: { usedAt: at },
  });
  return count === 1 ? { ok: true, email: row.email, redirectTo: row.redirectTo, registration: registrationOf(row) } : { ok: false, state: "used" };
}

/** What each state means to the person holding the link. */
export const TOKEN_MESSAGES: Record<Exclude<TokenState, "valid">, { title: string; text: string }> = {
  expired: { title: "This link has expired", text: `Sign-in links work for ${LINK_MINUTES} minutes. Send yourself a new one below.` },
  used: {
    title: "This link has already been used",
    text: "Each sign-in link works once. If that wasn't you, send a new link below and you'll be signed in on this device.",
  },
  superseded: {
    title: "A newer link was sent",
    text: "You asked for another sign-in link after this one, so only the newest works. Use the latest e-mail, or send a new link below.",
  },
  malformed: { title: "This link isn't valid", text: "It may have been cut off or changed when it was copied. Send yourself a new link below." },
};
