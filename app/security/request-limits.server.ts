/**
 * A rate limit on every form and endpoint that changes something (POST and friends),
 * tiered like the sign-in limits: per visitor per endpoint, and per network address
 * overall, in fixed one-minute windows. Counted in the database with one atomic statement
 * per request, so every instance sees the same counts (two instances do not double a limit).
 * This guards the server against floods; the limits on sign-in e-mails and password and code
 * guesses are app/auth/rate-limit.server.ts. Webhooks are exempt: they are signed, and
 * providers retry in bursts.
 */
import crypto from "node:crypto";
import type { IncomingMessage } from "node:http";
import { env } from "~/utils/env.server";
import { execute, queryRows, sql } from "~/utils/sql.server";

export const LIMITS = {
  /** One visitor (their session, else their address) on one endpoint, per minute. */
  perEndpoint: 30,
  /** One network address across all endpoints, per minute (REQUEST_LIMIT_PER_MINUTE). */
  perAddress: env.requestLimitPerMinute,
};
const WINDOW_MS = 60_000;
const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

let lastPrune = 0;

/** Windows that are over are deleted, by whichever instance comes first each minute. */
function pruneOldWindows(windowStart: number): void {
  if (windowStart - lastPrune < WINDOW_MS) return;
  lastPrune = windowStart;
  execute(sql`DELETE FROM "RequestCount" WHERE "windowStart" < ${new Date(windowStart - WINDOW_MS)}`).catch((error) =>
    console.error("[request-limits] could not delete old windows", error),
  );
}

const SESSION = /(?:^|;\s*)gc_session=([^;]{1,200})/;

/** Session cookies are secrets: only a digest of one is stored as a key. */
const digest = (value: string) => crypto.createHash("sha256").update(value).digest("base64url").slice(0, 22);

/**
 * Counts a request. Resolves to null when it may go on, else the time it may be retried.
 * `ip` is the client address as the app sees it (load-context's rules on X-Forwarded-For).
 */
export async function limitRequest(req: Pick<IncomingMessage, "method" | "url" | "headers">, ip: string, at = Date.now()): Promise<Date | null> {
  if (!req.method || !MUTATING.has(req.method)) return null;
  const path = (req.url ?? "/").split("?")[0];
  if (path.startsWith("/webhooks/")) return null;
  const windowStart = at - (at % WINDOW_MS);
  pruneOldWindows(windowStart);
  const session = SESSION.exec(req.headers.cookie ?? "")?.[1];
  const byAddress = `address:${ip}`;
  const byEndpoint = `endpoint:${session ? `s:${digest(session)}` : `ip:${ip}`}:${path}`;
  const window = new Date(windowStart);
  // Both counts go up in one statement; each comes back as it is after this request.
  const counts = await queryRows<{ key: string; count: number }>(sql`
    INSERT INTO "RequestCount" ("key", "windowStart", "count") VALUES (${byAddress}, ${window}, 1), (${byEndpoint}, ${window}, 1)
    ON CONFLICT ("key", "windowStart") DO UPDATE SET "count" = "RequestCount"."count" + 1
    RETURNING "key", "count"`);
  const count = (key: string) => Number(counts.find((row) => row.key === key)?.count ?? 0);
  const over = count(byAddress) > LIMITS.perAddress || count(byEndpoint) > LIMITS.perEndpoint;
  return over ? new Date(windowStart + WINDOW_MS) : null;
}

export function tooManyRequestsPage(retryAt: Date, at = Date.now()): { status: 429; headers: Record<string, string>; body: string } {
  const seconds = Math.max(1, Math.ceil((retryAt.getTime() - at) / 1000));
  const when = seconds <= 60 ? "in a minute" : `in ${Math.ceil(seconds / 60)} minutes`;
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Too many requests · Glow Coach</title></head>
<body style="margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#fbf6f1;color:#2e2227;font-family:-apple-system,'Segoe UI',Roboto,Arial,sans-serif">
<main style="max-width:28rem;margin:2rem;padding:2rem;background:#fff;border:1px solid #eadbd0;border-radius:1.25rem;text-align:center">
<h1 style="font-family:Georgia,serif;font-weight:normal;font-size:1.75rem;margin:0 0 .75rem">Too many requests</h1>
<p style="margin:0 0 1.25rem;line-height:1.5;color:#6f5d65">That was a lot at once. Please wait a moment and try again ${when}.</p>
<a href="/" style="color:#9c4a5b;font-weight:600">Back to Home</a></main></body></html>`;
  return { status: 429, headers: { "Content-Type": "text/html; charset=utf-8", "Retry-After": String(seconds), "Cache-Control": "no-store" }, body };
}

/** Tests only: forget every count. */
export async function resetRequestLimits(): Promise<void> {
  await execute(sql`DELETE FROM "RequestCount"`);
}
