/**
 * Events written in batches, off the request path.
 *
 * A page view that only needs to be counted (offer_viewed) should not make the visitor wait
 * for an INSERT: the event is queued with its id and time taken now, and the queue is written
 * together at most FLUSH_DELAY_MS later (or as soon as MAX_BATCH events wait).
 * Nothing is lost on a clean stop: the server flushes before it closes the database
 * (app/server.ts → flushEvents), and readers of the event log in this process (the admin
 * dashboard) flush first, so they never miss a view that already happened.
 * Each row gets the visitor's experiment variants when it is written (one query per batch;
 * their assignment happens before the event is queued, so it is there by then).
 * A failed write is logged, never thrown: recording never breaks a page.
 */
import crypto from "node:crypto";
import { eventVariantsOfMany } from "./event-variants.server";
import { execute, query, statement } from "~/utils/sql.server";
import { logger } from "~/utils/logger.server";
import { outsideRecord } from "~/utils/page-record.server";
import type { EventInput } from "./event-input";

const FLUSH_DELAY_MS = 100;
const MAX_BATCH = 500;
/** Rows committed together while writing a batch. */
const WRITE_SLICE = 50;

export type EventRow = {
  id: string;
  visitorId: string;
  name: string;
  funnel?: string;
  step?: string;
  props: string;
  userId?: string;
  createdAt: Date;
};

const insertEvent = statement(
  (
    id: string,
    visitorId: string,
    name: string,
    funnel: string | null,
    step: string | null,
    props: string,
    userId: string | null,
    variants: string | null,
    createdAt: Date,
  ) =>
    // A repeated request's event (recordEvent's requestKey) has the same id: stored once.
    query
      .insertInto("AnalyticsEvent")
      .values({ id, visitorId, name, funnel, step, props, userId, variants, createdAt })
      .onConflict((conflict) => conflict.column("id").doNothing()),
);

/** Writes one event row at once (recordEvent, and each row of a batch). */
export function storeEvent(row: EventRow, variants: string | null): Promise<number> {
  return execute(insertEvent, row.id, row.visitorId, row.name, row.funnel ?? null, row.step ?? null, row.props, row.userId ?? null, variants, row.createdAt);
}

let queue: EventRow[] = [];
let timer: ReturnType<typeof setTimeout> | undefined;
/** The write under way, so a flush waits for rows already taken off the queue. */
let writing: Promise<void> = Promise.resolve();

/** Queues an event for the next batch; answers its id at once. */
export function queueEvent(event: EventInput): string {
  const id = crypto.randomUUID();
  queue.push({
    id,
    visitorId: event.visitorId,
    name: event.name,
    funnel: event.funnel,
    step: event.step,
    props: JSON.stringify(event.props ?? {}),
    userId: event.userId,
    createdAt: new Date(),
  });
  // The batch belongs to no request: its write is not one of the page's (page-record.server.ts).
  if (queue.length >= MAX_BATCH) outsideRecord(() => void flushEvents());
  else timer ??= outsideRecord(() => setTimeout(() => void flushEvents(), FLUSH_DELAY_MS));
  return id;
}

/** Writes every queued event; resolves once they (and any write under way) are stored. */
export function flushEvents(): Promise<void> {
  clearTimeout(timer);
  timer = undefined;
  const rows = queue;
  queue = [];
  if (rows.length > 0) writing = writing.then(() => writeRows(rows));
  return writing;
}

async function writeRows(rows: EventRow[]): Promise<void> {
  try {
    const variants = await eventVariantsOfMany(rows.map((row) => row.visitorId));
    // One prepared statement per row, not Prisma's createMany: at a few thousand views a second
    // its query compiler built a 300-row INSERT on the request thread every 100 ms, and the
    // pages queued behind it made the offer page's slowest 1%. On SQLite the rows queued in one
    // tick commit together (sql.server.ts); WRITE_SLICE rows at a time, so requests waiting
    // meanwhile are answered between two slices instead of after the whole batch.
    for (let start = 0; start < rows.length; start += WRITE_SLICE) {
      await Promise.all(rows.slice(start, start + WRITE_SLICE).map((row) => storeEvent(row, variants.get(row.visitorId) ?? null)));
    }
  } catch (error) {
    logger.error({ err: error }, `[analytics] could not record ${rows.length} queued events`);
  }
}

/** Events waiting to be written (for tests and the health of the queue). */
export function queuedEventCount(): number {
  return queue.length;
}
