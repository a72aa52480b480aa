import { beforeEach, describe, expect, it } from "vitest";
import { isDoneOn, recordCompletion, recordStepDone, stepsDoneOn, streakData } from "~/members/completions.server";
import { holdDay, memberToday, timeZoneFromCookie } from "~/members/time-zone.server";
import { zoneForToday } from "~/members/calendar";
import { db } from "~/utils/db.server";

const PLAN = "clear-healthy-skin";
let userId: string;

beforeEach(async () => {
  const user = await db.user.create({ data: { email: `member-${crypto.randomUUID()}@glowcoach.test` } });
  userId = user.id;
});

describe("recordCompletion", () => {
  it("records a day once; finishing again the same day is a success, not a second row", async () => {
    expect(await recordCompletion(userId, PLAN, "2026-11-23", new Date(), 0)).toEqual({ recorded: "new" });
    expect(await recordCompletion(userId, PLAN, "2026-11-23", new Date(), 0)).toEqual({ recorded: "already-done" });
    expect(await db.planCompletion.count({ where: { userId } })).toBe(1);
    expect(await isDoneOn(userId, PLAN, "2026-11-23")).toBe(true);
    expect(await isDoneOn(userId, PLAN, "2026-11-24")).toBe(false);
  });

  it("never creates two rows under concurrent requests, and loses none across members", async () => {
    const other = (await db.user.create({ data: { email: `other-${crypto.randomUUID()}@glowcoach.test` } })).id;
    const outcomes = await Promise.all(Array.from({ length: 40 }, (_, i) => recordCompletion(i % 2 ? userId : other, PLAN, "2026-11-23", new Date(), 0)));
    expect(outcomes.filter((o) => o.recorded === "new")).toHaveLength(2);
    expect(await db.planCompletion.count({ where: { userId } })).toBe(1);
    expect(await db.planCompletion.count({ where: { userId: other } })).toBe(1);
  });

  it("keeps plans and dates apart", async () => {
    await recordCompletion(userId, PLAN, "2026-11-23", new Date(), 0);
    await recordCompletion(userId, "another-plan", "2026-11-23", new Date(), 0);
    await recordCompletion(userId, PLAN, "2026-11-24", new Date(), 0);
    expect(await db.planCompletion.count({ where: { userId } })).toBe(3);
  });
});

describe("finishing needs the day's steps", () => {
  it("records nothing while a step of that day is missing, then records the day once they are all done", async () => {
    for (const step of [1, 2, 3, 4, 5]) await recordStepDone(userId, PLAN, "2026-11-23", step, new Date());
    // Yesterday's sixth step does not count for today.
    await recordStepDone(userId, PLAN, "2026-11-22", 6, new Date());
    expect(await recordCompletion(userId, PLAN, "2026-11-23", new Date(), 6)).toEqual({ recorded: "steps-missing" });
    expect(await db.planCompletion.count({ where: { userId } })).toBe(0);
    await recordStepDone(userId, PLAN, "2026-11-23", 6, new Date());
    expect(await recordCompletion(userId, PLAN, "2026-11-23", new Date(), 6)).toEqual({ recorded: "new" });
    expect(await recordCompletion(userId, PLAN, "2026-11-23", new Date(), 6)).toEqual({ recorded: "already-done" });
    expect(await db.planCompletion.count({ where: { userId } })).toBe(1);
  });

  it("stores the time it was given, readable by Prisma", async () => {
    const at = new Date("2026-11-23T21:04:05.678Z");
    await recordCompletion(userId, PLAN, "2026-11-23", at, 0);
    expect((await db.planCompletion.findFirstOrThrow({ where: { userId } })).createdAt.toISOString()).toBe(at.toISOString());
  });
});

describe("steps done today", () => {
  it("keeps each step once, per day", async () => {
    await Promise.all([recordStepDone(userId, PLAN, "2026-11-23", 2, new Date()), recordStepDone(userId, PLAN, "2026-11-23", 2, new Date())]);
    await recordStepDone(userId, PLAN, "2026-11-23", 1, new Date());
    await recordStepDone(userId, PLAN, "2026-11-22", 3, new Date());
    expect(await stepsDoneOn(userId, PLAN, "2026-11-23")).toEqual([1, 2]);
    expect(await stepsDoneOn(userId, PLAN, "2026-11-24")).toEqual([]);
  });
});

describe("streakData", () => {
  it("reads the streak and the week from stored days", async () => {
    for (const date of ["2026-11-20", "2026-11-22", "2026-11-23", "2026-11-24"]) await recordCompletion(userId, PLAN, date, new Date(), 0);
    const data = await streakData(userId, "2026-11-25");
    expect(data.currentStreak).toBe(3);
    expect(data.doneToday).toBe(false);
    expect(data.weeklyCompletions.map((d) => d.completed)).toEqual([true, true, false, false, false, false, false]);
    await recordCompletion(userId, PLAN, "2026-11-25", new Date(), 0);
    expect((await streakData(userId, "2026-11-25")).currentStreak).toBe(4);
    expect((await streakData(userId, "2026-11-25")).doneToday).toBe(true);
  });

  it("is the person's: days finished on any plan count, a day on two plans once, and another member's never", async () => {
    await recordCompletion(userId, PLAN, "2026-11-23", new Date(), 0);
    await recordCompletion(userId, "makeup-prep", "2026-11-23", new Date(), 0);
    await recordCompletion(userId, "makeup-prep", "2026-11-24", new Date(), 0);
    const other = (await db.user.create({ data: { email: `other-${crypto.randomUUID()}@glowcoach.test` } })).id;
    await recordCompletion(other, PLAN, "2026-11-25", new Date(), 0);
    expect(await streakData(userId, "2026-11-25")).toMatchObject({ currentStreak: 2, doneToday: false, daysDone: 2 });
    await recordCompletion(userId, "crease-free", "2026-11-25", new Date(), 0);
    const data = await streakData(userId, "2026-11-25");
    expect(data).toMatchObject({ currentStreak: 3, doneToday: true, daysDone: 3 });
    expect(data.weeklyCompletions.map((d) => d.completed)).toEqual([true, true, true, false, false, false, false]);
  });
});

describe("the member's time zone", () => {
  const request = (cookie?: string) => new Request("http://localhost/home", { headers: cookie ? { Cookie: cookie } : {} });
  const sessionUser = async () => {
    const user = await db.user.findUniqueOrThrow({ where: { id: userId } });
    return { id: user.id, email: user.email, name: null, role: "user" as const, timeZone: user.timeZone, lastActedOn: user.lastActedOn };
  };

  it("reads a valid zone from the cookie and ignores junk", () => {
    expect(timeZoneFromCookie("a=1; gc_tz=Pacific%2FAuckland; b=2")).toBe("Pacific/Auckland");
    expect(timeZoneFromCookie("gc_tz=Mars%2FOlympus")).toBeNull();
    expect(timeZoneFromCookie("gc_tz=%E0%A4%A")).toBeNull();
    expect(timeZoneFromCookie(null)).toBeNull();
  });

  it("defaults to UTC, stores a browser's zone, prefers the form field, and ignores invalid values", async () => {
    expect((await memberToday(await sessionUser(), request().headers.get("Cookie"))).timeZone).toBe("UTC");
    expect((await memberToday(await sessionUser(), request("gc_tz=America%2FLos_Angeles").headers.get("Cookie"))).timeZone).toBe("America/Los_Angeles");
    expect((await db.user.findUniqueOrThrow({ where: { id: userId } })).timeZone).toBe("America/Los_Angeles");
    expect((await memberToday(await sessionUser(), request("gc_tz=America%2FLos_Angeles").headers.get("Cookie"), "Pacific/Auckland")).timeZone).toBe(
      "Pacific/Auckland",
    );
    expect((await memberToday(await sessionUser(), request("gc_tz=nope").headers.get("Cookie"), "Not/AZone")).timeZone).toBe("Pacific/Auckland");
    expect((await db.user.findUniqueOrThrow({ where: { id: userId } })).timeZone).toBe("Pacific/Auckland");
  });
});

describe("a day's time zone is fixed once the member has acted on it", () => {
  // 2026-11-24 10:00 UTC: 2026-11-25 in Kiritimati (UTC+14), 2026-11-23 in Etc/GMT+12 (UTC-12).
  const at = new Date("2026-11-24T10:00:00Z");
  const KIRITIMATI = "Pacific/Kiritimati";
  const MINUS_12 = "Etc/GMT+12";

  it("a new zone applies at once while nothing was done yet", () => {
    expect(zoneForToday({ stored: "UTC", lastActedOn: null, fromBrowser: KIRITIMATI, at })).toBe(KIRITIMATI);
  });

  it("after acting, the day keeps its zone until it is over there and the new zone's date is after it", () => {
    const acted = { stored: KIRITIMATI, lastActedOn: "2026-11-25" };
    expect(zoneForToday({ ...acted, fromBrowser: MINUS_12, at })).toBe(KIRITIMATI);
    // A day later Kiritimati is on the 26th, but UTC-12 only reaches the 25th: still fixed.
    expect(zoneForToday({ ...acted, fromBrowser: MINUS_12, at: new Date("2026-11-25T12:00:00Z") })).toBe(KIRITIMATI);
    // Once UTC-12's date is past the acted day too, the change counts.
    expect(zoneForToday({ ...acted, fromBrowser: MINUS_12, at: new Date("2026-11-26T13:00:00Z") })).toBe(MINUS_12);
    // Moving east is the same: the acted day must be over first.
    expect(zoneForToday({ stored: MINUS_12, lastActedOn: "2026-11-23", fromBrowser: KIRITIMATI, at })).toBe(MINUS_12);
    expect(zoneForToday({ stored: MINUS_12, lastActedOn: "2026-11-23", fromBrowser: KIRITIMATI, at: new Date("2026-11-24T12:00:00Z") })).toBe(KIRITIMATI);
  });

  it("ignores an invalid or unchanged zone", () => {
    expect(zoneForToday({ stored: "UTC", lastActedOn: null, fromBrowser: "Mars/Olympus", at })).toBe("UTC");
    expect(zoneForToday({ stored: "UTC", lastActedOn: "2026-11-24", fromBrowser: null, at })).toBe("UTC");
  });

  it("holding a day refuses a zone that changed in between, and a day before the one held", async () => {
    const user = await db.user.create({ data: { email: `hold-${Date.now()}@example.com`, timeZone: KIRITIMATI } });
    const member = { id: user.id, email: user.email, name: null, role: "user" as const, timeZone: KIRITIMATI, lastActedOn: null };
    expect(await holdDay(member, KIRITIMATI, "2026-11-25")).toBe(true);
    expect(await holdDay(member, MINUS_12, "2026-11-23")).toBe(false);
    expect(await holdDay({ ...member, lastActedOn: "2026-11-25" }, KIRITIMATI, "2026-11-24")).toBe(false);
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).lastActedOn).toBe("2026-11-25");
  });
});
