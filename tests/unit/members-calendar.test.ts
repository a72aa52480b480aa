import { describe, expect, it } from "vitest";
import {
  addDays,
  isLocalDate,
  isValidTimeZone,
  localDate,
  memberStreak,
  streakWithFreezes,
  timeZoneOrDefault,
  weekOf,
  weekdayIndex,
  weeklyCompletions,
} from "~/members/calendar";

const AUCKLAND = "Pacific/Auckland";
const LOS_ANGELES = "America/Los_Angeles";

describe("time zones", () => {
  it("accepts IANA names and refuses anything else", () => {
    for (const zone of ["UTC", AUCKLAND, LOS_ANGELES, "Europe/Berlin", "America/Argentina/Buenos_Aires", "Etc/GMT+10"]) {
      expect(isValidTimeZone(zone), zone).toBe(true);
    }
    for (const bad of ["", "Mars/Olympus", "not a zone", "../etc/passwd", "<script>", "x".repeat(65), 42, null, undefined]) {
      expect(isValidTimeZone(bad), String(bad)).toBe(false);
    }
  });

  it("defaults to UTC", () => {
    expect(timeZoneOrDefault("Mars/Olympus")).toBe("UTC");
    expect(timeZoneOrDefault(undefined)).toBe("UTC");
    expect(timeZoneOrDefault(AUCKLAND)).toBe(AUCKLAND);
  });
});

describe("localDate: the member's own calendar day", () => {
  it("is the same instant on different dates around the world", () => {
    // 2026-03-10 11:30 UTC: already the 11th in Auckland (UTC+13), still the 10th in Los Angeles.
    const at = new Date("2026-03-10T11:30:00Z");
    expect(localDate(at, "UTC")).toBe("2026-03-10");
    expect(localDate(at, AUCKLAND)).toBe("2026-03-11");
    expect(localDate(at, LOS_ANGELES)).toBe("2026-03-10");
  });

  it("changes exactly at local midnight in Auckland (just before and just after)", () => {
    // Auckland is UTC+13 in January (daylight time): local midnight of Jan 15 is 11:00 UTC on Jan 14.
    expect(localDate(new Date("2026-01-14T10:59:59Z"), AUCKLAND)).toBe("2026-01-14");
    expect(localDate(new Date("2026-01-14T11:00:00Z"), AUCKLAND)).toBe("2026-01-15");
  });

  it("changes exactly at local midnight in Los Angeles (just before and just after)", () => {
    // Los Angeles is UTC-8 in January: local midnight of Jan 15 is 08:00 UTC on Jan 15.
    expect(localDate(new Date("2026-01-15T07:59:59Z"), LOS_ANGELES)).toBe("2026-01-14");
    expect(localDate(new Date("2026-01-15T08:00:00Z"), LOS_ANGELES)).toBe("2026-01-15");
  });

  it("follows daylight-saving changes (midnight moves by an hour)", () => {
    // Los Angeles springs forward on 2026-03-08: from then on midnight is 07:00 UTC.
    expect(localDate(new Date("2026-03-09T06:59:59Z"), LOS_ANGELES)).toBe("2026-03-08");
    expect(localDate(new Date("2026-03-09T07:00:00Z"), LOS_ANGELES)).toBe("2026-03-09");
    // Auckland leaves daylight time on 2026-04-05: midnight of Apr 6 is 12:00 UTC on Apr 5.
    expect(localDate(new Date("2026-04-05T11:59:59Z"), AUCKLAND)).toBe("2026-04-05");
    expect(localDate(new Date("2026-04-05T12:00:00Z"), AUCKLAND)).toBe("2026-04-06");
  });

  it("crosses the year boundary in the member's zone, not the server's", () => {
    const at = new Date("2025-12-31T12:30:00Z");
    expect(localDate(at, AUCKLAND)).toBe("2026-01-01");
    expect(localDate(at, LOS_ANGELES)).toBe("2025-12-31");
    expect(localDate(new Date("2026-01-01T07:59:00Z"), LOS_ANGELES)).toBe("2025-12-31");
  });

  it("falls back to UTC for an unknown zone", () => {
    expect(localDate(new Date("2026-01-14T23:30:00Z"), "Mars/Olympus")).toBe("2026-01-14");
  });
});

describe("date arithmetic", () => {
  it("checks real dates", () => {
    expect(isLocalDate("2028-02-29")).toBe(true);
    expect(isLocalDate("2026-02-29")).toBe(false);
    expect(isLocalDate("2026-13-01")).toBe(false);
    expect(isLocalDate("2026-1-01")).toBe(false);
    expect(isLocalDate("2026-01-01T00:00")).toBe(false);
  });

  it("adds days across months, leap days and years", () => {
    expect(addDays("2026-01-31", 1)).toBe("2026-02-01");
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
    expect(addDays("2028-03-01", -1)).toBe("2028-02-29");
    expect(addDays("2025-12-31", 1)).toBe("2026-01-01");
    expect(addDays("2026-01-01", -1)).toBe("2025-12-31");
    // Daylight-saving Sundays are ordinary days for date arithmetic.
    expect(addDays("2026-03-07", 2)).toBe("2026-03-09");
    expect(addDays("2026-11-01", -1)).toBe("2026-10-31");
  });

  it("knows the weekday, Monday first", () => {
    expect(weekdayIndex("2026-11-23")).toBe(0); // a Monday
    expect(weekdayIndex("2026-11-29")).toBe(6); // a Sunday
    expect(weekdayIndex("1970-01-01")).toBe(3); // a Thursday
    expect(weekdayIndex("1969-12-29")).toBe(0); // before the epoch: a Monday
  });
});

describe("currentStreak", () => {
  const today = "2026-11-25";
  // Runs shorter than a week earn no freeze: the streak is the plain count of consecutive days.
  const currentStreak = (dates: string[], on: string) => memberStreak(dates, on).currentStreak;

  it("is 0 with no completions", () => {
    expect(currentStreak([], today)).toBe(0);
  });

  it("counts consecutive days ending today", () => {
    expect(currentStreak(["2026-11-25"], today)).toBe(1);
    expect(currentStreak(["2026-11-23", "2026-11-24", "2026-11-25"], today)).toBe(3);
  });

  it("keeps yesterday's streak while today is not done yet", () => {
    expect(currentStreak(["2026-11-23", "2026-11-24"], today)).toBe(2);
  });

  it("is broken by a gap", () => {
    expect(currentStreak(["2026-11-20", "2026-11-21", "2026-11-23"], today)).toBe(0);
    expect(currentStreak(["2026-11-20", "2026-11-21", "2026-11-23", "2026-11-24", "2026-11-25"], today)).toBe(3);
    expect(currentStreak(["2026-11-22", "2026-11-23", "2026-11-25"], today)).toBe(1);
  });

  it("ignores duplicates, order, bad strings and future dates", () => {
    expect(currentStreak(["2026-11-25", "2026-11-24", "2026-11-25", "nope", "2026-11-26"], today)).toBe(2);
  });

  it("runs across a year boundary", () => {
    expect(currentStreak(["2025-12-30", "2025-12-31", "2026-01-01", "2026-01-02"], "2026-01-02")).toBe(4);
    expect(currentStreak(["2025-12-31"], "2026-01-01")).toBe(1);
  });

  it("runs across a daylight-saving change", () => {
    expect(currentStreak(["2026-03-07", "2026-03-08", "2026-03-09"], "2026-03-09")).toBe(3);
    expect(currentStreak(["2026-10-31", "2026-11-01", "2026-11-02"], "2026-11-02")).toBe(3);
  });

  it("counts a long streak", () => {
    const dates = Array.from({ length: 400 }, (_, i) => addDays(today, -i));
    expect(currentStreak(dates, today)).toBe(400);
  });

  it("uses the member's day: a completion at 23:50 in Auckland counts for the Auckland date", () => {
    // 23:50 on Jan 14 in Auckland (UTC+13) is 10:50 UTC, Jan 14.
    const doneAt = localDate(new Date("2026-01-14T10:50:00Z"), AUCKLAND);
    expect(doneAt).toBe("2026-01-14");
    // Twenty minutes later it is Jan 15 there: the streak holds (yesterday done), today still open.
    const laterToday = localDate(new Date("2026-01-14T11:10:00Z"), AUCKLAND);
    expect(laterToday).toBe("2026-01-15");
    expect(currentStreak([doneAt], laterToday)).toBe(1);
    // In UTC both instants are Jan 14: the same completion would count for "today".
    expect(localDate(new Date("2026-01-14T11:10:00Z"), "UTC")).toBe("2026-01-14");
  });

  it("uses the member's day: a completion just after midnight in Los Angeles starts a new day", () => {
    const before = localDate(new Date("2026-01-15T07:59:00Z"), LOS_ANGELES); // 23:59 Jan 14
    const after = localDate(new Date("2026-01-15T08:01:00Z"), LOS_ANGELES); // 00:01 Jan 15
    expect([before, after]).toEqual(["2026-01-14", "2026-01-15"]);
    expect(currentStreak([before, after], after)).toBe(2);
    // Two days later in Los Angeles, the streak is gone.
    const twoDaysLater = localDate(new Date("2026-01-17T08:30:00Z"), LOS_ANGELES);
    expect(currentStreak([before, after], twoDaysLater)).toBe(0);
  });
});

/** `count` consecutive dates ending on `last`. */
function run(last: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => addDays(last, i - count + 1));
}

describe("streakWithFreezes", () => {
  it("earns one freeze per 7 consecutive done days, holding at most 2", () => {
    const today = "2026-11-25";
    expect(streakWithFreezes(run(today, 6), today)).toEqual({ currentStreak: 6, freezesHeld: 0, frozenDates: [] });
    expect(streakWithFreezes(run(today, 7), today)).toEqual({ currentStreak: 7, freezesHeld: 1, frozenDates: [] });
    expect(streakWithFreezes(run(today, 13), today).freezesHeld).toBe(1);
    expect(streakWithFreezes(run(today, 14), today).freezesHeld).toBe(2);
    expect(streakWithFreezes(run(today, 21), today).freezesHeld).toBe(2);
    expect(streakWithFreezes(run(today, 400), today)).toEqual({ currentStreak: 400, freezesHeld: 2, frozenDates: [] });
  });

  it("uses a freeze for a missed day, so the streak survives (the frozen day does not add to it)", () => {
    // Done Nov 11-17 (7 days: one freeze), Nov 18 missed, Nov 19 done.
    const dates = [...run("2026-11-17", 7), "2026-11-19"];
    expect(streakWithFreezes(dates, "2026-11-19")).toEqual({ currentStreak: 8, freezesHeld: 0, frozenDates: ["2026-11-18"] });
    // Seen on the missed day's next day before finishing: still alive, freeze already used.
    expect(streakWithFreezes(run("2026-11-17", 7), "2026-11-19")).toEqual({ currentStreak: 7, freezesHeld: 0, frozenDates: ["2026-11-18"] });
  });

  it("does not use a freeze for today, which is not over", () => {
    expect(streakWithFreezes(run("2026-11-17", 7), "2026-11-18")).toEqual({ currentStreak: 7, freezesHeld: 1, frozenDates: [] });
  });

  it("covers two missed days with two freezes, and breaks on a third", () => {
    const fourteen = run("2026-11-14", 14);
    expect(streakWithFreezes([...fourteen, "2026-11-17"], "2026-11-17")).toEqual({
      currentStreak: 15,
      freezesHeld: 0,
      frozenDates: ["2026-11-15", "2026-11-16"],
    });
    expect(streakWithFreezes([...fourteen, "2026-11-18"], "2026-11-18")).toEqual({ currentStreak: 1, freezesHeld: 0, frozenDates: [] });
    // Without finishing, three missed days end the streak.
    expect(streakWithFreezes(fourteen, "2026-11-18")).toEqual({ currentStreak: 0, freezesHeld: 0, frozenDates: [] });
  });

  it("breaks a streak on a missed day when no freeze is held, as before", () => {
    expect(streakWithFreezes(["2026-11-20", "2026-11-21", "2026-11-23"], "2026-11-25")).toEqual({ currentStreak: 0, freezesHeld: 0, frozenDates: [] });
    expect(streakWithFreezes(["2026-11-22", "2026-11-23", "2026-11-25"], "2026-11-25").currentStreak).toBe(1);
  });

  it("starts counting 7 days again after a frozen day (no freezes earned while skipping days)", () => {
    // 7 done (freeze), miss (used), 6 done: no new freeze yet; a 7th after the gap earns one.
    const dates = [...run("2026-11-07", 7), ...run("2026-11-14", 6)];
    expect(streakWithFreezes(dates, "2026-11-14").freezesHeld).toBe(0);
    expect(streakWithFreezes([...dates, "2026-11-15"], "2026-11-15")).toMatchObject({ currentStreak: 14, freezesHeld: 1 });
  });

  it("ignores duplicates, bad strings and dates after today", () => {
    const dates = [...run("2026-11-17", 7), "2026-11-17", "nope", "2026-11-30"];
    expect(streakWithFreezes(dates, "2026-11-18")).toEqual({ currentStreak: 7, freezesHeld: 1, frozenDates: [] });
    expect(streakWithFreezes(["2026-12-01"], "2026-11-18")).toEqual({ currentStreak: 0, freezesHeld: 0, frozenDates: [] });
  });

  it("runs across a year end and a leap day", () => {
    const dates = [...run("2026-12-31", 7), "2027-01-02"];
    expect(streakWithFreezes(dates, "2027-01-02")).toEqual({ currentStreak: 8, freezesHeld: 0, frozenDates: ["2027-01-01"] });
    const leap = [...run("2028-02-28", 7), "2028-03-01"];
    expect(streakWithFreezes(leap, "2028-03-01").frozenDates).toEqual(["2028-02-29"]);
  });

  it("runs across daylight-saving changes in the member's zone", () => {
    // Los Angeles springs forward on 2026-03-08 (a 23-hour day) and falls back on 2026-11-01 (25 hours).
    const spring = run("2026-03-07", 7).concat("2026-03-09");
    expect(streakWithFreezes(spring, "2026-03-09")).toEqual({ currentStreak: 8, freezesHeld: 0, frozenDates: ["2026-03-08"] });
    // Finishes at 00:30 local on each day around fall-back, dated in Los Angeles: every day counts once.
    const finishes = [
      "2026-10-26T07:30:00Z",
      "2026-10-27T07:30:00Z",
      "2026-10-28T07:30:00Z",
      "2026-10-29T07:30:00Z",
      "2026-10-30T07:30:00Z",
      "2026-10-31T07:30:00Z",
      "2026-11-01T07:30:00Z",
      "2026-11-03T08:30:00Z",
    ];
    const dates2 = finishes.map((at) => localDate(new Date(at), LOS_ANGELES));
    expect(dates2).toEqual([...run("2026-11-01", 7), "2026-11-03"]);
    const today = localDate(new Date("2026-11-03T09:00:00Z"), LOS_ANGELES);
    expect(streakWithFreezes(dates2, today)).toEqual({ currentStreak: 8, freezesHeld: 0, frozenDates: ["2026-11-02"] });
  });

  it("uses the member's own today: the same history is frozen in Los Angeles but not yet in Auckland's past", () => {
    const dates = run("2026-11-17", 7);
    const at = new Date("2026-11-19T10:00:00Z"); // Nov 19 02:00 in Los Angeles, Nov 19 23:00 in Auckland
    expect(streakWithFreezes(dates, localDate(at, LOS_ANGELES)).frozenDates).toEqual(["2026-11-18"]);
    const atEarlier = new Date("2026-11-18T09:00:00Z"); // Nov 18 01:00 in LA (today, not missed), Nov 18 22:00 in Auckland
    expect(streakWithFreezes(dates, localDate(atEarlier, LOS_ANGELES))).toMatchObject({ freezesHeld: 1, frozenDates: [] });
    expect(streakWithFreezes(dates, localDate(atEarlier, AUCKLAND))).toMatchObject({ freezesHeld: 1, frozenDates: [] });
  });
});

describe("weekOf and weeklyCompletions", () => {
  it("marks frozen days apart from done days", () => {
    const week = weeklyCompletions(["2026-11-23", "2026-11-25"], "2026-11-25", ["2026-11-24"]);
    expect(week.slice(0, 3).map((day) => [day.completed, day.frozen])).toEqual([
      [true, false],
      [false, true],
      [true, false],
    ]);
  });

  it("is the Monday-to-Sunday week holding today", () => {
    const week = ["2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26", "2026-11-27", "2026-11-28", "2026-11-29"];
    expect(weekOf("2026-11-23")).toEqual(week);
    expect(weekOf("2026-11-26")).toEqual(week);
    expect(weekOf("2026-11-29")).toEqual(week);
    expect(weekOf("2026-11-30")[0]).toBe("2026-11-30");
  });

  it("spans a year boundary", () => {
    // 2026-01-01 is a Thursday; its week starts Monday 2025-12-29.
    expect(weekOf("2026-01-01")).toEqual(["2025-12-29", "2025-12-30", "2025-12-31", "2026-01-01", "2026-01-02", "2026-01-03", "2026-01-04"]);
  });

  it("marks completed days, today and the days still to come", () => {
    const week = weeklyCompletions(["2026-11-22", "2026-11-23", "2026-11-25"], "2026-11-25");
    expect(week.map((d) => d.letter).join("")).toBe("MTWTFSS");
    expect(week.map((d) => d.completed)).toEqual([true, false, true, false, false, false, false]);
    expect(week.map((d) => d.isToday)).toEqual([false, false, true, false, false, false, false]);
    expect(week.map((d) => d.isFuture)).toEqual([false, false, false, true, true, true, true]);
    expect(week[0]).toMatchObject({ dayOfWeek: 0, name: "Monday", date: "2026-11-23" });
  });

  it("on a Sunday in Auckland the week ends today; in Los Angeles it is still Saturday", () => {
    const at = new Date("2026-11-29T02:00:00Z"); // Sunday 15:00 in Auckland, Saturday 18:00 in Los Angeles
    const auckland = weeklyCompletions([], localDate(at, AUCKLAND));
    const losAngeles = weeklyCompletions([], localDate(at, LOS_ANGELES));
    expect(auckland.find((d) => d.isToday)?.name).toBe("Sunday");
    expect(losAngeles.find((d) => d.isToday)?.name).toBe("Saturday");
    // Both are the week of Monday 2026-11-23.
    expect(auckland[0].date).toBe("2026-11-23");
    expect(losAngeles[0].date).toBe("2026-11-23");
  });

  it("starts a new week at local midnight between Sunday and Monday", () => {
    // Monday 2026-11-30 00:00 in Auckland (UTC+13) is 11:00 UTC on Sunday 2026-11-29.
    expect(weekOf(localDate(new Date("2026-11-29T10:59:00Z"), AUCKLAND))[0]).toBe("2026-11-23");
    expect(weekOf(localDate(new Date("2026-11-29T11:00:00Z"), AUCKLAND))[0]).toBe("2026-11-30");
  });
});

describe("memberStreak: one streak per person, whichever routine they finished", () => {
  // Each plan's finished dates, as PlanCompletion rows hold them (one row per plan and day).
  const skincare = ["2026-11-20", "2026-11-21", "2026-11-23"];
  const makeup = ["2026-11-22", "2026-11-23"];

  it("counts a day finished on plan A then plan B once, and days on either plan as one run", () => {
    const streak = memberStreak([...skincare, ...makeup], "2026-11-24");
    expect(streak).toMatchObject({ currentStreak: 4, freezesHeld: 0, doneToday: false, daysDone: 4 });
    // The week of Monday 2026-11-23: Monday done (on both plans), today open.
    expect(streak.weeklyCompletions.map((d) => d.completed)).toEqual([true, false, false, false, false, false, false]);
    expect(memberStreak([...skincare, ...makeup, "2026-11-24"], "2026-11-24")).toMatchObject({ currentStreak: 5, doneToday: true, daysDone: 5 });
  });

  it("earns freezes from days on different plans", () => {
    // Four days of skincare, then three of makeup prep: seven in a row, one freeze.
    const dates = [...run("2026-11-19", 4), ...run("2026-11-22", 3)];
    expect(memberStreak(dates, "2026-11-22")).toMatchObject({ currentStreak: 7, freezesHeld: 1 });
  });

  it("uses a freeze earned on plan A for a day missed before finishing plan B", () => {
    // Skincare Mon 16 - Sun 22 (a freeze), nothing on Mon 23, makeup prep on Tue 24; seen on Wed 25.
    const streak = memberStreak([...run("2026-11-22", 7), "2026-11-24"], "2026-11-25");
    expect(streak).toMatchObject({ currentStreak: 8, freezesHeld: 0, doneToday: false, daysDone: 8 });
    expect(streak.weeklyCompletions.map((d) => (d.completed ? "done" : d.frozen ? "frozen" : "-"))).toEqual(["frozen", "done", "-", "-", "-", "-", "-"]);
  });

  it("ignores dates after today and is empty without any", () => {
    expect(memberStreak(["2026-11-26"], "2026-11-25")).toMatchObject({ currentStreak: 0, doneToday: false, daysDone: 0 });
    expect(memberStreak([], "2026-11-25")).toMatchObject({ currentStreak: 0, freezesHeld: 0, doneToday: false, daysDone: 0 });
  });
});
