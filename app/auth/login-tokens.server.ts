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

function codeHash(secretHash: string, code: string): string {
  return sha256(`${secretHash}:${normalizeCode(code)}`);
}

/** Stores a new link (superseding the address's earlier ones) and returns its code. */
export async function issueLoginToken(input: { email: string; secret: string; redirectTo?: string }): Promise<{ code: string }> {
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
        createdAt: at,
        expiresAt: new Date(at.getTime() + LINK_MINUTES * 60_000),
      },
    }),
  ]);
  return { code };
}

type TokenRow = { email: string; redirectTo: string | null; usedAt: Date | null; supersededAt: Date | null; expiresAt: Date };

function stateOf(row: TokenRow | null): TokenState {
  if (!row) return "malformed";
  if (row.usedAt) return "used";
  if (row.supersededAt) return "superseded";
  if (row.expiresAt <= now()) return "expired";
  return "valid";
}

/** What a link's secret is worth right now, without spending it (the page a link opens). */
export async function inspectLink(secret: string | null): Promise<{ state: TokenState; email?: string }> {
  if (!secret || !/^[A-Za-z0-9_-]{43}$/.test(secret)) return { state: "malformed" };
  const row = await db.loginToken.findUnique({ where: { secretHash: sha256(secret) } });
  return { state: stateOf(row), email: row?.email };
}

export type Claim = { ok: true; email: string; redirectTo: string | null } | { ok: false; state: TokenState };

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
  if (count === 1 && row) return { ok: true, email: row.email, redirectTo: row.redirectTo };
  return { ok: false, state: row && row.email !== email ? "malformed" : stateOf(row) };
}

export type CodeCheck = Claim | { ok: false; state: "wrong-code"; attemptsLeft: number };

/** Signs in with the code from the newest link for this address. */
export async function claimCode(email: string, code: string): Promise<CodeCheck> {
  const at = now();
  const row = await db.loginToken.findFirst({ where: { email }, orderBy: { createdAt: "desc" } });
  const state = stateOf(row);
  if (!row || state !== "valid") return { ok: false, state };
  if (codeHash(row.secretHash, code) !== row.codeHash) {
    // Counted in the database (an increment, not a read-modify-write), so wrong guesses sent
    // at once, to one instance or several, are all counted.
    const { codeAttempts } = await db.loginToken.update({ where: { id: row.id }, data: { codeAttempts: { increment: 1 } }, select: { codeAttempts: true } });
    // Too many wrong guesses retire the link: the person asks for a new one.
    if (codeAttempts >= MAX_CODE_ATTEMPTS) await db.loginToken.updateMany({ where: { id: row.id, supersededAt: null }, data: { supersededAt: at } });
    return { ok: false, state: "wrong-code", attemptsLeft: Math.max(0, MAX_CODE_ATTEMPTS - codeAttempts) };
  }
  const { count } = await db.loginToken.updateMany({
    // Also refused once wrong guesses sent alongside this one have used up the attempts.
    where: { id: row.id, usedAt: null, supersededAt: null, expiresAt: { gt: at }, codeAttempts: { lt: MAX_CODE_ATTEMPTS } },
    data: { usedAt: at },
  });
  return count === 1 ? { ok: true, email: row.email, redirectTo: row.redirectTo } : { ok: false, state: "used" };
}

/** What each state means to the person holding the link. */
export const TOKEN_MESSAGES: Record<Exclude<TokenState, "valid">, { title: string; text: string }> = {
  expired: { title: "This link has expired", text: `Sign-in links work for ${LINK_MINUTES} minutes. Send yourself a new one below.` },
  used: { title: "This link has already been used", text: "Each sign-in link works once. If that wasn't you, send a new link below and you'll be signed in on this device." },
  superseded: { title: "A newer link was sent", text: "You asked for another sign-in link after this one, so only the newest works. Use the latest e-mail, or send a new link below." },
  malformed: { title: "This link isn't valid", text: "It may have been cut off or changed when it was copied. Send yourself a new link below." },
};
