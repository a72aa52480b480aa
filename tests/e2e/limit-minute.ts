import crypto from "node:crypto";

/**
 * Request limits count per minute of the server's clock (app/security/request-limits.server.ts).
 * A test of "the 31st is refused" sends these headers (TEST_CLOCK): its requests land at the
 * start of a minute of their own, far from any other test's, so the burst never straddles two
 * windows and nothing waits for the wall clock's next minute.
 */
export function ownLimitMinute(): { "x-test-clock-offset-ms": string } {
  const MINUTE = 60_000;
  const start = (Math.floor(Date.now() / MINUTE) + crypto.randomInt(1, 1_000_000)) * MINUTE;
  return { "x-test-clock-offset-ms": String(start - Date.now()) };
}
