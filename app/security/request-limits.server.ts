/**
 * A rate limit on every form and endpoint that changes something (every POST),
 * tiered like the sign-in limits: per visitor per endpoint, and per network address
 * overall. Counted in memory with fixed one-minute windows: this guards the server
 * against floods; the limits that must hold across restarts (sign-in e-mails, password and
 * code guesses) are kept in the database by app/auth/rate-limit.server.ts.
 * Webhooks are exempt: they are signed, and providers retry in bursts.
 */
import type { IncomingMessage } from "node:http";
import { sessionCookie } from "~/auth/session.server";
import { env } from "~/utils/env.server";
import { plainPage, type PlainPage } from "./plain-page.server";

export const LIMITS = {
  /** One visitor (their session, else their address) on one endpoint, per minute. */
  perEndpoint: 30,
  /** One network address across all endpoints, per minute (REQUEST_LIMIT_PER_MINUTE). */
  perAddress: env.requestLimitPerMinute,
};
const WINDOW_MS = 60_000;

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

/**
 * Who is asking, for the per-endpoint count: a signed-in browser by its session (members
 * behind one address each get their own count), anyone else by address. Only a session
 * cookie with a valid signature counts as one: a made-up value per request would otherwise
 * buy a fresh count each time.
 */
async function requester(cookieHeader: string | undefined, ip: string): Promise<string> {
  if (cookieHeader?.includes("gc_session=")) {
    const sessionId = await sessionCookie.parse(cookieHeader).catch(() => null);
    if (typeof sessionId === "string" && sessionId.length > 0) return `session:${sessionId}`;
  }
  return `ip:${ip}`;
}

/**
 * Counts a request. Resolves to null when it may go on, else the time it may be retried.
 * `ip` is the client address as the app sees it (load-context's rules on X-Forwarded-For).
 */
export async function limitRequest(req: Pick<IncomingMessage, "method" | "url" | "headers">, ip: string, at = Date.now()): Promise<Date | null> {
  // POST is the one changing method the app answers (request-guard.server.ts refuses the rest).
  if (req.method !== "POST") return null;
  const path = (req.url ?? "/").split("?")[0];
  if (path.startsWith("/webhooks/")) return null;
  sweep(at);
  const who = await requester(req.headers.cookie, ip);
  const byAddress = hit(`address:${ip}`, LIMITS.perAddress, at);
  const byEndpoint = byAddress ? null : hit(`endpoint:${who}:${path}`, LIMITS.perEndpoint, at);
  const retryAt = byAddress ?? byEndpoint;
  return retryAt ? new Date(retryAt) : null;
}

export function tooManyRequestsPage(retryAt: Date, at = Date.now()): PlainPage {
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
export function resetRequestLimits(): void {
  windows.clear();
}
