/**
 * A rate limit on every form and endpoint that changes something (every POST),
 * tiered like the sign-in limits: per visitor per endpoint, and per network address
 * overall, in fixed one-minute windows. Counted in the database with one atomic statement
 * per request, so every instance sees the same counts (two instances do not double a limit).
 * This guards the server against floods; the limits on sign-in e-mails and password and code
 * guesses are app/auth/rate-limit.server.ts. Webhooks are exempt: they are signed, and
 * providers retry in bursts. What an endpoint is, and whether it is a webhook, comes from the
 * gate's one judgement of the path (requestPathOf, ADR 29): every spelling the router matches
 * alike (`/webhooks/../login`, `/%6Cogin`, `/LOGIN/`, `/login.data`) is one endpoint.
 */
import crypto from "node:crypto";
import type { IncomingMessage } from "node:http";
import { sessionIdIn } from "~/utils/session-cookie.server";
import { env } from "~/utils/env.server";
import { now } from "~/utils/clock.server";
import { logger } from "~/utils/logger.server";
import { execute, query, queryRows, statement } from "~/utils/sql.server";
import { plainPage, type PlainPage } from "./plain-page.server";
import { requestPathOf, WEBHOOKS } from "./request-guard.server";

export const LIMITS = {
  /** One visitor (their session, else their address) on one endpoint, per minute. */
  perEndpoint: 30,
  /** One network address across all endpoints, per minute (REQUEST_LIMIT_PER_MINUTE). */
  perAddress: env.requestLimitPerMinute,
};
const WINDOW_MS = 60_000;

let lastPrune = 0;

const deleteWindowsBefore = statement((start: Date) => query.deleteFrom("RequestCount").where("windowStart", "<", start));
const deleteEveryWindow = statement(() => query.deleteFrom("RequestCount"));

/** Both keys' counts in the window one up (1 when new); answers each as it is after. */
const countBoth = statement((byAddress: string, byEndpoint: string, windowStart: Date) =>
  query
    .insertInto("RequestCount")
    .values([
      { key: byAddress, windowStart, count: 1 },
      { key: byEndpoint, windowStart, count: 1 },
    ])
    .onConflict((oc) => oc.columns(["key", "windowStart"]).doUpdateSet((eb) => ({ count: eb("RequestCount.count", "+", 1) })))
    .returning(["key", "count"]),
);

/**
 * Windows that are over are deleted, by whichever instance comes first each minute. Judged on
 * the wall clock, not the test clock: a test's request in its own future minute must not
 * delete the windows other tests are still counting in (in production the two are the same).
 */
function pruneOldWindows(): void {
  const realNow = Date.now();
  const windowStart = realNow - (realNow % WINDOW_MS);
  if (windowStart - lastPrune < WINDOW_MS) return;
  lastPrune = windowStart;
  execute(deleteWindowsBefore, new Date(windowStart - WINDOW_MS)).catch((error) =>
    logger.error({ err: error }, "[request-limits] could not delete old windows"),
  );
}

/**
 * Who is asking, for the per-endpoint count: a signed-in browser by its session (members
 * behind one address each get their own count), anyone else by address. Only a session
 * cookie with a valid signature counts as one: a made-up value per request would otherwise
 * buy a fresh count each time.
 */
async function requester(cookieHeader: string | undefined, ip: string): Promise<string> {
  const sessionId = await sessionIdIn(cookieHeader);
  return sessionId ? `session:${sessionId}` : `ip:${ip}`;
}

/** A session id is a secret: only a digest of who is asking is stored as a key. */
const digest = (value: string) => crypto.createHash("sha256").update(value).digest("base64url").slice(0, 22);

/**
 * Counts a request. Resolves to null when it may go on, else the time it may be retried.
 * `ip` is the client address as the app sees it (load-context's rules on X-Forwarded-For).
 */
export async function limitRequest(req: Pick<IncomingMessage, "method" | "url" | "headers">, ip: string, at = now().getTime()): Promise<Date | null> {
  // `at` is the server's clock (the test clock in tests), so a test counts in a minute of its
  // own instead of waiting for a fresh one on the wall clock.
  // POST is the one changing method the app answers (request-guard.server.ts refuses the rest).
  if (req.method !== "POST") return null;
  // The gate refuses a target that is no path before this runs; counted under one key all the same.
  const endpoint = requestPathOf(req)?.endpoint ?? "(no path)";
  if (WEBHOOKS.has(endpoint)) return null;
  const windowStart = at - (at % WINDOW_MS);
  pruneOldWindows();
  const byAddress = `address:${ip}`;
  const byEndpoint = `endpoint:${digest(await requester(req.headers.cookie, ip))}:${endpoint}`;
  // Both counts go up in one statement; each comes back as it is after this request.
  const counts = await queryRows(countBoth, byAddress, byEndpoint, new Date(windowStart));
  const count = (key: string) => Number(counts.find((row) => row.key === key)?.count ?? 0);
  const over = count(byAddress) > LIMITS.perAddress || count(byEndpoint) > LIMITS.perEndpoint;
  return over ? new Date(windowStart + WINDOW_MS) : null;
}

export function tooManyRequestsPage(retryAt: Date, at = now().getTime()): PlainPage {
  const seconds = Math.max(1, Math.ceil((retryAt.getTime() - at) / 1000));
  const when = seconds <= 60 ? "in a minute" : `in ${Math.ceil(seconds / 60)} minutes`;
  return plainPage({
    status: 429,
    title: "Too many requests",
    text: `That was a lot at once. Please wait a moment and try again ${when}.`,
    headers: { "Retry-After": String(seconds) },
  });
}

/** Tests only: forget every count. */
export async function resetRequestLimits(): Promise<void> {
  await execute(deleteEveryWindow);
}
