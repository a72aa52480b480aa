/**
 * What rendering a page depended on and did, noted while Remix answers a request, so that
 * the page can be answered again from memory before Express and Remix (stored-pages.server.ts)
 * exactly when that gives what rendering it again would give, with the same effects.
 *
 * The full path runs inside a record (runRecorded). The code that knows about a dependency
 * notes it where it computes it:
 * - a write to the database (sql.server.ts, and Prisma's driver through db.server.ts), or a
 *   cookie set: the page is not stored, since serving it again would skip the write;
 * - a time the page changes by itself (pageChangesAt): the member's next midnight, a session
 *   due for renewal, a paid period ending, an offer's countdown running out;
 * - an effect to repeat each time the page is shown (repeatOnEveryView): a queued view event;
 * - an offer's countdown (countdownOnPage): its seconds become a slot filled per response.
 *
 * Outside a record (tests, background jobs, the fast path itself) these calls do nothing.
 * See docs/decisions/0026-per-person-pages-before-the-framework.md.
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** What the fast path read before the full path ran: the page is stored under this, if at all. */
export type StoreTicket = {
  /** The request's identity: URL, cookies, kind of client. */
  key: string;
  /** The content generation before any loader read content. */
  generation: number;
  /** The signed-in browser's session and its member's data version, read before any loader ran; null: nobody signed in. */
  member: { sessionId: string; version: number } | null;
};

export type PageRecord = {
  ticket: StoreTicket | null;
  /** Set by the page's loader (pageMayBeStored): its page depends only on what the ticket and this record follow. */
  mayBeStored: boolean;
  /** Why the page may not be served again (a write, a cookie); empty: nothing. */
  sideEffects: string[];
  /** The earliest time (ms) the page changes by itself; Infinity: never. */
  changesAt: number;
  /** Effects to repeat whenever the page is served again. */
  repeats: (() => void)[];
  /** The page's countdown: its deadline (ms) and the seconds it showed. */
  countdown: { deadline: number; seconds: number } | null;
};

const records = new AsyncLocalStorage<PageRecord>();

export function newPageRecord(ticket: StoreTicket | null): PageRecord {
  return { ticket, mayBeStored: false, sideEffects: [], changesAt: Number.POSITIVE_INFINITY, repeats: [], countdown: null };
}

/** Runs `work` (the rest of a request) with `record` noting what it does. */
export function runRecorded<T>(record: PageRecord, work: () => T): T {
  return records.run(record, work);
}

/** Runs `work` outside any request's record (a batch of many requests' events, a timer). */
export function outsideRecord<T>(work: () => T): T {
  return records.exit(work);
}

/** The record of the request being answered, if any. */
export function currentPageRecord(): PageRecord | undefined {
  return records.getStore();
}

/**
 * Called by a page's loader (offer pages, /home, the player, /profile): the page may be kept and
 * answered again from memory. Only for a page that depends on nothing but the URL, the cookies,
 * the signed-in member's own rows (those MemberDataVersion follows), content, and the clock
 * where the code reading it notes when the page changes (pageChangesAt).
 */
export function pageMayBeStored(): void {
  const record = records.getStore();
  if (record) record.mayBeStored = true;
}

/** Something happened that serving the page again would not do (a database write, a cookie set). */
export function noteSideEffect(what: string): void {
  const record = records.getStore();
  if (record && record.sideEffects.length < 10) record.sideEffects.push(what);
}

/**
 * The page shown now stays the same only until `at`. A function is called only when the
 * page may be stored at all (a GET the fast path gave a ticket), so working the time out
 * costs nothing on other requests.
 */
export function pageChangesAt(at: Date | number | (() => Date | number)): void {
  const record = records.getStore();
  if (!record?.ticket) return;
  const when = typeof at === "function" ? at() : at;
  const ms = typeof when === "number" ? when : when.getTime();
  if (ms < record.changesAt) record.changesAt = ms;
}

/** `effect` happens now; serving the page again must do it again (it is not a database write of this request). */
export function repeatOnEveryView(effect: () => void): void {
  records.getStore()?.repeats.push(effect);
}

/** The page shows a countdown to `deadline` with `seconds` left: filled in per response when served again. */
export function countdownOnPage(deadline: number, seconds: number): void {
  const record = records.getStore();
  if (!record) return;
  record.countdown = { deadline, seconds };
  pageChangesAt(deadline);
}
