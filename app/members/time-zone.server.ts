/**
 * The member's time zone, captured from the browser: a form field on the routine forms
 * (filled in by JavaScript) or the gc_tz cookie (set by a tiny inline script in the
 * document head). Neither is trusted beyond being a valid IANA name; the date itself is
 * always computed here, from the server's clock.
 */
import type { SessionUser } from "~/auth/users.server";
import { now, validUntil } from "~/utils/clock.server";
import { db } from "~/utils/db.server";
import { isValidTimeZone, localDate, nextDayStarts, zoneForToday } from "./calendar";
import { TIME_ZONE_COOKIE } from "./time-zone";
import { rescheduleForTimeZone } from "./reminder-settings.server";

export function timeZoneFromCookie(cookieHeader: string | null): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name !== TIME_ZONE_COOKIE) continue;
    let value: string;
    try {
      value = decodeURIComponent(rest.join("="));
    } catch {
      return null;
    }
    return isValidTimeZone(value) ? value : null;
  }
  return null;
}

/**
 * The zone the browser says it is in: the routine form's field (filled in by JavaScript)
 * first, then the cookie; null when neither names a valid zone.
 */
export function browserTimeZone(cookieHeader: string | null, formTimeZone?: string): string | null {
  return isValidTimeZone(formTimeZone) ? formTimeZone : timeZoneFromCookie(cookieHeader);
}

/** memberDay with the zone this request's browser says it is in (browserTimeZone). */
export function memberToday(user: SessionUser, cookieHeader: string | null, formTimeZone?: string): Promise<{ timeZone: string; today: string; at: Date }> {
  return memberDay(user, browserTimeZone(cookieHeader, formTimeZone));
}

/**
 * The member's time zone and today's date in it. A newer zone from the browser is stored on
 * the user, so pages rendered without JavaScript later still use it, unless the day the
 * member last acted on is still running: that day keeps its zone, and the new one counts
 * from the next day (zoneForToday). An invalid zone is ignored: the stored zone (default
 * UTC) stays.
 */
export async function memberDay(user: SessionUser, fromBrowser: string | null): Promise<{ timeZone: string; today: string; at: Date }> {
  const at = now();
  const stored = isValidTimeZone(user.timeZone) ? user.timeZone : "UTC";
  let timeZone = zoneForToday({ stored, lastActedOn: user.lastActedOn, fromBrowser, at });
  if (timeZone !== user.timeZone) {
    // Only if nobody acted in between (another tab, another device): then the old zone stays.
    const { count } = await db.user.updateMany({ where: { id: user.id, timeZone: user.timeZone, lastActedOn: user.lastActedOn }, data: { timeZone } });
    if (count === 0) timeZone = stored;
    else await rescheduleForTimeZone(user.id, timeZone, at);
  }
  // Pages built on "today" change when it ends, in the zone that counts or the browser's
  // (whose date decides when a new zone starts counting).
  validUntil(() => nextDayStarts(at, timeZone));
  if (isValidTimeZone(fromBrowser)) validUntil(() => nextDayStarts(at, fromBrowser));
  return { timeZone, today: localDate(at, timeZone), at };
}

/**
 * Marks `today` (in `timeZone`) as a day the member acted on, which fixes that day's zone.
 * False when the stored zone is no longer `timeZone` (changed by a request in between), so
 * the caller records nothing under a zone that no longer counts.
 */
export async function holdDay(user: SessionUser, timeZone: string, today: string): Promise<boolean> {
  // Already held (a later step the same day): the zone cannot change until the day is over.
  if (user.lastActedOn === today && user.timeZone === timeZone) return true;
  const { count } = await db.user.updateMany({
    where: { id: user.id, timeZone, OR: [{ lastActedOn: null }, { lastActedOn: { lte: today } }] },
    data: { lastActedOn: today },
  });
  return count === 1;
}
