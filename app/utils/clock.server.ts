/**
 * The server's clock. Always the real time, except in tests started with TEST_CLOCK=1
 * (refused in production), where it can be moved: for a whole data folder by an offset in
 * <DATA_DIR>/test-clock.json (unit tests), or for one request by the X-Test-Clock-Offset-Ms
 * header (end-to-end tests, so one browser's future never leaks into parallel tests).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import fs from "node:fs";
import path from "node:path";
import { env } from "./env.server";

const requestOffset = new AsyncLocalStorage<number>();

/** The file's offset, read again only when the file changed (a stat costs a fraction of a read). */
let fileClock: { stamp: string; offsetMs: number } | undefined;

function fileOffsetMs(): number {
  const file = path.join(env.dataDir, "test-clock.json");
  const stat = fs.statSync(file, { bigint: true, throwIfNoEntry: false });
  if (!stat) return 0;
  const stamp = `${stat.mtimeNs}:${stat.size}:${stat.ino}`;
  if (fileClock?.stamp === stamp) return fileClock.offsetMs;
  let offsetMs = 0;
  try {
    const parsed = JSON.parse(fs.readFileSync(file, "utf8")).offsetMs;
    if (typeof parsed === "number") offsetMs = parsed;
  } catch {
    // Half written or not JSON: no offset, and read again next time.
    return 0;
  }
  fileClock = { stamp, offsetMs };
  return offsetMs;
}

function offsetMs(): number {
  if (!env.testClock) return 0;
  return requestOffset.getStore() ?? fileOffsetMs();
}

export function now(): Date {
  return new Date(Date.now() + offsetMs());
}

/** A time, or a function working it out (called only when someone keeps what was read: see validUntil). */
export type Moment = Date | number | (() => Date | number);

const validityListeners = new Set<(until: Moment) => void>();

/**
 * What the caller just worked out from the clock (the member's day, a session's renewal, a
 * paid period, a countdown, the year) stays what it is only until `until`. Said here, beside
 * now(), so the code reading the clock needs to know nothing of who keeps pages: the page
 * record listens (app/utils/page-record.server.ts) and serves no stored page past that time.
 */
export function validUntil(until: Moment): void {
  for (const listener of validityListeners) listener(until);
}

export function onValidUntil(listener: (until: Moment) => void): void {
  validityListeners.add(listener);
}

/** Runs `next` (the rest of the request) with the header's clock offset; app/server.ts calls it only with TEST_CLOCK=1. */
export function withRequestClock(header: string | string[] | undefined, next: () => void): void {
  runWithRequestClock(header, next);
}

/** `work`'s result, worked out with the header's clock offset (TEST_CLOCK=1 only). */
export function runWithRequestClock<T>(header: string | string[] | undefined, work: () => T): T {
  const offset = Number(Array.isArray(header) ? header[0] : header);
  return env.testClock && Number.isSafeInteger(offset) ? requestOffset.run(offset, work) : work();
}
