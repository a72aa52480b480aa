/**
 * Sliding-window rate limits kept in the database, so they hold across restarts and across
 * every instance. `tryAcquire` counts the action only when it is allowed, and checks and counts
 * as one step: two requests racing for the last free hit (on one instance or two) get one
 * yes and one no.
 */
import { db } from "~/utils/db.server";
import { now } from "~/utils/clock.server";
import { executeWithin, query, statement } from "~/utils/sql.server";

export type Limit = { key: string; max: number; windowMs: number };
export type LimitResult = { ok: true } | { ok: false; retryAt: Date };

/** Writes the key's row (created the first time), which holds it until the transaction ends. */
const lockKey = statement((key: string, at: Date) =>
  query
    .insertInto("RateLimitKey")
    .values({ key, updatedAt: at })
    .onConflict((oc) => oc.column("key").doUpdateSet({ updatedAt: at })),
);

/**
 * Checks every limit; when all allow it, records one hit on each. One transaction that first
 * writes each key's RateLimitKey row, which locks it (PostgreSQL: the row until commit;
 * SQLite: the whole database), so the count it then reads cannot change before its own hit is
 * added. Keys are locked in sorted order, so two requests never wait on each other in a circle.
 */
export async function tryAcquire(limits: Limit[]): Promise<LimitResult> {
  const at = now();
  return db.$transaction(
    async (tx) => {
      for (const key of [...new Set(limits.map((l) => l.key))].sort()) {
        await executeWithin(tx, lockKey, key, at);
      }
      let retryAt: Date | undefined;
      for (const limit of limits) {
        const since = new Date(at.getTime() - limit.windowMs);
        const hits = await tx.rateLimitHit.findMany({
          where: { key: limit.key, createdAt: { gt: since } },
          orderBy: { createdAt: "asc" },
          select: { createdAt: true },
          take: limit.max,
        });
        if (hits.length >= limit.max) {
          // Free again when the oldest counted hit leaves the window.
          const free = new Date(hits[0].createdAt.getTime() + limit.windowMs);
          if (!retryAt || free > retryAt) retryAt = free;
        }
      }
      if (retryAt) return { ok: false, retryAt } as const;
      await tx.rateLimitHit.createMany({ data: limits.map((l) => ({ key: l.key, createdAt: at })) });
      return { ok: true } as const;
    },
    { maxWait: 10_000, timeout: 10_000 },
  );
}

/** "in 38 minutes": when to try again, without guessing the visitor's time zone. */
export function retryAfterText(retryAt: Date): string {
  const minutes = Math.max(1, Math.ceil((retryAt.getTime() - now().getTime()) / 60_000));
  return minutes === 1 ? "in 1 minute" : `in ${minutes} minutes`;
}

const HOUR = 60 * 60 * 1000;

/** The longest window of any limit below: older hits count for nothing and are pruned. */
export const LONGEST_WINDOW_MS = HOUR;

/**
 * Sign-in e-mails an hour: 5 per address from one requester (client address), 20 per
 * requester, and 15 per address from everyone together. A stranger asking for someone's
 * links uses up only their own share, so the mailbox owner can still get one; the
 * per-address cap keeps a mailbox from being flooded from many places, and whatever is sent
 * lands in the owner's mailbox, where the newest link keeps working.
 */
export function signInEmailLimits(email: string, requester: string): Limit[] {
  return [
    { key: `signin-email:${email}:${requester}`, max: 5, windowMs: HOUR },
    { key: `signin-ip:${requester}`, max: 20, windowMs: HOUR },
    { key: `signin-email:${email}`, max: 15, windowMs: HOUR },
  ];
}

/**
 * Password tries an hour: 10 per address from everyone together (a password can be guessed
 * from many places, so the cap is the address's) and 30 per client address. Reaching it
 * locks only password sign-in: the owner can still sign in with an e-mailed link.
 */
export function passwordGuessLimits(email: string, ip: string): Limit[] {
  return [
    { key: `password-email:${email}`, max: 10, windowMs: HOUR },
    { key: `password-ip:${ip}`, max: 30, windowMs: HOUR },
  ];
}

/**
 * Code tries an hour, per requester: 10 per address and 30 in all. Guessing is bounded by
 * the code itself (5 wrong tries retire it, and links per address are capped), so a
 * stranger's wrong codes never lock the owner out of theirs.
 */
export function codeGuessLimits(email: string, ip: string): Limit[] {
  return [
    { key: `code-email:${email}:${ip}`, max: 10, windowMs: HOUR },
    { key: `code-ip:${ip}`, max: 30, windowMs: HOUR },
  ];
}
