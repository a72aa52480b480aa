/**
 * Days, streaks and weeks in the member's own time zone. Pure: no clock, no database.
 *
 * A "day" is a local calendar date written YYYY-MM-DD. Completions store that string, so
 * a routine done at 23:50 in Auckland counts for the Auckland date, whatever the server's
 * zone. Date arithmetic runs on the date strings (via UTC noon-free day numbers), never on
 * local clock times, so daylight-saving changes cannot skip or repeat a day.
 */

export const DEFAULT_TIME_ZONE = "UTC";

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 24 * 60 * 60 * 1000;

/** True for a time zone this runtime knows by its IANA name (e.g. "Pacific/Auckland"). */
export function isValidTimeZone(value: unknown): value is string {
  if (typeof value !== "string" || value.length === 0 || value.length > 64) return false;
  // Only IANA-style names: letters, digits, "/", "_", "-", "+". Keeps odd strings out of Intl.
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(value)) return false;
  const known = checkedZones.get(value);
  if (known !== undefined) return known;
  let valid: boolean;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
    valid = true;
  } catch {
    valid = false;
  }
  // Building a formatter costs ~0.1 ms, and every member request asks: remember the answer.
  if (checkedZones.size >= MAX_CHECKED_ZONES) checkedZones.clear();
  checkedZones.set(value, valid);
  return valid;
}

const MAX_CHECKED_ZONES = 2000;
const checkedZones = new Map<string, boolean>();

/** The time zone to use: `value` when it is a valid IANA name, else UTC. */
export function timeZoneOrDefault(value: unknown): string {
  return isValidTimeZone(value) ? value : DEFAULT_TIME_ZONE;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The calendar date (YYYY-MM-DD) it is in `timeZone` at instant `at`. */
export function localDate(at: Date, timeZone: string): string {
  const parts = formatterFor(timeZoneOrDefault(timeZone)).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${get("year")}-${get("month")}-${get("day")}`;
}

/**
 * The first instant (to the second, rounded up) at which the date in `timeZone` is no longer
 * the date at `at`: the next local midnight, wherever daylight saving puts it. Found by
 * halving the next 27 hours (no zone has a longer day), about 17 date lookups.
 */
export function nextDayStarts(at: Date, timeZone: string): Date {
  const today = localDate(at, timeZone);
  // The same for every member in a zone all day: worked out once.
  const key = `${timeZone}\u0000${today}`;
  const known = dayEnds.get(key);
  if (known) return known;
  let before = at.getTime();
  let after = before + 27 * 60 * 60 * 1000;
  while (after - before > 1000) {
    const middle = Math.floor((before + after) / 2);
    if (localDate(new Date(middle), timeZone) === today) before = middle;
    else after = middle;
  }
  if (dayEnds.size >= MAX_CHECKED_ZONES) dayEnds.clear();
  dayEnds.set(key, new Date(after));
  return new Date(after);
}
const dayEnds = new Map<string, Date>();

/** True for a real calendar date written YYYY-MM-DD (2025-02-30 is not one). */
export function isLocalDate(value: unknown): value is string {
  if (typeof value !== "string") return false;
  const match = DATE_PATTERN.exec(value);
  if (!match) return false;
  const [, y, m, d] = match.map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

function dayNumber(date: string): number {
  if (!isLocalDate(date)) throw new Error(`not a YYYY-MM-DD date: ${date}`);
  const [y, m, d] = date.split("-").map(Number);
  return Math.round(Date.UTC(y, m - 1, d) / DAY_MS);
}

function fromDayNumber(n: number): string {
  return new Date(n * DAY_MS).toISOString().slice(0, 10);
}

/** `date` moved by `days` calendar days (negative goes back). */
export function addDays(date: string, days: number): string {
  return fromDayNumber(dayNumber(date) + days);
}

/** 0 = Monday ... 6 = Sunday (the week starts on Monday). */
export function weekdayIndex(date: string): number {
  // Day 0 of the Unix epoch, 1970-01-01, was a Thursday (index 3).
  return (((dayNumber(date) + 3) % 7) + 7) % 7;
}

/** The seven dates of the Monday-to-Sunday week holding `today`. */
export function weekOf(today: string): string[] {
  const monday = addDays(today, -weekdayIndex(today));
  return Array.from({ length: 7 }, (_, i) => addDays(monday, i));
}

/**
 * Which zone counts for the member's day at `at`. Once the member has acted on a day
 * (`lastActedOn`, a date in the stored zone), that day keeps its zone: a different zone from
 * the browser counts only when the acted day is over in the stored zone and the new zone's
 * date is after it too. So switching zones between UTC+14 and UTC-12 cannot earn two days in
 * one real day, and dates acted on only ever move forward.
 */
export function zoneForToday(input: { stored: string; lastActedOn: string | null; fromBrowser: string | null; at: Date }): string {
  const { stored, lastActedOn, fromBrowser, at } = input;
  if (!fromBrowser || fromBrowser === stored || !isValidTimeZone(fromBrowser)) return stored;
  if (lastActedOn === null) return fromBrowser;
  if (localDate(at, stored) <= lastActedOn) return stored;
  return localDate(at, fromBrowser) > lastActedOn ? fromBrowser : stored;
}

export const WEEKDAY_LETTERS = ["M", "T", "W", "T", "F", "S", "S"] as const;
export const WEEKDAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;

export type WeekDay = {
  /** 0 = Monday ... 6 = Sunday. */
  dayOfWeek: number;
  letter: (typeof WEEKDAY_LETTERS)[number];
  name: (typeof WEEKDAY_NAMES)[number];
  date: string;
  completed: boolean;
  /** A missed day a streak freeze covered. */
  frozen: boolean;
  isToday: boolean;
  isFuture: boolean;
};

/** The week tracker: the member's current week, Monday first. */
export function weeklyCompletions(completedDates: Iterable<string>, today: string, frozenDates: Iterable<string> = []): WeekDay[] {
  const done = new Set(completedDates);
  const frozen = new Set(frozenDates);
  return weekOf(today).map((date, i) => ({
    dayOfWeek: i,
    letter: WEEKDAY_LETTERS[i],
    name: WEEKDAY_NAMES[i],
    date,
    completed: done.has(date),
    frozen: !done.has(date) && frozen.has(date),
    isToday: date === today,
    isFuture: date > today,
  }));
}

/** A member holds at most this many streak freezes; one more earned is not kept. */
export const MAX_FREEZES_HELD = 2;
/** Consecutive done days that earn one streak freeze. */
export const DAYS_PER_FREEZE = 7;

export type StreakWithFreezes = {
  /** Done days in the unbroken run ending today or yesterday (frozen days keep it alive, they don't add). */
  currentStreak: number;
  /** Freezes the member holds now, 0 to MAX_FREEZES_HELD. */
  freezesHeld: number;
  /** Missed days a freeze was used for, ascending. */
  frozenDates: string[];
};

/**
 * The streak with freezes, replayed from the member's whole history so nothing extra is stored:
 *  - every DAYS_PER_FREEZE consecutive done days earn one freeze, up to MAX_FREEZES_HELD;
 *  - a missed day (a day before today with no finish) inside a run uses one freeze, and the run
 *    goes on; with none held the run breaks and the streak starts again from zero;
 *  - a frozen day is not a done day, so the count of consecutive done days for the next freeze
 *    starts again after it (freezes cannot be earned while skipping days).
 * Today is never missed (it is not over). Dates after today and duplicates are ignored.
 */
export function streakWithFreezes(completedDates: Iterable<string>, today: string): StreakWithFreezes {
  const todayNumber = dayNumber(today);
  const done = new Set<number>();
  for (const date of completedDates) if (isLocalDate(date)) done.add(dayNumber(date));
  let first = Infinity;
  for (const n of done) if (n <= todayNumber && n < first) first = n;
  if (first === Infinity) return { currentStreak: 0, freezesHeld: 0, frozenDates: [] };

  let streak = 0;
  let consecutive = 0;
  let freezes = 0;
  let frozen: number[] = [];
  for (let n = first; n <= todayNumber; n++) {
    if (done.has(n)) {
      streak++;
      consecutive++;
      if (consecutive % DAYS_PER_FREEZE === 0) freezes = Math.min(MAX_FREEZES_HELD, freezes + 1);
    } else if (n === todayNumber) {
      // Today is not over: nothing is missed yet.
    } else if (streak > 0 && freezes > 0) {
      freezes--;
      consecutive = 0;
      frozen.push(n);
    } else {
      // The run breaks: freezes used for it no longer matter.
      streak = 0;
      consecutive = 0;
      frozen = [];
    }
  }
  return { currentStreak: streak, freezesHeld: freezes, frozenDates: frozen.map(fromDayNumber) };
}

/** What the member sees of their habit: one streak, one week and one set of freezes per person. */
export type StreakData = {
  currentStreak: number;
  freezesHeld: number;
  weeklyCompletions: WeekDay[];
  /** Today counts: the member finished one of their routines today. */
  doneToday: boolean;
  /** Distinct days up to today on which they finished any routine. */
  daysDone: number;
};

/**
 * The person's streak, week and freezes from the days they finished a routine, whichever plan's
 * (Duolingo's model: a habit belongs to the person, not to a product). Every plan's dates go in
 * together; a day finished on two plans is one day. Dates after today are ignored.
 */
export function memberStreak(finishedDates: Iterable<string>, today: string): StreakData {
  const days = new Set<string>();
  for (const date of finishedDates) if (isLocalDate(date) && date <= today) days.add(date);
  const streak = streakWithFreezes(days, today);
  return {
    currentStreak: streak.currentStreak,
    freezesHeld: streak.freezesHeld,
    weeklyCompletions: weeklyCompletions(days, today, streak.frozenDates),
    doneToday: days.has(today),
    daysDone: days.size,
  };
}
