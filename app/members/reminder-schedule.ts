/**
 * When a member's daily reminder goes out. Pure: no clock, no database.
 *
 * The member picks a local hour; the reminder is sent at that hour on the member's wall clock,
 * in their stored time zone, once per local day:
 *  - on the day clocks go forward and the hour does not exist (02:00 in Los Angeles in March),
 *    it goes at the moment the clocks jump (03:00 local), still that day;
 *  - on the day clocks go back and the hour happens twice (01:00 in November), it goes at the
 *    first of the two.
 */
import { addDays, localDate } from "./calendar";

export const DEFAULT_REMINDER_HOUR = 8;

export function isReminderHour(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 23;
}

const wallClocks = new Map<string, Intl.DateTimeFormat>();
function wallClock(timeZone: string): Intl.DateTimeFormat {
  let formatter = wallClocks.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    wallClocks.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall-clock time in `timeZone` at instant `ms`, read as if it were UTC (ms). */
function wallTimeAsUtc(ms: number, timeZone: string): number {
  const parts = wallClock(timeZone).formatToParts(new Date(ms));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
}

/** The zone's offset from UTC at instant `ms`, in ms (Los Angeles in winter: -8 h). */
function offsetAt(ms: number, timeZone: string): number {
  return wallTimeAsUtc(Math.floor(ms / 1000) * 1000, timeZone) - Math.floor(ms / 1000) * 1000;
}

/** The instant `hour`:00 happens on local `date` in `timeZone` (rules above for DST days). */
export function instantOfLocalHour(date: string, hour: number, timeZone: string): Date {
  const [y, m, d] = date.split("-").map(Number);
  const wall = Date.UTC(y, m - 1, d, hour);
  // A day holds at most one offset change: the offsets a day before and a day after cover both sides.
  const before = wall - offsetAt(wall - 86_400_000, timeZone);
  const after = wall - offsetAt(wall + 86_400_000, timeZone);
  const matching = [before, after].filter((t) => wallTimeAsUtc(t, timeZone) === wall);
  // Twice (clocks went back): the first one. Never (clocks jumped over it): the jump, which is `before`.
  return new Date(matching.length > 0 ? Math.min(...matching) : before);
}

/** The first reminder instant strictly after `after`, for `hour` in `timeZone`. */
export function nextReminderAt(input: { timeZone: string; hour: number; after: Date }): Date {
  const { timeZone, hour, after } = input;
  const today = localDate(after, timeZone);
  for (let days = -1; days <= 2; days++) {
    const at = instantOfLocalHour(addDays(today, days), hour, timeZone);
    if (at.getTime() > after.getTime()) return at;
  }
  throw new Error(`no reminder instant found for ${timeZone} ${hour}:00 after ${after.toISOString()}`);
}

/** Waiting time before retry number `attempts` (1 = the first retry): 1, 2, 4 ... minutes, at most an hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(60, 2 ** Math.max(0, attempts - 1)) * 60_000;
}

/** "7:00 AM", "12:00 PM", "11:00 PM": how an hour is shown to the member. */
export function hourLabel(hour: number): string {
  const twelve = hour % 12 === 0 ? 12 : hour % 12;
  return `${twelve}:00 ${hour < 12 ? "AM" : "PM"}`;
}
