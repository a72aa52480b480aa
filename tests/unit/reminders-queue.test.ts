import { beforeEach, describe, expect, it } from "vitest";
import type { OutgoingEmail } from "~/email/mailer.server";
import { recordCompletion } from "~/members/completions.server";
import { planFromRoutineLink, routineLink, unsubscribeLink, userFromUnsubscribeToken } from "~/reminders/links.server";
import { claimDueReminders, LEASE_MS, runDueReminders } from "~/reminders/reminders.server";
import { rescheduleForTimeZone, saveReminderSettings, turnRemindersOff } from "~/members/reminder-settings.server";
import { retryDelayMs } from "~/members/reminder-schedule";
import { db } from "~/utils/db.server";
import { grantPlan } from "./helpers";

const LA = "America/Los_Angeles";
const PLAN = "clear-healthy-skin";
// 2026-12-10 07:00 in Los Angeles (PST, UTC-8).
const SEVEN_LA = new Date("2026-12-10T15:00:00Z");
const EVENING_BEFORE = new Date("2026-12-09T20:00:00Z");

let userId: string;
let email: string;

async function member(timeZone = LA): Promise<{ id: string; email: string }> {
  const address = `member-${crypto.randomUUID()}@glowcoach.test`;
  const user = await db.user.create({ data: { email: address, timeZone } });
  await grantPlan(user.id, PLAN, { at: new Date("2026-11-01T00:00:00Z") });
  return { id: user.id, email: address };
}

function outbox() {
  const sent: OutgoingEmail[] = [];
  return { sent, send: async (message: OutgoingEmail) => void sent.push(message) };
}

const mine = (sent: OutgoingEmail[], to = email) => sent.filter((m) => m.to === to);

beforeEach(async () => {
  ({ id: userId, email } = await member());
});

describe("reminder settings", () => {
  it("are off by default; on schedules the next hour in the member's zone; off removes the job", async () => {
    expect(await db.user.findUniqueOrThrow({ where: { id: userId } })).toMatchObject({ reminderOn: false, reminderHour: 8 });
    await saveReminderSettings(userId, { on: true, hour: 7 }, EVENING_BEFORE);
    expect((await db.reminderJob.findUniqueOrThrow({ where: { userId } })).dueAt.toISOString()).toBe(SEVEN_LA.toISOString());
    await saveReminderSettings(userId, { on: false, hour: 7 }, EVENING_BEFORE);
    expect(await db.reminderJob.count({ where: { userId } })).toBe(0);
  });

  it("follows a change of time zone: the next reminder is at the new zone's hour", async () => {
    await saveReminderSettings(userId, { on: true, hour: 7 }, EVENING_BEFORE);
    await db.user.update({ where: { id: userId }, data: { timeZone: "Europe/Berlin" } });
    await rescheduleForTimeZone(userId, "Europe/Berlin", EVENING_BEFORE);
    // 20:00 UTC on Dec 9 is 21:00 in Berlin: next 7:00 there is 06:00 UTC on Dec 10.
    expect((await db.reminderJob.findUniqueOrThrow({ where: { userId } })).dueAt.toISOString()).toBe("2026-12-10T06:00:00.000Z");
  });
});

describe("a new time zone from the browser", () => {
  it("moves the next reminder to the hour in the new zone", async () => {
    const { memberToday } = await import("~/members/time-zone.server");
    const { nextReminderAt } = await import("~/members/reminder-schedule");
    const { TIME_ZONE_COOKIE } = await import("~/members/time-zone");
    await saveReminderSettings(userId, { on: true, hour: 7 });
    const user = await db.user.findUniqueOrThrow({ where: { id: userId } });
    const request = new Request("http://localhost/home", { headers: { Cookie: `${TIME_ZONE_COOKIE}=${encodeURIComponent("Europe/Berlin")}` } });
    const { timeZone, at } = await memberToday({ ...user, role: "user" }, request.headers.get("Cookie"));
    expect(timeZone).toBe("Europe/Berlin");
    const job = await db.reminderJob.findUniqueOrThrow({ where: { userId } });
    expect(job.dueAt.toISOString()).toBe(nextReminderAt({ timeZone: "Europe/Berlin", hour: 7, after: at }).toISOString());
  });
});

describe("sending", () => {
  it("sends one reminder at the hour, naming the plan and the streak, then schedules tomorrow's", async () => {
    for (const date of ["2026-12-07", "2026-12-08", "2026-12-09"]) await recordCompletion(userId, PLAN, date, new Date(), 0);
    await saveReminderSettings(userId, { on: true, hour: 7 }, EVENING_BEFORE);
    const box = outbox();
    await runDueReminders(new Date(SEVEN_LA.getTime() - 1000), box.send);
    expect(mine(box.sent)).toHaveLength(0);
    await runDueReminders(SEVEN_LA, box.send);
    await runDueReminders(new Date(SEVEN_LA.getTime() + 60_000), box.send);
    const [message, ...more] = mine(box.sent);
    expect(more).toHaveLength(0);
    expect(message.subject).toBe("Keep your 3-day streak going");
    expect(message.text).toContain("Clear & Healthy Skin");
    expect(message.text).toContain(routineLink(PLAN));
    expect(message.html).toContain("Open Today&#39;s Routine");
    expect(message.headers).toEqual({ "List-Unsubscribe": `<${unsubscribeLink(userId)}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" });
    const job = await db.reminderJob.findUniqueOrThrow({ where: { userId } });
    expect(job).toMatchObject({ lastSentOn: "2026-12-10", leaseId: null, attempts: 0 });
    expect(job.dueAt.toISOString()).toBe("2026-12-11T15:00:00.000Z");
  });

  it("sends nothing to a member who already finished today, and reminds them the next day", async () => {
    await recordCompletion(userId, PLAN, "2026-12-10", new Date(), 0);
    await saveReminderSettings(userId, { on: true, hour: 7 }, EVENING_BEFORE);
    const box = outbox();
    await runDueReminders(SEVEN_LA, box.send);
    expect(mine(box.sent)).toHaveLength(0);
    expect((await db.reminderJob.findUniqueOrThrow({ where: { userId } })).dueAt.toISOString()).toBe("2026-12-11T15:00:00.000Z");
    await runDueReminders(new Date("2026-12-11T15:00:00Z"), box.send);
    expect(mine(box.sent).map((m) => m.subject)).toEqual(["Keep your 1-day streak going"]);
  });

  it("counts every plan the member has: no reminder after another plan's routine, and the streak carries over", async () => {
    // Two days of skincare, then Makeup Prep bought (now the followed plan).
    for (const date of ["2026-12-08", "2026-12-09"]) await recordCompletion(userId, PLAN, date, new Date(), 0);
    await grantPlan(userId, "makeup-prep", { at: new Date("2026-12-09T20:00:00Z") });
    await saveReminderSettings(userId, { on: true, hour: 7 }, EVENING_BEFORE);
    const box = outbox();
    await runDueReminders(SEVEN_LA, box.send);
    const [message] = mine(box.sent);
    expect(message.subject).toBe("Keep your 2-day streak going");
    expect(message.text).toContain("Today's Makeup Prep routine is waiting");
    expect(message.text).not.toContain("start a new streak");
    // On the 11th the member finished the skincare routine before the hour: the day counts, no e-mail.
    await recordCompletion(userId, PLAN, "2026-12-11", new Date(), 0);
    expect((await runDueReminders(new Date("2026-12-11T15:00:00Z"), box.send))["done-today"]).toBeGreaterThanOrEqual(1);
    expect(mine(box.sent)).toHaveLength(1);
  });

  it("skips a day whose local date is over by the time it runs (the app was down)", async () => {
    await saveReminderSettings(userId, { on: true, hour: 7 }, EVENING_BEFORE);
    const box = outbox();
    await runDueReminders(new Date("2026-12-11T09:00:00Z"), box.send); // Dec 11 01:00 in LA
    expect(mine(box.sent)).toHaveLength(0);
    expect((await db.reminderJob.findUniqueOrThrow({ where: { userId } })).dueAt.toISOString()).toBe("2026-12-11T15:00:00.000Z");
  });
});

describe("exactly once", () => {
  it("two workers running at once send each member's reminder once", async () => {
    const members = [{ id: userId, email }, ...(await Promise.all(Array.from({ length: 11 }, () => member())))];
    for (const m of members) await saveReminderSettings(m.id, { on: true, hour: 7 }, EVENING_BEFORE);
    const box = outbox();
    await Promise.all([runDueReminders(SEVEN_LA, box.send), runDueReminders(SEVEN_LA, box.send), runDueReminders(SEVEN_LA, box.send)]);
    for (const m of members) expect(mine(box.sent, m.email), m.email).toHaveLength(1);
  });

  it("a worker that crashed between claim and send: retried once its lease lapses, sent once", async () => {
    await saveReminderSettings(userId, { on: true, hour: 7 }, EVENING_BEFORE);
    const claimed = await claimDueReminders(SEVEN_LA);
    expect(claimed.map((job) => job.userId)).toContain(userId);
    // ...and the process died here. The lease holds the row meanwhile.
    const box = outbox();
    await runDueReminders(new Date(SEVEN_LA.getTime() + LEASE_MS - 1000), box.send);
    expect(mine(box.sent)).toHaveLength(0);
    await runDueReminders(new Date(SEVEN_LA.getTime() + LEASE_MS), box.send);
    await runDueReminders(new Date(SEVEN_LA.getTime() + LEASE_MS + 60_000), box.send);
    expect(mine(box.sent)).toHaveLength(1);
    expect(await db.reminderJob.findUniqueOrThrow({ where: { userId } })).toMatchObject({ lastSentOn: "2026-12-10", attempts: 0 });
  });

  it("a failing mail server loses nothing: the error is kept, and the reminder is retried after a backoff", async () => {
    await saveReminderSettings(userId, { on: true, hour: 7 }, EVENING_BEFORE);
    const failing = async (message: OutgoingEmail) => {
      if (message.to === email) throw new Error("SMTP 451: try again later");
    };
    expect((await runDueReminders(SEVEN_LA, failing)).failed).toBeGreaterThanOrEqual(1);
    const job = await db.reminderJob.findUniqueOrThrow({ where: { userId } });
    expect(job).toMatchObject({ lastError: "SMTP 451: try again later", attempts: 1, leaseId: null, lastSentOn: null });
    expect(job.leaseUntil?.toISOString()).toBe(new Date(SEVEN_LA.getTime() + retryDelayMs(1)).toISOString());
    const box = outbox();
    await runDueReminders(new Date(SEVEN_LA.getTime() + retryDelayMs(1) - 1000), box.send);
    expect(mine(box.sent)).toHaveLength(0);
    await runDueReminders(new Date(SEVEN_LA.getTime() + retryDelayMs(1)), box.send);
    expect(mine(box.sent)).toHaveLength(1);
  });
});

describe("the e-mail's links", () => {
  it("unsubscribe: a signed token turns that account's reminder off; a tampered one names nobody", async () => {
    await saveReminderSettings(userId, { on: true, hour: 7 }, EVENING_BEFORE);
    const token = new URL(unsubscribeLink(userId)).searchParams.get("token")!;
    expect(userFromUnsubscribeToken(token)).toBe(userId);
    const other = (await member()).id;
    expect(userFromUnsubscribeToken(`${other}${token.slice(userId.length)}`)).toBeNull();
    expect(userFromUnsubscribeToken(`${token}x`)).toBeNull();
    expect(userFromUnsubscribeToken(other)).toBeNull();
    expect(userFromUnsubscribeToken(null)).toBeNull();
    await turnRemindersOff(userId);
    expect(await db.user.findUniqueOrThrow({ where: { id: userId } })).toMatchObject({ reminderOn: false });
    expect(await db.reminderJob.count({ where: { userId } })).toBe(0);
  });

  it("routine link: names a plan, signed", () => {
    const url = new URL(routineLink(PLAN));
    expect(url.pathname).toBe("/reminders/open");
    expect(planFromRoutineLink(url)).toBe(PLAN);
    url.searchParams.set("plan", "makeup-prep");
    expect(planFromRoutineLink(url)).toBeNull();
  });
});
