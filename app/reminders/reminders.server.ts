/**
 * Daily reminder e-mails, run from a job queue in the database (docs/decisions/0020-reminders-and-job-queue.md).
 *
 * One ReminderJob row per member with reminders on says when their next reminder is due. Every
 * app instance runs the same loop (startReminders): claim due rows, send, schedule the next.
 *  - Claim: one UPDATE ... RETURNING sets a random lease id and a lease expiry on due rows whose
 *    lease is free or lapsed. The statement re-checks the row's own conditions, so two
 *    instances claiming at once never get the same row (SQLite writes one at a time; PostgreSQL
 *    re-evaluates the WHERE on a row another transaction just changed).
 *  - Finish: one UPDATE moves dueAt to the next day's hour, records the local date sent for and
 *    frees the lease, only if the lease is still this worker's. The row is the truth.
 *  - A crash between claim and send leaves the lease to lapse (LEASE_MS); another worker then
 *    sends. A failed send frees the row with a later lease expiry (backoff) and logs the error.
 *  - Never two for one local day: lastSentOn is checked before sending, and a reminder whose
 *    local day is over by the time it is tried is skipped.
 * The member's day, streak and plan are read when sending, so a finish before the hour (of any
 * of their routines: the streak is the person's) means no e-mail that day.
 */
import crypto from "node:crypto";
import { entitlementsOf } from "~/billing/entitlements.server";
import { getPlan, getSiteSettings } from "~/content/content.server";
import { reminderEmail } from "~/email/templates.server";
import { sendEmail, type OutgoingEmail } from "~/email/mailer.server";
import { localDate, timeZoneOrDefault } from "~/members/calendar";
import { streakData } from "~/members/completions.server";
import { followedPlanId, ownedPlanIds } from "~/members/plans.server";
import { now } from "~/utils/clock.server";
import { db } from "~/utils/db.server";
import { logger } from "~/utils/logger.server";
import { repeatEvery } from "~/utils/repeat.server";
import { execute, query, queryRows, statement } from "~/utils/sql.server";
import { routineLink, unsubscribeLink } from "./links.server";
import { nextReminderAt, retryDelayMs } from "~/members/reminder-schedule";

/** Longer than a send can take (the SMTP timeouts add up to 40 s), so a live worker never loses its claim. */
export const LEASE_MS = 5 * 60_000;
/** Tries for one reminder before that day's is given up (with backoff: about two hours). */
export const MAX_ATTEMPTS = 8;
export const REMINDERS_EVERY_MS = 60_000;
const BATCH = 50;

export type ClaimedReminder = { userId: string; dueAt: Date; attempts: number; lastSentOn: string | null; leaseId: string };

/** Leases up to `limit` due reminders; answers them as they are after the lease. */
const claimDue = statement((leaseId: string, leaseUntil: Date, at: Date, limit: number) =>
  query
    .updateTable("ReminderJob")
    .set((eb) => ({ leaseId, leaseUntil, attempts: eb("attempts", "+", 1), updatedAt: at }))
    .where("userId", "in", (eb) =>
      eb
        .selectFrom("ReminderJob")
        .select("userId")
        .where("dueAt", "<=", at)
        .where((eb) => eb.or([eb("leaseUntil", "is", null), eb("leaseUntil", "<=", at)]))
        .orderBy("dueAt")
        .limit(limit),
    )
    .where("dueAt", "<=", at)
    .where((eb) => eb.or([eb("leaseUntil", "is", null), eb("leaseUntil", "<=", at)]))
    .returning(["userId", "dueAt", "attempts", "lastSentOn"]),
);

/** Claims up to `limit` due reminders for LEASE_MS. Rows claimed by another worker are never returned. */
export async function claimDueReminders(at: Date, limit: number = BATCH): Promise<ClaimedReminder[]> {
  const leaseId = crypto.randomUUID();
  const rows = await queryRows(claimDue, leaseId, new Date(at.getTime() + LEASE_MS), at, limit);
  return rows.map((row) => ({ ...row, attempts: Number(row.attempts), leaseId }));
}

const finishJob = statement((userId: string, leaseId: string, dueAt: Date, lastSentOn: string | null, at: Date) =>
  query
    .updateTable("ReminderJob")
    .set({ dueAt, leaseId: null, leaseUntil: null, attempts: 0, lastError: null, lastSentOn, updatedAt: at })
    .where("userId", "=", userId)
    .where("leaseId", "=", leaseId),
);

/** Done with this day's reminder (sent, or nothing to send): due next at `next`, lease freed. False when the lease was lost. */
async function finish(job: ClaimedReminder, next: Date, sentOn: string | null, at: Date): Promise<boolean> {
  const changed = await execute(finishJob, job.userId, job.leaseId, next, sentOn ?? job.lastSentOn, at);
  return changed === 1;
}

const retryJobLater = statement((userId: string, leaseId: string, leaseUntil: Date, lastError: string, at: Date) =>
  query.updateTable("ReminderJob").set({ leaseId: null, leaseUntil, lastError, updatedAt: at }).where("userId", "=", userId).where("leaseId", "=", leaseId),
);

/** A failed send: the same reminder again after the backoff. */
async function retryLater(job: ClaimedReminder, error: string, at: Date): Promise<void> {
  await execute(retryJobLater, job.userId, job.leaseId, new Date(at.getTime() + retryDelayMs(job.attempts)), error.slice(0, 500), at);
}

export type Outcome = "sent" | "done-today" | "already-sent" | "day-over" | "no-plan" | "off" | "failed" | "gave-up";

type Send = (email: OutgoingEmail) => Promise<void>;

/** Handles one claimed reminder. */
export async function handleReminder(job: ClaimedReminder, at: Date, send: Send = sendEmail): Promise<Outcome> {
  const user = await db.user.findUnique({
    where: { id: job.userId },
    select: { email: true, timeZone: true, reminderOn: true, reminderHour: true, activePlanId: true, emailVerifiedAt: true },
  });
  if (!user?.reminderOn) {
    await db.reminderJob.deleteMany({ where: { userId: job.userId, leaseId: job.leaseId } });
    return "off";
  }
  const timeZone = timeZoneOrDefault(user.timeZone);
  const forDate = localDate(job.dueAt, timeZone);
  const next = nextReminderAt({ timeZone, hour: user.reminderHour, after: at > job.dueAt ? at : job.dueAt });
  const skip = async (outcome: Outcome) => {
    await finish(job, next, null, at);
    return outcome;
  };
  if (job.lastSentOn === forDate) return skip("already-sent");
  // Late (the instance was down, or retries ran past midnight): that day's reminder is moot.
  if (localDate(at, timeZone) !== forDate) return skip("day-over");
  const planId = followedPlanId(ownedPlanIds(await entitlementsOf(job.userId, at)), user.activePlanId);
  const plan = planId ? await getPlan(planId) : null;
  if (!plan) return skip("no-plan");
  // The person's day and streak: a routine of any of their plans finished today means no e-mail.
  const streak = await streakData(job.userId, forDate);
  if (streak.doneToday) return skip("done-today");

  const settings = await getSiteSettings();
  const unsubscribe = unsubscribeLink(job.userId);
  const message = reminderEmail({
    planName: plan.name,
    streak: streak.currentStreak,
    routineLink: routineLink(plan._id),
    unsubscribeLink: unsubscribe,
    brandName: settings.brandName,
  });
  try {
    await send({
      to: user.email,
      ...message,
      link: routineLink(plan._id),
      headers: { "List-Unsubscribe": `<${unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (job.attempts >= MAX_ATTEMPTS) {
      logger.error({ err: error, userId: job.userId, attempts: job.attempts }, "[reminders] giving up today's reminder after repeated failures");
      return skip("gave-up");
    }
    logger.error({ err: error, userId: job.userId, attempts: job.attempts }, "[reminders] sending failed; trying again later");
    await retryLater(job, reason, at);
    return "failed";
  }
  if (!(await finish(job, next, forDate, at)))
    logger.warn({ userId: job.userId }, "[reminders] lease lapsed while sending; another worker owns the reminder now");
  return "sent";
}

/** One pass: claims and handles what is due at `at`, batch after batch. Counts the outcomes. */
export async function runDueReminders(at: Date = now(), send: Send = sendEmail): Promise<Partial<Record<Outcome, number>>> {
  const counts: Partial<Record<Outcome, number>> = {};
  for (;;) {
    const jobs = await claimDueReminders(at);
    for (const job of jobs) {
      const outcome = await handleReminder(job, at, send).catch(async (error) => {
        // Not sent: the lease lapses and the reminder is tried again.
        logger.error({ err: error, userId: job.userId }, "[reminders] failed to handle a reminder");
        return "failed" as const;
      });
      counts[outcome] = (counts[outcome] ?? 0) + 1;
    }
    if (jobs.length < BATCH) return counts;
  }
}

/** Runs due reminders now and then every `everyMs`; returns the function that stops it. */
export function startReminders(everyMs: number = REMINDERS_EVERY_MS): () => void {
  return repeatEvery("reminders", runDueReminders, everyMs, (counts) => {
    if (Object.keys(counts).length > 0) logger.info({ reminders: counts }, "[reminders] ran due reminders");
  });
}
