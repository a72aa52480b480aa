/**
 * The member's time zone, captured from the browser: a form field on the routine forms
 * (filled in by JavaScript) or the gc_tz cookie (set by a tiny inline script in the
 * document head). Neither is trusted beyond being a valid IANA name; the date itself is
 * always computed here, from the server's clock.
 */
import type { SessionUser } from "~/auth/users.server";
import { now } from "~/utils/clock.server";
import { db } from "~/utils/db.server";
import { isValidTimeZone, localDate } from "./calendar";
import { TIME_ZONE_COOKIE } from "./time-zone";


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
 * The member's time zone and today's date in it. A newer zone from the browser (field
 * first, then cookie) is stored on the user, so pages rendered without JavaScript later
 * still use it. Invalid values are ignored: the stored zone (default UTC) stays.
 */
export async function memberToday(user: SessionUser, request: Request, formTimeZone?: string): Promise<{ timeZone: string; today: string; at: Date }> {
  const fromBrowser = isValidTimeZone(formTimeZone) ? formTimeZone : timeZoneFromCookie(request.headers.get("Cookie"));
  let timeZone = isValidTimeZone(user.timeZone) ? user.timeZone : "UTC";
  if (fromBrowser && fromBrowser !== timeZone) {
    await db.user.update({ where: { id: user.id }, data: { timeZone: fromBrowser } });
    timeZone = fromBrowser;
  }
  const at = now();
  return { timeZone, today: localDate(at, timeZone), at };
}
