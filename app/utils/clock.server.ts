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

function fileOffsetMs(): number {
  try {
    const { offsetMs } = JSON.parse(fs.readFileSync(path.join(env.dataDir, "test-clock.json"), "utf8"));
    return typeof offsetMs === "number" ? offsetMs : 0;
  } catch {
    return 0;
  }
}

function offsetMs(): number {
  if (!env.testClock) return 0;
  return requestOffset.getStore() ?? fileOffsetMs();
}

export function now(): Date {
  return new Date(Date.now() + offsetMs());
}

/** Runs `next` (the rest of the request) with the header's clock offset; server.mjs calls it only with TEST_CLOCK=1. */
export function withRequestClock(header: string | string[] | undefined, next: () => void): void {
  const offset = Number(Array.isArray(header) ? header[0] : header);
  if (env.testClock && Number.isSafeInteger(offset)) requestOffset.run(offset, next);
  else next();
}
