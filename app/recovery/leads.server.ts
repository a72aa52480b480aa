/**
 * Leads and their recovery e-mails (docs/decisions/0044-email-step-and-recovery.md).
 *
 * A Lead row is an address given at a funnel's e-mail step, with the answers and whether the
 * visitor agreed to marketing e-mails. With that consent it is also a job queue row, run like
 * the reminders (ADR 20): every instance claims due rows with one UPDATE ... RETURNING that sets
 * a lease, sends, then moves `dueAt` on in one UPDATE that checks the lease is still its own, so
 * each e-mail goes once whichever instances run the queue.
 *
 * What is due is worked out from the row when it is claimed: the sequence's next e-mail
 * (`recoveryHours` after the address was given, at a sensible local hour), or the one reminder of
 * a checkout this visitor started and did not finish. Nothing is sent once the visitor bought
 * (checked again at send time), unsubscribed, or had the sequence's last e-mail.
 */
import crypto from "node:crypto";
import { recordEvent } from "~/analytics/events.server";
import { getFunnelById, getInsight, getOfferByPath, getSiteSettings } from "~/content/content.server";
import { recoveryEmail } from "~/email/templates.server";
import { sendEmail, type OutgoingEmail } from "~/email/mailer.server";
import { eventVariants } from "~/analytics/event-variants.server";
import { answerWords, fillTemplate } from "~/funnels/engine";
import type { LeadToRecord } from "~/funnels/flow.server";
import { writeFunnelState } from "~/funnels/state.server";
import { timeZoneOrDefault } from "~/members/calendar";
import { browserTimeZone } from "~/members/time-zone.server";
import { repeatEvery } from "~/utils/repeat.server";
import { retryDelayMs } from "~/members/reminder-schedule";
import { now } from "~/utils/clock.server";
import { db } from "~/utils/db.server";
import { logger } from "~/utils/logger.server";
import { query, queryRows, statement } from "~/utils/sql.server";
import { backLink, markReopened, openImageLink, recoveryUnsubscribeLink, type EmailTag } from "./links.server";
import { atSensibleHour, sequenceDueAt } from "./schedule";

export const LEASE_MS = 5 * 60_000;
export const MAX_ATTEMPTS = 8;
export const RECOVERY_EVERY_MS = 60_000;
const BATCH = 50;
const HOUR_MS = 3_600_000;

type LeadRow = NonNullable<Awaited<ReturnType<typeof db.lead.findUnique>>>;

function parseHours(text: string): number[] {
  try {
    const hours = JSON.parse(text);
    return Array.isArray(hours) ? hours.filter((h): h is number => typeof h === "number") : [];
  } catch {
    return [];
  }
}

/**
 * Records an address given at the e-mail step: one lead per visitor and funnel, replaced when
 * they give one again (their newer answers and consent; the sequence starts over). Without
 * consent nothing is ever due. Answers the lead's id.
 */
export async function recordLead(lead: LeadToRecord, visitorId: string, at: Date = now(), cookieHeader: string | null = null): Promise<string> {
  // The zone the browser gave with the form, else its time-zone cookie: the e-mails go out at sensible local hours.
  const timeZone = timeZoneOrDefault(browserTimeZone(cookieHeader, lead.timeZone ?? undefined));
  const hours = lead.marketingConsent ? lead.recoveryAfterHours : [];
  const fields = {
    email: lead.email,
    marketingConsent: lead.marketingConsent,
    consentText: lead.consentText,
    answers: JSON.stringify(lead.answers),
    insight: lead.insight,
    offerPath: lead.offerPath,
    timeZone,
    createdAt: at,
    variants: await eventVariants(visitorId),
    recoveryHours: JSON.stringify(hours),
    checkoutHours: lead.marketingConsent ? lead.checkoutReminderAfterHours : null,
    recoverySent: 0,
    checkoutReminded: null,
    dueAt: sequenceDueAt(at, hours, 0, timeZone),
    leaseId: null,
    leaseUntil: null,
    attempts: 0,
    lastError: null,
    purchasedAt: null,
    unsubscribedAt: null,
    updatedAt: at,
  };
  const row = await db.lead.upsert({
    where: { visitorId_funnelId: { visitorId, funnelId: lead.funnelId } },
    create: { id: crypto.randomUUID(), visitorId, funnelId: lead.funnelId, ...fields },
    update: fields,
    select: { id: true },
  });
  return row.id;
}

/**
 * A local test checkout started in this browser: a consenting lead of it that has a checkout
 * reminder gets one due `checkoutHours` later (unless an earlier e-mail is due first). A Stripe
 * checkout's reminder comes from Stripe's expiry instead (noteCheckoutExpired). Never fails a checkout.
 */
export async function noteCheckoutStarted(visitorId: string, at: Date = now()): Promise<void> {
  try {
    const leads = await db.lead.findMany({
      where: { visitorId, marketingConsent: true, purchasedAt: null, unsubscribedAt: null, checkoutReminded: null, checkoutHours: { not: null } },
    });
    for (const lead of leads) {
      const due = atSensibleHour(new Date(at.getTime() + lead.checkoutHours! * HOUR_MS), lead.timeZone);
      if (lead.dueAt && lead.dueAt <= due) continue;
      await db.lead.updateMany({ where: { id: lead.id, leaseId: null }, data: { dueAt: due, updatedAt: at } });
    }
  } catch (error) {
    logger.error({ err: error }, "[recovery] could not note a started checkout");
  }
}

/**
 * Hours after which a checkout this browser starts now should be reminded of, when it has a
 * consenting lead still waiting for that reminder; null: no reminder may be sent. Stripe mode
 * asks Stripe for a recovery link for such a checkout (after_expiration.recovery), expiring it
 * after this long.
 */
export async function checkoutReminderHours(visitorId: string): Promise<number | null> {
  const lead = await db.lead.findFirst({
    where: { visitorId, marketingConsent: true, purchasedAt: null, unsubscribedAt: null, checkoutReminded: null, checkoutHours: { not: null } },
    orderBy: { checkoutHours: "asc" },
    select: { checkoutHours: true },
  });
  return lead?.checkoutHours ?? null;
}

/**
 * Stripe expired a checkout and gave its recovery link (the signed `checkout.session.expired`
 * webhook): the link is kept on the checkout, and the browser's consenting leads that still wait
 * for a checkout reminder get it due now (at a sensible hour). The queue sends it, once per lead,
 * with consent and no purchase since checked at send time. Repeatable: a webhook delivered again
 * changes nothing more. Answers whether a reminder was made due.
 */
export async function noteCheckoutExpired(input: {
  checkoutSessionId: string;
  recoveryUrl: string;
  recoveryUrlExpiresAt: Date | null;
  at: Date;
}): Promise<boolean> {
  const { count } = await db.checkoutSession.updateMany({
    where: { id: input.checkoutSessionId, provider: "stripe", status: { not: "complete" } },
    data: { status: "canceled", recoveryUrl: input.recoveryUrl, recoveryUrlExpiresAt: input.recoveryUrlExpiresAt },
  });
  if (count === 0) return false;
  const checkout = await db.checkoutSession.findUniqueOrThrow({ where: { id: input.checkoutSessionId }, select: { visitorId: true, createdAt: true } });
  const leads = await db.lead.findMany({
    where: {
      visitorId: checkout.visitorId,
      createdAt: { lte: checkout.createdAt },
      marketingConsent: true,
      purchasedAt: null,
      unsubscribedAt: null,
      checkoutReminded: null,
      checkoutHours: { not: null },
    },
  });
  for (const lead of leads) {
    const due = atSensibleHour(input.at, lead.timeZone);
    if (lead.dueAt && lead.dueAt <= due) continue;
    await db.lead.updateMany({ where: { id: lead.id, leaseId: null }, data: { dueAt: due, updatedAt: input.at } });
  }
  return leads.length > 0;
}

/**
 * A purchase by this browser or address: its leads get nothing more. A purchase after a recovery
 * e-mail was sent is logged as recovery_purchased (the admin's revenue from recovery).
 * Never fails a purchase.
 */
export async function noteLeadPurchase(input: {
  visitorId: string | null;
  email: string;
  at: Date;
  price: number;
  currency: string;
  userId?: string;
}): Promise<void> {
  try {
    const email = input.email.trim().toLowerCase();
    const leads = await db.lead.findMany({
      where: { purchasedAt: null, OR: [{ email }, ...(input.visitorId ? [{ visitorId: input.visitorId }] : [])] },
    });
    for (const lead of leads) {
      const { count } = await db.lead.updateMany({
        where: { id: lead.id, purchasedAt: null },
        data: { purchasedAt: input.at, dueAt: null, updatedAt: input.at },
      });
      if (count === 1 && (lead.recoverySent > 0 || lead.checkoutReminded)) {
        await recordEvent({
          visitorId: lead.visitorId,
          name: "recovery_purchased",
          funnel: lead.funnelId,
          userId: input.userId,
          props: { lead: lead.id, price: input.price, currency: input.currency },
        });
      }
    }
  } catch (error) {
    logger.error({ err: error }, "[recovery] could not note a purchase");
  }
}

/** The one-click unsubscribe: no more recovery e-mails to this lead's address. Answers whether the token named a lead. */
export async function unsubscribeLead(leadId: string, at: Date = now()): Promise<boolean> {
  const lead = await db.lead.findUnique({ where: { id: leadId }, select: { email: true } });
  if (!lead) return false;
  await db.lead.updateMany({ where: { email: lead.email, unsubscribedAt: null }, data: { unsubscribedAt: at, dueAt: null, updatedAt: at } });
  return true;
}

/**
 * A recovery link followed: the answers cookie for the lead's funnel, holding the lead's result
 * (as if this browser had just finished the quiz), and where to go: the offer page, or for the
 * checkout reminder, Stripe's recovery link while it lasts (with the cookie that makes this
 * browser the buyer's when she pays there). Null: no such lead.
 */
export async function restoreFromLead(leadId: string, tag: EmailTag, visitorId: string, at: Date = now()): Promise<{ to: string; cookies: string[] } | null> {
  const lead = await db.lead.findUnique({ where: { id: leadId } });
  if (!lead) return null;
  const funnel = await getFunnelById(lead.funnelId);
  if (!funnel) return null;
  const answers = JSON.parse(lead.answers) as Record<string, string | string[]>;
  const cookie = await writeFunnelState(funnel, { answers: {}, result: { insight: lead.insight, answers, at: lead.createdAt.toISOString() } });
  await recordEvent({ visitorId, name: "recovery_clicked", funnel: lead.funnelId, props: { lead: lead.id, email: tag, leadVisitor: lead.visitorId } });
  // Bought since (from this link or not): the offer page, which says what she owns.
  const reopen = tag === "checkout" && !(await boughtSince(lead)) ? await reopenableCheckout(lead, at) : null;
  return reopen ? { to: reopen.recoveryUrl, cookies: [cookie, await markReopened(reopen.id)] } : { to: lead.offerPath, cookies: [cookie] };
}

/** The lead's browser's Stripe checkout that expired with a recovery link still valid at `at`. */
async function reopenableCheckout(lead: LeadRow, at: Date): Promise<{ id: string; recoveryUrl: string } | null> {
  const expired = await db.checkoutSession.findFirst({
    where: { visitorId: lead.visitorId, provider: "stripe", status: "canceled", recoveryUrl: { not: null }, createdAt: { gte: lead.createdAt } },
    orderBy: { createdAt: "desc" },
    select: { id: true, recoveryUrl: true, recoveryUrlExpiresAt: true },
  });
  if (!expired?.recoveryUrl || (expired.recoveryUrlExpiresAt && expired.recoveryUrlExpiresAt <= at)) return null;
  return { id: expired.id, recoveryUrl: expired.recoveryUrl };
}

// ---------------------------------------------------------------------------
// The queue

export type ClaimedLead = { id: string; leaseId: string; attempts: number };

/** Leases up to `limit` due leads (the reminder queue's statement); answers them as they are after the lease. */
const claimDue = statement((leaseId: string, leaseUntil: Date, at: Date, limit: number) =>
  query
    .updateTable("Lead")
    .set((eb) => ({ leaseId, leaseUntil, attempts: eb("attempts", "+", 1), updatedAt: at }))
    .where("id", "in", (eb) =>
      eb
        .selectFrom("Lead")
        .select("id")
        .where("dueAt", "<=", at)
        .where((eb) => eb.or([eb("leaseUntil", "is", null), eb("leaseUntil", "<=", at)]))
        .orderBy("dueAt")
        .limit(limit),
    )
    .where("dueAt", "<=", at)
    .where((eb) => eb.or([eb("leaseUntil", "is", null), eb("leaseUntil", "<=", at)]))
    .returning(["id", "attempts"]),
);

/** Claims up to `limit` due leads for LEASE_MS. Rows claimed by another worker are never returned. */
export async function claimDueLeads(at: Date, limit: number = BATCH): Promise<ClaimedLead[]> {
  const leaseId = crypto.randomUUID();
  const rows = await queryRows(claimDue, leaseId, new Date(at.getTime() + LEASE_MS), at, limit);
  return rows.map((row) => ({ id: row.id, attempts: Number(row.attempts), leaseId }));
}

/**
 * The checkout this lead's browser started and did not finish, whose reminder is due at `at`;
 * null: none. A local test checkout is due `checkoutHours` after it started; a Stripe one when
 * Stripe expired it with a recovery link (where the reminder's link goes on to, restoreFromLead).
 */
async function abandonedCheckout(lead: LeadRow, at: Date): Promise<{ id: string; planName: string } | null> {
  if (lead.checkoutHours === null || lead.checkoutReminded) return null;
  const startedBefore = new Date(at.getTime() - lead.checkoutHours * HOUR_MS);
  return db.checkoutSession.findFirst({
    where: {
      visitorId: lead.visitorId,
      createdAt: { gte: lead.createdAt },
      OR: [
        { provider: "local", status: "open", createdAt: { lte: startedBefore } },
        { provider: "stripe", status: "canceled", recoveryUrl: { not: null } },
      ],
    },
    orderBy: { createdAt: "desc" },
    select: { id: true, planName: true },
  });
}

/** A purchase the purchase hook may have missed (another instance mid-way): this browser's or address's completed checkout since the lead. */
async function boughtSince(lead: LeadRow): Promise<boolean> {
  const bought = await db.checkoutSession.findFirst({
    where: { status: "complete", completedAt: { gte: lead.createdAt }, OR: [{ visitorId: lead.visitorId }, { email: lead.email }] },
    select: { id: true },
  });
  return bought !== null;
}

/** When the lead's next e-mail is due after this one: the sequence's next, or a pending checkout reminder's. */
async function nextDue(lead: LeadRow, sent: number, checkoutReminded: string | null, at: Date): Promise<Date | null> {
  const sequence = sequenceDueAt(lead.createdAt, parseHours(lead.recoveryHours), sent, lead.timeZone);
  let checkout: Date | null = null;
  if (lead.checkoutHours !== null && !checkoutReminded) {
    // A Stripe checkout is not timed here: its expiry (the webhook) makes the reminder due.
    const open = await db.checkoutSession.findFirst({
      where: { visitorId: lead.visitorId, provider: "local", status: "open", createdAt: { gte: lead.createdAt } },
      orderBy: { createdAt: "asc" },
      select: { createdAt: true },
    });
    if (open) checkout = atSensibleHour(new Date(open.createdAt.getTime() + lead.checkoutHours * HOUR_MS), lead.timeZone);
    // Expired by Stripe while this lead was leased: its reminder is due now.
    const expired = await db.checkoutSession.findFirst({
      where: { visitorId: lead.visitorId, provider: "stripe", recoveryUrl: { not: null }, createdAt: { gte: lead.createdAt } },
      select: { id: true },
    });
    if (expired) checkout = atSensibleHour(at, lead.timeZone);
  }
  const candidates = [sequence, checkout].filter((d): d is Date => d !== null);
  return candidates.length ? new Date(Math.min(...candidates.map((d) => d.getTime()))) : null;
}

async function finish(
  job: ClaimedLead,
  data: { dueAt: Date | null; recoverySent?: number; checkoutReminded?: string; purchasedAt?: Date },
  at: Date,
): Promise<boolean> {
  const { count } = await db.lead.updateMany({
    where: { id: job.id, leaseId: job.leaseId },
    data: { ...data, leaseId: null, leaseUntil: null, attempts: 0, lastError: null, updatedAt: at },
  });
  return count === 1;
}

export type RecoveryOutcome = "sent" | "checkout-sent" | "bought" | "stopped" | "not-yet" | "failed" | "gave-up";

type Send = (email: OutgoingEmail) => Promise<void>;

/** Words for the visitor's answers ("Your answers: oily skin, breakouts and redness."), from the funnel's first two questions. */
function answersLine(funnel: Awaited<ReturnType<typeof getFunnelById>>, answers: Record<string, string | string[]>): string | null {
  if (!funnel) return null;
  const fields = funnel.steps.flatMap((step) => (step.type === "question" ? step.questions.map((q) => q.field) : [])).slice(0, 2);
  const words = fields.flatMap((field) => answerWords(funnel, answers, field, 3));
  return words.length ? `Your answers: ${words.join(", ")}.` : null;
}

/** Handles one claimed lead: sends what is due, or stops it. */
export async function handleLead(job: ClaimedLead, at: Date, send: Send = sendEmail): Promise<RecoveryOutcome> {
  const lead = await db.lead.findUnique({ where: { id: job.id } });
  if (!lead) return "stopped";
  if (!lead.marketingConsent || lead.unsubscribedAt) {
    await finish(job, { dueAt: null }, at);
    return "stopped";
  }
  if (lead.purchasedAt || (await boughtSince(lead))) {
    await finish(job, { dueAt: null, purchasedAt: lead.purchasedAt ?? at }, at);
    return "bought";
  }
  const checkout = await abandonedCheckout(lead, at);
  const hours = parseHours(lead.recoveryHours);
  const sequenceDue = sequenceDueAt(lead.createdAt, hours, lead.recoverySent, lead.timeZone);
  const kind: "checkout" | "sequence" | null = checkout ? "checkout" : sequenceDue && sequenceDue <= at ? "sequence" : null;
  if (!kind) {
    await finish(job, { dueAt: await nextDue(lead, lead.recoverySent, lead.checkoutReminded, at) }, at);
    return "not-yet";
  }

  const tag: EmailTag = kind === "checkout" ? "checkout" : String(lead.recoverySent + 1);
  const [funnel, insight, offer, settings] = await Promise.all([
    getFunnelById(lead.funnelId),
    getInsight(lead.insight),
    getOfferByPath(lead.offerPath),
    getSiteSettings(),
  ]);
  const answers = JSON.parse(lead.answers) as Record<string, string | string[]>;
  const fill = (text: string) => (funnel ? fillTemplate(text, funnel, answers) : text);
  // Our signed link, counted when followed: the checkout reminder's goes on to Stripe's recovery
  // link (the very checkout, a copy of it) while that lasts; else the offer with the answers.
  const link = backLink(lead.id, tag, lead.offerPath);
  const unsubscribe = recoveryUnsubscribeLink(lead.id);
  const message = recoveryEmail({
    kind,
    number: lead.recoverySent + 1,
    resultTitle: fill(insight?.title ?? "Your personalized plan"),
    resultSummary: fill(insight?.summary ?? "Your answers are saved with your plan."),
    answersLine: answersLine(funnel, answers),
    planName: checkout?.planName ?? offer?.pageTitle ?? "plan",
    link,
    unsubscribeLink: unsubscribe,
    openImage: openImageLink(lead.id, tag),
    brandName: settings.brandName,
  });
  try {
    await send({
      to: lead.email,
      ...message,
      link,
      headers: { "List-Unsubscribe": `<${unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
    });
  } catch (error) {
    if (job.attempts >= MAX_ATTEMPTS) {
      logger.error({ err: error, leadId: lead.id, attempts: job.attempts }, "[recovery] giving up an e-mail after repeated failures");
      const skipped = kind === "checkout" ? { checkoutReminded: checkout!.id } : { recoverySent: lead.recoverySent + 1 };
      await finish(
        job,
        { ...skipped, dueAt: await nextDue(lead, skipped.recoverySent ?? lead.recoverySent, skipped.checkoutReminded ?? lead.checkoutReminded, at) },
        at,
      );
      return "gave-up";
    }
    logger.error({ err: error, leadId: lead.id, attempts: job.attempts }, "[recovery] sending failed; trying again later");
    await db.lead.updateMany({
      where: { id: job.id, leaseId: job.leaseId },
      data: { leaseId: null, leaseUntil: new Date(at.getTime() + retryDelayMs(job.attempts)), lastError: String(error).slice(0, 500), updatedAt: at },
    });
    return "failed";
  }
  const done = kind === "checkout" ? { checkoutReminded: checkout!.id } : { recoverySent: lead.recoverySent + 1 };
  const finished = await finish(
    job,
    { ...done, dueAt: await nextDue(lead, done.recoverySent ?? lead.recoverySent, done.checkoutReminded ?? lead.checkoutReminded, at) },
    at,
  );
  if (!finished) logger.warn({ leadId: lead.id }, "[recovery] lease lapsed while sending; another worker owns the lead now");
  await recordEvent({
    visitorId: lead.visitorId,
    name: "recovery_sent",
    funnel: lead.funnelId,
    props: { lead: lead.id, kind, email: tag },
  });
  return kind === "checkout" ? "checkout-sent" : "sent";
}

/** One pass: claims and handles what is due at `at`, batch after batch. Counts the outcomes. */
export async function runDueRecovery(at: Date = now(), send: Send = sendEmail): Promise<Partial<Record<RecoveryOutcome, number>>> {
  const counts: Partial<Record<RecoveryOutcome, number>> = {};
  for (;;) {
    const jobs = await claimDueLeads(at);
    for (const job of jobs) {
      const outcome = await handleLead(job, at, send).catch((error) => {
        // Not sent: the lease lapses and the lead is tried again.
        logger.error({ err: error, leadId: job.id }, "[recovery] failed to handle a lead");
        return "failed" as const;
      });
      counts[outcome] = (counts[outcome] ?? 0) + 1;
    }
    if (jobs.length < BATCH) return counts;
  }
}

/** Runs due recovery e-mails now and then every `everyMs`; returns the function that stops it. */
export function startRecovery(everyMs: number = RECOVERY_EVERY_MS): () => void {
  return repeatEvery("recovery", runDueRecovery, everyMs, (counts) => {
    if (Object.keys(counts).length > 0) logger.info({ recovery: counts }, "[recovery] ran due recovery e-mails");
  });
}
