/**
 * Meta's Conversions API: the server's copy of each AdConversion (conversions.server.ts), sent
 * beside the browser pixel with the same event id so Meta counts the conversion once (ADR 32).
 * Only with META_CAPI_TOKEN (and META_PIXEL_ID); rows are written only for consenting browsers.
 *
 * The AdConversion table is the outbox, run like the reminder queue (ADR 20): a row is claimed
 * with a lease by one worker, posted, then marked sent. A new row is sent at once (kick); every
 * instance also retries what is due each minute (startConversionsApi), with backoff, and gives
 * an event up after MAX_ATTEMPTS or once it is older than Meta accepts (7 days). A crash between
 * Meta's answer and the mark may send an event twice: Meta de-duplicates by event id.
 */
import crypto from "node:crypto";
import { repeatEvery } from "~/utils/repeat.server";
import { outsideRecord } from "~/utils/page-record.server";
import { now } from "~/utils/clock.server";
import { env } from "~/utils/env.server";
import { logger } from "~/utils/logger.server";
import { execute, query, queryRows, statement } from "~/utils/sql.server";

/** The Graph API version the events go to. */
export const GRAPH_API_VERSION = "v25.0";
export const LEASE_MS = 2 * 60_000;
export const MAX_ATTEMPTS = 8;
/** Meta refuses a whole request holding an event older than this. */
export const MAX_EVENT_AGE_MS = 7 * 24 * 60 * 60_000;
export const CONVERSIONS_EVERY_MS = 60_000;
const BATCH = 50;
const TIMEOUT_MS = 10_000;

export type ClaimedConversion = {
  eventId: string;
  name: string;
  eventTime: Date;
  sourceUrl: string;
  userData: string;
  customData: string;
  attempts: number;
};

/** The request body Meta expects: https://developers.facebook.com/docs/marketing-api/conversions-api/parameters/server-event */
export function conversionsRequestBody(rows: ClaimedConversion[], accessToken: string) {
  return {
    data: rows.map((row) => ({
      event_name: row.name,
      event_time: Math.floor(row.eventTime.getTime() / 1000),
      event_id: row.eventId,
      action_source: "website",
      event_source_url: row.sourceUrl,
      user_data: JSON.parse(row.userData) as Record<string, unknown>,
      custom_data: JSON.parse(row.customData) as Record<string, unknown>,
    })),
    // In the body, not the URL: addresses end up in logs.
    access_token: accessToken,
  };
}

/** Backoff after a failed try: 1, 2, 4 … 60 minutes. */
export function retryDelayMs(attempts: number): number {
  return Math.min(60, 2 ** Math.max(0, attempts - 1)) * 60_000;
}

/** Leases up to BATCH due conversions; answers them as they are after the lease. */
const claimDue = statement((leaseId: string, leaseUntil: Date, at: Date) =>
  query
    .updateTable("AdConversion")
    .set((eb) => ({ leaseId, leaseUntil, attempts: eb("attempts", "+", 1) }))
    .where("eventId", "in", (eb) =>
      eb
        .selectFrom("AdConversion")
        .select("eventId")
        .where("serverDueAt", "<=", at)
        .where("serverSentAt", "is", null)
        .where((eb) => eb.or([eb("leaseUntil", "is", null), eb("leaseUntil", "<=", at)]))
        .orderBy("serverDueAt")
        .limit(BATCH),
    )
    .where("serverDueAt", "<=", at)
    .where("serverSentAt", "is", null)
    .where((eb) => eb.or([eb("leaseUntil", "is", null), eb("leaseUntil", "<=", at)]))
    .returning(["eventId", "name", "eventTime", "sourceUrl", "userData", "customData", "attempts"]),
);

const markSentRow = statement((eventId: string, leaseId: string, at: Date) =>
  query
    .updateTable("AdConversion")
    .set({ serverSentAt: at, leaseId: null, leaseUntil: null, lastError: null })
    .where("eventId", "=", eventId)
    .where("leaseId", "=", leaseId),
);

const giveUpRow = statement((eventId: string, leaseId: string, lastError: string) =>
  query
    .updateTable("AdConversion")
    .set({ serverDueAt: null, leaseId: null, leaseUntil: null, lastError })
    .where("eventId", "=", eventId)
    .where("leaseId", "=", leaseId),
);

const retryRowLater = statement((eventId: string, leaseId: string, leaseUntil: Date, lastError: string) =>
  query.updateTable("AdConversion").set({ leaseId: null, leaseUntil, lastError }).where("eventId", "=", eventId).where("leaseId", "=", leaseId),
);

async function claim(at: Date, leaseId: string): Promise<ClaimedConversion[]> {
  const rows = await queryRows(claimDue, leaseId, new Date(at.getTime() + LEASE_MS), at);
  return rows.map((row) => ({ ...row, attempts: Number(row.attempts) }));
}

async function markSent(row: ClaimedConversion, leaseId: string, at: Date): Promise<void> {
  await execute(markSentRow, row.eventId, leaseId, at);
}

/** A failed try: again after the backoff, or given up (serverDueAt cleared) when it can no longer succeed. */
async function markFailed(row: ClaimedConversion, leaseId: string, at: Date, error: string): Promise<"failed" | "gave-up"> {
  const tooOld = at.getTime() - row.eventTime.getTime() > MAX_EVENT_AGE_MS;
  if (row.attempts >= MAX_ATTEMPTS || tooOld) {
    await execute(giveUpRow, row.eventId, leaseId, error.slice(0, 500));
    return "gave-up";
  }
  await execute(retryRowLater, row.eventId, leaseId, new Date(at.getTime() + retryDelayMs(row.attempts)), error.slice(0, 500));
  return "failed";
}

/** Posts one batch; answers null when Meta took it, else what went wrong (never the token). */
async function post(rows: ClaimedConversion[], capi: NonNullable<typeof env.metaCapi>, pixelId: string): Promise<string | null> {
  try {
    const response = await fetch(`${capi.baseUrl}/${GRAPH_API_VERSION}/${pixelId}/events`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(conversionsRequestBody(rows, capi.token)),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (response.ok) return null;
    return `HTTP ${response.status}: ${(await response.text()).slice(0, 300)}`;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export type SendCounts = { sent: number; failed: number; "gave-up": number };

/** One pass: claims what is due at `at`, batch after batch, and sends it. */
export async function sendDueConversions(at: Date = now()): Promise<SendCounts> {
  const counts: SendCounts = { sent: 0, failed: 0, "gave-up": 0 };
  const capi = env.metaCapi;
  if (!capi || !env.metaPixelId) return counts;
  for (;;) {
    const leaseId = crypto.randomUUID();
    const rows = await claim(at, leaseId);
    if (rows.length === 0) return counts;
    const error = await post(rows, capi, env.metaPixelId);
    for (const row of rows) {
      if (error === null) {
        await markSent(row, leaseId, at);
        counts.sent++;
      } else {
        counts[await markFailed(row, leaseId, at, error)]++;
      }
    }
    if (error !== null) {
      logger.error({ conversions: rows.map((row) => row.eventId), error }, "[conversions-api] Meta did not take the events; trying again later");
      return counts;
    }
    if (rows.length < BATCH) return counts;
  }
}

let running: Promise<unknown> | null = null;
let again = false;

/** Sends what is due now, in the background of the request that wrote it (outside its page record). */
export function kickConversionsApi(): void {
  if (!env.metaCapi) return;
  // One pass at a time per process; a row written during a pass gets a pass of its own after it.
  if (running) {
    again = true;
    return;
  }
  running = outsideRecord(() => sendDueConversions())
    .catch((error) => logger.error({ err: error }, "[conversions-api] sending failed; trying again at the next run"))
    .finally(() => {
      running = null;
      if (again) {
        again = false;
        kickConversionsApi();
      }
    });
}

/** Retries due events every minute on every instance; returns the function that stops it. Does nothing without META_CAPI_TOKEN. */
export function startConversionsApi(everyMs: number = CONVERSIONS_EVERY_MS): () => void {
  if (!env.metaCapi) return () => {};
  return repeatEvery(
    "conversions-api",
    () => sendDueConversions(),
    everyMs,
    (counts) => {
      if (counts.sent || counts.failed || counts["gave-up"]) logger.info({ conversions: counts }, "[conversions-api] sent due events");
    },
  );
}
