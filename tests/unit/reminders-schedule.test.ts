import { describe, expect, it } from "vitest";
import { localDate } from "~/members/calendar";
import { instantOfLocalHour, nextReminderAt, retryDelayMs } from "~/members/reminder-schedule";

const LA = "America/Los_Angeles";
const iso = (d: Date) => d.toISOString();

describe("nextReminderAt: the member's hour on their own wall clock", () => {
  it("is today's hour when it has not passed yet, else tomorrow's", () => {
    // 2026-11-24 06:59 in Los Angeles (PST, UTC-8) is 14:59 UTC.
    expect(iso(nextReminderAt({ timeZone: LA, hour: 7, after: new Date("2026-11-24T14:59:00Z") }))).toBe("2026-11-24T15:00:00.000Z");
    expect(iso(nextReminderAt({ timeZone: LA, hour: 7, after: new Date("2026-11-24T15:00:00Z") }))).toBe("2026-11-25T15:00:00.000Z");
    expect(iso(nextReminderAt({ timeZone: "UTC", hour: 8, after: new Date("2026-11-24T07:00:00Z") }))).toBe("2026-11-24T08:00:00.000Z");
  });

  it("is 24 hours apart on normal days and 23 or 25 across daylight-saving changes", () => {
    // Spring forward in Los Angeles: 2026-03-08. 7:00 PST (15:00 UTC) on the 7th, 7:00 PDT (14:00 UTC) on the 8th.
    const sat = nextReminderAt({ timeZone: LA, hour: 7, after: new Date("2026-03-07T12:00:00Z") });
    const sun = nextReminderAt({ timeZone: LA, hour: 7, after: sat });
    expect([iso(sat), iso(sun)]).toEqual(["2026-03-07T15:00:00.000Z", "2026-03-08T14:00:00.000Z"]);
    // Fall back: 2026-11-01. 7:00 PDT (14:00 UTC) on Oct 31, 7:00 PST (15:00 UTC) on Nov 1.
    const oct31 = nextReminderAt({ timeZone: LA, hour: 7, after: new Date("2026-10-31T12:00:00Z") });
    const nov1 = nextReminderAt({ timeZone: LA, hour: 7, after: oct31 });
    expect([iso(oct31), iso(nov1)]).toEqual(["2026-10-31T14:00:00.000Z", "2026-11-01T15:00:00.000Z"]);
  });

  it("sends once on the day an hour is skipped (at the jump) and once on the day it repeats (the first)", () => {
    // 02:00 does not exist on 2026-03-08 in Los Angeles: clocks go 01:59:59 PST → 03:00 PDT (10:00 UTC).
    expect(iso(instantOfLocalHour("2026-03-08", 2, LA))).toBe("2026-03-08T10:00:00.000Z");
    // 01:00 happens twice on 2026-11-01: 08:00 UTC (PDT) and 09:00 UTC (PST). The first.
    expect(iso(instantOfLocalHour("2026-11-01", 1, LA))).toBe("2026-11-01T08:00:00.000Z");
    // A week of 01:00 reminders across fall-back: one per local date, none repeated.
    let at = new Date("2026-10-29T00:00:00Z");
    const dates: string[] = [];
    for (let i = 0; i < 7; i++) {
      at = nextReminderAt({ timeZone: LA, hour: 1, after: at });
      dates.push(localDate(at, LA));
    }
    expect(dates).toEqual(["2026-10-29", "2026-10-30", "2026-10-31", "2026-11-01", "2026-11-02", "2026-11-03", "2026-11-04"]);
    // And 02:00 across spring-forward: one per date.
    at = new Date("2026-03-06T00:00:00Z");
    const spring: string[] = [];
    for (let i = 0; i < 4; i++) {
      at = nextReminderAt({ timeZone: LA, hour: 2, after: at });
      spring.push(localDate(at, LA));
    }
    expect(spring).toEqual(["2026-03-06", "2026-03-07", "2026-03-08", "2026-03-09"]);
  });

  it("works east of UTC, across the date line and year ends", () => {
    // Auckland (NZDT, UTC+13) 8:00 on Jan 1 is 19:00 UTC on Dec 31.
    expect(iso(nextReminderAt({ timeZone: "Pacific/Auckland", hour: 8, after: new Date("2026-12-31T12:00:00Z") }))).toBe("2026-12-31T19:00:00.000Z");
    expect(iso(nextReminderAt({ timeZone: "Pacific/Kiritimati", hour: 0, after: new Date("2026-12-31T09:59:00Z") }))).toBe("2026-12-31T10:00:00.000Z");
    expect(iso(nextReminderAt({ timeZone: "UTC", hour: 23, after: new Date("2026-12-31T23:00:00Z") }))).toBe("2027-01-01T23:00:00.000Z");
    // Half-hour zone: 8:00 in Kolkata (UTC+5:30) is 02:30 UTC.
    expect(iso(nextReminderAt({ timeZone: "Asia/Kolkata", hour: 8, after: new Date("2026-06-01T00:00:00Z") }))).toBe("2026-06-01T02:30:00.000Z");
  });

  it("follows a member who changes zone: the next reminder is at the new zone's hour", () => {
    const after = new Date("2026-11-24T10:00:00Z");
    expect(iso(nextReminderAt({ timeZone: LA, hour: 7, after }))).toBe("2026-11-24T15:00:00.000Z");
    expect(iso(nextReminderAt({ timeZone: "Europe/Berlin", hour: 7, after }))).toBe("2026-11-25T06:00:00.000Z");
  });
});

describe("retryDelayMs", () => {
  it("doubles from a minute up to an hour", () => {
    expect([1, 2, 3, 4, 7, 8, 20].map((n) => retryDelayMs(n) / 60_000)).toEqual([1, 2, 4, 8, 60, 60, 60]);
  });
});

describe("hourLabel", () => {
  it("shows an hour as the member reads it", async () => {
    const { hourLabel } = await import("~/members/reminder-schedule");
    expect([0, 7, 12, 23].map(hourLabel)).toEqual(["12:00 AM", "7:00 AM", "12:00 PM", "11:00 PM"]);
  });
});
