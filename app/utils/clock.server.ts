/**
 * The server's clock. Always the real time, except in tests started with TEST_CLOCK=1
 * (refused in production), where an offset in <DATA_DIR>/test-clock.json moves it, so
 * an e2e test can make a sign-in link expire without waiting 15 minutes.
 */
import fs from "node:fs";
import path from "node:path";
import { env } from "./env.server";

function offsetMs(): number {
  if (!env.testClock) return 0;
  try {
    const { offsetMs } = JSON.parse(fs.readFileSync(path.join(env.dataDir, "test-clock.json"), "utf8"));
    return typeof offsetMs === "number" ? offsetMs : 0;
  } catch {
    return 0;
  }
}

export function now(): Date {
  return new Date(Date.now() + offsetMs());
}
