/**
 * A rate limit on every form and endpoint that changes something (POST and friends),
 * tiered like the sign-in limits: per visitor per endpoint, and per network address
 * overall. Counted in memory with fixed one-minute windows: this guards the server
 * against floods; the limits that must hold across restarts (sign-in e-mails, password and
 * code guesses) are kept in the database by app/auth/rate-limit.server.ts.
 * Webhooks are exempt: they are signed, and providers retry in bursts.
 */
import type { IncomingMessage } from "node:http";
import { env } from "~/utils/env.server";

export const LIMITS = {
  /** One visitor (their session, else their address) on one endpoint, per minute. */
  perEndpoint: 30,
  /** One network address across all endpoints, per minute (REQUEST_LIMIT_PER_MINUTE). */
  perAddress: env.requestLimitPerMinute,
};
const WINDOW_MS = 60_000;
const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

type Window = { startedAt: number; count: number };
const windows = new Map<string, Window>();
let lastSweep = 0;

function hit(key: string, max: number, at: number): number | null {
  let window = windows.get(key);
  if (!window || at - window.startedAt >= WINDOW_MS) {
    window = { startedAt: at, count: 0 };
    windows.set(key, window);
  }
  if (window.count >= max) return window.startedAt + WINDOW_MS;
  window.count++;
  return null;
}

function sweep(at: number): void {
  if (at - lastSweep < WINDOW_MS) return;
  lastSweep = at;
  for (const [key, window] of windows) if (at - window.startedAt >= WINDOW_MS) windows.delete(key);
}

const SESSION = /(?:^|;\s*)gc_session=([^;]{1,200})/;

/**
 * Counts a request. Returns null when it may go on, else the time it may be retried.
 * `ip` is the client address as the app sees it (load-context's rules on X-Forwarded-For).
 */
export function limitRequest(req: Pick<IncomingMessage, "method" | "url" | "headers">, ip: string, at = Date.now()): Date | null {
  if (!req.method || !MUTATING.has(req.method)) return null;
  const path = (req.url ?? "/").split("?")[0];
  if (path.startsWith("/webhooks/")) return null;
  sweep(at);
  const visitor = SESSION.exec(req.headers.cookie ?? "")?.[1] ?? `ip:${ip}`;
  const byAddress = hit(`address:${ip}`, LIMITS.perAddress, at);
  const byEndpoint = byAddress ? null : hit(`endpoint:${visitor}:${path}`, LIMITS.perEndpoint, at);
  const retryAt = byAddress ?? byEndpoint;
  return retryAt ? new Date(retryAt) : null;
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
export function resetRequestLimits(): void {
  windows.clear();
}
