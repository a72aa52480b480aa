/**
 * Removes data that has expired, on a schedule inside the app: once when the server starts,
 * then every hour. Every instance may run it; deleting what is already gone does nothing.
 *  - Sessions past their expiry: they sign no one in any more.
 *  - Sign-in links (LoginToken) that expired more than a day ago, used or not: for that day
 *    an old link still says "already used" or "expired" instead of "isn't valid".
 *  - Rate-limit hits older than the longest limit window: they no longer count; and the keys'
 *    lock rows (RateLimitKey) not used for that long.
 *  - Ad conversions (AdConversion) older than 30 days: Meta takes no event older than 7 days,
 *    so past that the row only holds a buyer's hashed e-mail and address for nothing.
 * Rows go in batches, so a large backlog never holds the database's write lock for long.
 */
import { LONGEST_WINDOW_MS } from "~/auth/rate-limit.server";
import { now } from "~/utils/clock.server";
import { db } from "~/utils/db.server";
import { logger } from "~/utils/logger.server";
import { repeatEvery } from "~/utils/repeat.server";

export const PRUNE_EVERY_MS = 60 * 60 * 1000;
export const LOGIN_TOKEN_KEPT_MS = 24 * 60 * 60 * 1000;
export const AD_CONVERSION_KEPT_MS = 30 * 24 * 60 * 60 * 1000;
// Under the 999 query parameters Prisma allows on SQLite.
const BATCH = 500;

export type Pruned = { sessions: number; loginTokens: number; rateLimitHits: number; rateLimitKeys: number; adConversions: number };

async function deleteInBatches<Id>(find: (take: number) => Promise<{ id: Id }[]>, remove: (ids: Id[]) => Promise<{ count: number }>): Promise<number> {
  let total = 0;
  for (;;) {
    const ids = (await find(BATCH)).map((row) => row.id);
    if (ids.length > 0) total += (await remove(ids)).count;
    if (ids.length < BATCH) return total;
  }
}

/** Deletes what has expired as of `at` and says how many rows of each kind went. */
export async function pruneExpiredData(at: Date = now()): Promise<Pruned> {
  const sessions = await deleteInBatches(
    (take) => db.session.findMany({ where: { expiresAt: { lte: at } }, select: { id: true }, take }),
    (ids) => db.session.deleteMany({ where: { id: { in: ids } } }),
  );
  const tokensBefore = new Date(at.getTime() - LOGIN_TOKEN_KEPT_MS);
  const loginTokens = await deleteInBatches(
    (take) => db.loginToken.findMany({ where: { expiresAt: { lt: tokensBefore } }, select: { id: true }, take }),
    (ids) => db.loginToken.deleteMany({ where: { id: { in: ids } } }),
  );
  const hitsBefore = new Date(at.getTime() - LONGEST_WINDOW_MS);
  const rateLimitHits = await deleteInBatches(
    (take) => db.rateLimitHit.findMany({ where: { createdAt: { lte: hitsBefore } }, select: { id: true }, take }),
    (ids) => db.rateLimitHit.deleteMany({ where: { id: { in: ids } } }),
  );
  const rateLimitKeys = await deleteInBatches(
    (take) =>
      db.rateLimitKey.findMany({ where: { updatedAt: { lte: hitsBefore } }, select: { key: true }, take }).then((rows) => rows.map((row) => ({ id: row.key }))),
    (keys) => db.rateLimitKey.deleteMany({ where: { key: { in: keys } } }),
  );
  const conversionsBefore = new Date(at.getTime() - AD_CONVERSION_KEPT_MS);
  const adConversions = await deleteInBatches(
    (take) =>
      db.adConversion
        .findMany({ where: { createdAt: { lt: conversionsBefore } }, select: { eventId: true }, take })
        .then((rows) => rows.map((row) => ({ id: row.eventId }))),
    (ids) => db.adConversion.deleteMany({ where: { eventId: { in: ids } } }),
  );
  return { sessions, loginTokens, rateLimitHits, rateLimitKeys, adConversions };
}

/** Prunes now and then every `everyMs`; returns the function that stops it. */
export function startPruning(everyMs: number = PRUNE_EVERY_MS): () => void {
  return repeatEvery("prune", pruneExpiredData, everyMs, (pruned) => {
    if (Object.values(pruned).some((count) => count > 0)) logger.info({ pruned }, "[prune] removed expired data");
  });
}
