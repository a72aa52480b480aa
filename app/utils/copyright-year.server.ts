/**
 * The year every © line shows: the server clock's (UTC), so all footers agree, the test clock
 * moves it, and a page kept in memory (ADR 26) is not served with last year's after New Year.
 */
import { now, validUntil } from "./clock.server";

export function copyrightYear(): number {
  const year = now().getUTCFullYear();
  validUntil(Date.UTC(year + 1, 0, 1));
  return year;
}
