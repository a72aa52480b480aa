/**
 * A member's daily reminder setting and the job row that carries it out: turned on or off on
 * /profile (or by the e-mail's unsubscribe link), and moved when their time zone changes. The
 * queue that sends the e-mails is app/reminders/reminders.server.ts; it reads these rows. Here,
 * below it, so the member's own pages (home, time zone) can ask and move without importing it.
 */
import { now } from "~/utils/clock.server";
import { db } from "~/utils/db.server";
import { timeZoneOrDefault } from "./calendar";
import { isReminderHour, nextReminderAt } from "./reminder-schedule";

export type ReminderSettings = { on: boolean; hour: number };

export async function reminderSettings(userId: string): Promise<ReminderSettings> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { reminderOn: true, reminderHour: true } });
  return { on: user?.reminderOn ?? false, hour: user?.reminderHour ?? 8 };
}

/**
 * Turns the member's reminder on (due at the next `hour` in their zone) or off (the job goes).
 * A new hour takes effect at once; the day already reminded is never reminded again.
 */
export async function saveReminderSettings(userId: string, settings: ReminderSettings, at: Date = now()): Promise<void> {
  if (!isReminderHour(settings.hour)) throw new Error(`not an hour: ${settings.hour}`);
  const user = await db.user.update({ where: { id: userId }, data: { reminderOn: settings.on, reminderHour: settings.hour }, select: { timeZone: true } });
  if (!settings.on) {
    await db.reminderJob.deleteMany({ where: { userId } });
    return;
  }
  const dueAt = nextReminderAt({ timeZone: timeZoneOrDefault(user.timeZone), hour: settings.hour, after: at });
  const fresh = { dueAt, leaseId: null, leaseUntil: null, attempts: 0, lastError: null, updatedAt: at };
  await db.reminderJob.upsert({ where: { userId }, create: { userId, ...fresh }, update: fresh });
}

/** The member's zone changed: their next reminder is at the hour of the new zone. */
export async function rescheduleForTimeZone(userId: string, timeZone: string, at: Date = now()): Promise<void> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { reminderOn: true, reminderHour: true } });
  if (!user?.reminderOn) return;
  const dueAt = nextReminderAt({ timeZone: timeZoneOrDefault(timeZone), hour: user.reminderHour, after: at });
  await db.reminderJob.updateMany({ where: { userId }, data: { dueAt, updatedAt: at } });
}

/** The one-click unsubscribe: off, whoever asks with the account's signed token. */
export async function turnRemindersOff(userId: string): Promise<void> {
  await db.user.updateMany({ where: { id: userId }, data: { reminderOn: false } });
  await db.reminderJob.deleteMany({ where: { userId } });
}
