/**
 * What rendering a page depended on and did, noted while Remix answers a request, so that
 * the page can be answered again from memory before Express and Remix (stored-pages.server.ts)
 * exactly when that gives what rendering it again would give, with the same effects.
 *
 * The full path runs inside a record (runRecorded). The page's loader declares what the page
 * is rendered from (pageMayBeStored); what the render actually did is noted here:
 * - every database statement (told by the database layer to utils/statements.server.ts): a
 *   write, or a cookie set, and the page is not stored, since serving it again would skip it;
 *   the tables it names, compared with the declaration (undeclaredReads);
 * - a time the page changes by itself (told beside now(): clock.server.ts, validUntil): the
 *   member's next midnight, a session due for renewal, a paid period ending, the year;
 * - an effect to repeat each time the page is shown (repeatOnEveryView): a queued view event;
 * - an offer's countdown (countdownOnPage): its seconds become a slot filled per response.
 *
 * Outside a record (tests, background jobs, the fast path itself) these calls do nothing.
 * See docs/decisions/0026-per-person-pages-before-the-framework.md and 0040-one-typed-server-entry.md.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { onValidUntil, type Moment } from "~/utils/clock.server";
import { onStatement } from "~/utils/statements.server";

/**
 * Tables whose every change moves the member's data version (MemberDataVersion, moved by the
 * triggers of migrations 20261210000000_member_data_version and
 * 20261221000000_refund_member_data_version), and Session, which the stored-page lookup reads
 * with it: a page reading only these of the member's rows is fresh while the version holds.
 */
export const MEMBER_TABLES = ["User", "Session", "Entitlement", "EntitlementState", "MemberAnswers", "PlanCompletion", "PlanStepCompletion", "Refund"] as const;
export type MemberTable = (typeof MEMBER_TABLES)[number];

/**
 * What a stored page may be rendered from, declared by its loader (pageMayBeStored) beside
 * its code. One module decides what each means (stored-pages.server.ts):
 * - "url", "cookies": the key (the whole Cookie header: session, visitor, answers, countdown, time zone);
 * - "member:<table>": the member's rows in that table (the member's data version);
 * - "content": the published content and the addresses it had (a publish clears every stored page);
 * - "variant": the visitor's experiment assignment (written once, on the first view, which is never kept);
 * - "clock": the time, where the code reading it says how long its value holds (validUntil).
 * "url" and "cookies" name no table: every stored page is keyed by both.
 */
export type PageInput = "url" | "cookies" | "content" | "variant" | "clock" | `member:${MemberTable}`;

/** The tables each input stands for; a render reading any other table is not kept. */
const TABLES_OF: Record<string, readonly string[]> = {
  content: ["ContentVersion", "PublishedPage"],
  variant: ["ExperimentAssignment"],
  ...Object.fromEntries(MEMBER_TABLES.map((table) => [`member:${table}`, [table]])),
};

/** The tables a page declaring `reads` may read. */
export function tablesDeclared(reads: readonly PageInput[]): Set<string> {
  return new Set(reads.flatMap((input) => TABLES_OF[input] ?? []));
}

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
  /** Set by the page's loader (pageMayBeStored): what its page is rendered from; null: it may not be stored. */
  declared: readonly PageInput[] | null;
  /** The tables the request's statements named (statements.server.ts). */
  tablesRead: Set<string>;
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
  return { ticket, declared: null, tablesRead: new Set(), sideEffects: [], changesAt: Number.POSITIVE_INFINITY, repeats: [], countdown: null };
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
 * Called by a page's loader (offer pages, /home, the player, /profile) with what its page,
 * root layout included, is rendered from: the page may be kept and answered again from memory
 * while none of those changed. A render that reads a table its declaration does not name is
 * not kept (undeclaredReads), so a loader that starts reading another table never serves stale pages.
 */
export function pageMayBeStored(reads: readonly PageInput[]): void {
  const record = records.getStore();
  if (record) record.declared = reads;
}

/** The tables this render read that its page's declaration does not name (empty: none). */
export function undeclaredReads(record: PageRecord): string[] {
  const declared = tablesDeclared(record.declared ?? []);
  return [...record.tablesRead].filter((table) => !declared.has(table));
}

// The code that reads the clock says how long what it read holds (clock.server.ts, validUntil).
onValidUntil(pageChangesAt);

// Every statement of a recorded request: a write makes the page one not to keep; the tables
// it names are compared with the page's declaration.
onStatement((statement) => {
  const record = records.getStore();
  if (!record) return;
  if (statement.write) noteSideEffect("database write");
  for (const table of statement.tables) record.tablesRead.add(table);
});

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
export function pageChangesAt(at: Moment): void {
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
