/**
 * When a recovery e-mail goes (ADR 44). Pure: no clock, no database.
 *
 * Each e-mail is due a number of hours (from content) after the address was given, or after a
 * checkout started; it goes at that time when that is a sensible hour on the visitor's wall
 * clock (08:00 to 20:59 in their zone), else at 09:00 their next morning. Never in the night.
 */
import { localDate, timeZoneOrDefault } from "~/members/calendar";
import { instantOfLocalHour, nextReminderAt } from "~/members/reminder-schedule";

/** The first and the last local hour a recovery e-mail may go in. */
export const FIRST_HOUR = 8;
export const LAST_HOUR = 20;
/** Where a night-time e-mail goes instead. */
export const MORNING_HOUR = 9;

function localHour(at: Date, timeZone: string): number {
  const hour = new Intl.DateTimeFormat("en-GB", { timeZone, hourCycle: "h23", hour: "2-digit" }).format(at);
  return Number(hour);
}

/** `at`, or the next 09:00 in `timeZone` when `at` falls outside 08:00–20:59 there. */
export function atSensibleHour(at: Date, zone: string): Date {
  const timeZone = timeZoneOrDefault(zone);
  const hour = localHour(at, timeZone);
  if (hour >= FIRST_HOUR && hour <= LAST_HOUR) return at;
  // Before 08:00: this morning's 09:00; after 20:59: tomorrow's.
  if (hour < FIRST_HOUR) return instantOfLocalHour(localDate(at, timeZone), MORNING_HOUR, timeZone);
  return nextReminderAt({ timeZone, hour: MORNING_HOUR, after: at });
}

/** When e-mail number `index` (0-based) of a sequence given at `start` goes; null: the sequence has no such e-mail. */
export function sequenceDueAt(start: Date, hours: readonly number[], index: number, timeZone: string): Date | null {
  const after = hours[index];
  if (after === undefined) return null;
  return atSensibleHour(new Date(start.getTime() + after * 3_600_000), timeZone);
}
