/**
 * Pages answered before Express and Remix: the one place this happens. app/server.ts hands every
 * request that passed the gate (request-guard.server.ts) to serveStoredPage, which answers
 * from memory when it can and otherwise runs the full path (Express → Remix → route) with a
 * page record (page-record.server.ts), so the page it renders can be kept. Two kinds:
 *
 * - Funnel steps (app/funnels/page-cache.server.ts, ADR 4): keyed by their view, shared by
 *   every visitor at the same step with the same relevant answers.
 * - Per-person pages (ADR 26): offer pages, /home, the routine player and /profile, whose
 *   loaders call pageMayBeStored (page-record.server.ts). A page is kept under the request that
 *   produced it: its URL, its whole Cookie header (the signed session, visitor, answers,
 *   countdown and time-zone cookies) and the kind of client (a crawler gets the page whole).
 *   It is answered again for the same request while nothing it was rendered from changed:
 *   - the member's data version (MemberDataVersion, moved by database triggers on every row a
 *     member's pages read), read with one prepared statement that also finds the session row
 *     (signed out, expired or ended by a sign-in elsewhere: no row, no stored page);
 *   - the content version (a publish, on every instance within a second, ADR 16);
 *   - the times the page changes by itself, noted by the code that reads the clock: the
 *     member's midnight, a session due for renewal, a paid period's end, a countdown's end;
 *   - the footer's year.
 *   Only a render that wrote nothing and set no cookie is kept (a first visit, a toast, a
 *   session renewal, answers attached to an account go through the full path); an offer's
 *   view event is queued again on every view, and its countdown is a slot filled per response
 *   like the nonce. Headers are the full path's (one policy: Cache-Control: private, no-store
 *   and a fresh CSP nonce).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { createHash } from "node:crypto";
import { isbot } from "isbot";
import { landingAttribution } from "~/analytics/attribution";
import { sessionIdIn } from "~/utils/session-cookie.server";
import { contentGeneration, onContentChange } from "~/content/content.server";
import { documentHeaders, newNonce, staticSecurityHeaders } from "~/security/headers.server";
import { requestPathOf } from "~/security/request-guard.server";
import { now, runWithRequestClock } from "~/utils/clock.server";
import { env } from "~/utils/env.server";
import { logger } from "~/utils/logger.server";
import { query, queryRows, statement } from "~/utils/sql.server";
import { newPageRecord, runRecorded, undeclaredReads, type PageRecord, type StoreTicket } from "~/utils/page-record.server";
import { PageSlots } from "./page-slots.server";
import { forgetRenders } from "./stored-renders.server";

/** Pages share their bytes with stored-renders.server.ts when they can; ≈ 90 KB each otherwise. */
const MAX_PAGES = 500;

/** The Server-Timing entry of a page answered from memory. */
export const STORED_PAGE_TIMING = "stored-page";

type StoredPage = {
  page: PageSlots;
  /** The full path's headers other than those of the one document policy (documentHeaders). */
  headers: Record<string, string>;
  generation: number;
  member: StoreTicket["member"];
  /** Served only before this time (ms, the request's clock). */
  changesAt: number;
  /** The footer's year when it was rendered. */
  year: number;
  countdownDeadline: number | null;
  repeats: (() => void)[];
};

/** Insertion-ordered, so the first key is the least recently used. */
const pages = new Map<string, StoredPage>();

export function forgetPersonalPages(): void {
  pages.clear();
}
onContentChange(forgetPersonalPages);

/** Every page and render kept here (development: the code that rendered them changed). */
export function forgetStoredPages(): void {
  forgetRenders();
  forgetPersonalPages();
}

export function personalPageCount(): number {
  return pages.size;
}

/** Crawler or browser, by User-Agent string (the same few strings come again and again). */
const crawlers = new Map<string, boolean>();
function isCrawler(userAgent: string): boolean {
  let crawler = crawlers.get(userAgent);
  if (crawler === undefined) {
    crawler = isbot(userAgent);
    if (crawlers.size >= 1000) crawlers.clear();
    crawlers.set(userAgent, crawler);
  }
  return crawler;
}

/**
 * The identity of a document request, or null when it is none that could be stored: only
 * GET, no file (a dot in the path: /assets/x.js) or data request, no preview, and only a path
 * sent as the router matches it (the gate's judgement, ADR 29): another spelling of a page's
 * path (`/home/./`, `/h%6Fme`) is rendered every time instead of keeping a copy per spelling.
 */
function requestKey(req: IncomingMessage): string | null {
  const url = req.url;
  if (req.method !== "GET" || !url || !requestPathOf(req)?.asSent) return null;
  const query = url.indexOf("?");
  const path = query === -1 ? url : url.slice(0, query);
  if (path.includes(".") || (query !== -1 && url.includes("_data=", query))) return null;
  // A preview of drafts changes without a publish: always rendered.
  if (req.headers.cookie?.includes("gc_preview=")) return null;
  const client = isCrawler(req.headers["user-agent"] ?? "") ? "crawler" : "browser";
  return createHash("sha256")
    .update(`${client}\u0000${url}\u0000${req.headers.cookie ?? ""}`)
    .digest("base64url");
}

const memberVersionBySession = statement((sessionId: string) =>
  query.selectFrom("Session as s").leftJoin("MemberDataVersion as v", "v.userId", "s.userId").select("v.version").where("s.id", "=", sessionId),
);

/** The member's data version, by their browser's session; null when there is no such session. */
async function memberVersion(sessionId: string): Promise<number | null> {
  const rows = await queryRows(memberVersionBySession, sessionId);
  return rows.length ? Number(rows[0].version ?? 0) : null;
}

/** A landing the full path writes down (UTM tags, a referrer from elsewhere): never answered from memory. */
function recordsALanding(req: IncomingMessage): boolean {
  if (!req.headers.referer && !req.url?.includes("?")) return false;
  return landingAttribution({ url: new URL(req.url ?? "/", env.publicUrl).href, referer: req.headers.referer, ownOrigins: [env.publicUrl] }) !== null;
}

type Lookup = { served: true } | { served: false; ticket: StoreTicket | null };

async function servePersonalPage(req: IncomingMessage, res: ServerResponse): Promise<Lookup> {
  const key = requestKey(req);
  if (!key || recordsALanding(req)) return { served: false, ticket: null };
  const generation = contentGeneration();
  const stored = pages.get(key);
  let member: StoreTicket["member"] | undefined;
  if (stored) {
    const at = now().getTime();
    let fresh = stored.generation === generation && at < stored.changesAt && stored.year === new Date().getFullYear();
    if (fresh && stored.member) {
      const version = await memberVersion(stored.member.sessionId);
      member = version === null ? undefined : { sessionId: stored.member.sessionId, version };
      fresh = version === stored.member.version;
    }
    if (fresh) {
      pages.delete(key);
      pages.set(key, stored);
      send(req, res, stored, at);
      return { served: true };
    }
    pages.delete(key);
  }
  // The full path renders it: what it is rendered from is read now, before any loader runs.
  const sessionId = await sessionIdIn(req.headers.cookie);
  if (sessionId) {
    if (member?.sessionId !== sessionId) {
      const version = await memberVersion(sessionId);
      member = version === null ? undefined : { sessionId, version };
    }
    // A signed cookie whose session is gone: not a page to keep.
    if (!member) return { served: false, ticket: null };
  } else if (req.headers.cookie?.includes("gc_session=")) {
    return { served: false, ticket: null };
  }
  return { served: false, ticket: { key, generation, member: member ?? null } };
}

function send(req: IncomingMessage, res: ServerResponse, stored: StoredPage, at: number): void {
  const nonce = newNonce();
  const countdownSeconds = stored.countdownDeadline === null ? undefined : Math.ceil((stored.countdownDeadline - at) / 1000);
  const gzip = /\bgzip\b/.test(req.headers["accept-encoding"] ?? "");
  const parts = gzip ? stored.page.gzipParts({ nonce, countdownSeconds }) : stored.page.htmlParts({ nonce, countdownSeconds });
  res.writeHead(200, {
    ...staticSecurityHeaders(),
    ...stored.headers,
    ...documentHeaders(nonce),
    Vary: "Accept-Encoding",
    // Says the page came from memory (for operators and the tests); nothing else differs.
    "Server-Timing": STORED_PAGE_TIMING,
    "Content-Length": parts.reduce((length, part) => length + part.length, 0),
    ...(gzip ? { "Content-Encoding": "gzip" } : {}),
  });
  // Corked (end() uncorks): the parts leave in one write, without copying the page into one buffer.
  res.cork();
  for (const part of parts) res.write(part);
  res.end();
  for (const repeat of stored.repeats) repeat();
}

/** Answers a request from pages kept elsewhere (the funnel steps everyone at a step shares), true when it did. */
export type SharedPages = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

/**
 * Answers the request from memory when a page kept for everyone (`sharedPages`, asked first:
 * the server entry passes the funnel page cache) or a stored per-person page is still what the
 * full path would send; otherwise runs `fullPath` (Express and Remix) with a page record.
 */
export async function serveStoredPage(req: IncomingMessage, res: ServerResponse, fullPath: () => void, sharedPages?: SharedPages): Promise<void> {
  let ticket: StoreTicket | null = null;
  try {
    if (sharedPages && (await sharedPages(req, res))) return;
    const lookup = env.testClock
      ? await runWithRequestClock(req.headers["x-test-clock-offset-ms"], () => servePersonalPage(req, res))
      : await servePersonalPage(req, res);
    if (lookup.served) return;
    ticket = lookup.ticket;
  } catch (error) {
    logger.error({ err: error }, "[stored-pages] could not serve a stored page");
    if (res.headersSent) return void res.end();
  }
  runRecorded(newPageRecord(ticket), fullPath);
}

/** Each mismatch between a page's declaration and its render, logged once per process. */
const mismatchesLogged = new Set<string>();

/**
 * The render read only what its page declared (page-record.server.ts, pageMayBeStored): the
 * tables of its inputs, and the clock only if declared. Otherwise the page is not kept (a stored
 * copy would not follow what else it read) and the mismatch is logged for the developer.
 */
function asDeclared(record: PageRecord, request: Request): boolean {
  const undeclared = undeclaredReads(record);
  if (record.changesAt !== Number.POSITIVE_INFINITY && !record.declared?.includes("clock")) undeclared.push("the clock");
  if (!undeclared.length) return true;
  const message = `[stored-pages] ${new URL(request.url).pathname} read ${undeclared.join(", ")}, which its pageMayBeStored declaration does not name: not kept`;
  if (!mismatchesLogged.has(message) && mismatchesLogged.size < 100) {
    mismatchesLogged.add(message);
    logger.error(message);
  }
  return false;
}

/** Headers the one document policy sets on every page (documentHeaders), and those a stored page never has. */
const POLICY_HEADERS = new Set(["content-type", "cache-control", "content-security-policy", "set-cookie", "vary", "content-length", "content-encoding"]);

/**
 * What entry.server keeps of a page the full path rendered, or null when it may not be served
 * again: it is not a GET 200 document of a route that opted in, its data cannot be stored
 * (`storable`: stored-renders.server.ts's rule), or the request wrote, set a cookie or had no ticket.
 */
export function pageToKeep(input: {
  record: PageRecord | undefined;
  request: Request;
  status: number;
  responseHeaders: Headers;
  storable: boolean;
}): { record: PageRecord; ticket: StoreTicket; headers: Record<string, string>; year: number } | null {
  const { record, responseHeaders } = input;
  if (!record?.ticket || !record.declared || !input.storable || input.request.method !== "GET" || input.status !== 200) return null;
  if (responseHeaders.has("Set-Cookie") || record.sideEffects.length || !asDeclared(record, input.request)) return null;
  const headers: Record<string, string> = {};
  responseHeaders.forEach((value, name) => {
    if (!POLICY_HEADERS.has(name.toLowerCase())) headers[name] = value;
  });
  return { record, ticket: record.ticket, headers, year: new Date().getFullYear() };
}

/**
 * Keeps a page rendered by the full path (`page`: its slots when it has no countdown, shared
 * with stored-renders; else `html` is cut again with the countdown as a slot).
 */
export function keepPage(kept: NonNullable<ReturnType<typeof pageToKeep>>, rendered: { html: Buffer; nonce: string } | { page: PageSlots }): void {
  const { record, ticket, headers, year } = kept;
  // Something written meanwhile (a render has no database work, but be sure), or a render
  // that straddled New Year (which year its footer shows is not certain).
  if (record.sideEffects.length || year !== new Date().getFullYear()) return;
  let page: PageSlots | undefined;
  if (record.countdown) {
    if (!("html" in rendered)) return;
    page = PageSlots.withCountdown(rendered.html, rendered.nonce, record.countdown.seconds);
  } else {
    page = "page" in rendered ? rendered.page : PageSlots.fromPage(rendered.html, rendered.nonce);
  }
  if (!page) return;
  pages.delete(ticket.key);
  pages.set(ticket.key, {
    page,
    headers,
    generation: ticket.generation,
    member: ticket.member,
    changesAt: record.changesAt,
    year,
    countdownDeadline: record.countdown?.deadline ?? null,
    repeats: record.repeats,
  });
  if (pages.size > MAX_PAGES) pages.delete(pages.keys().next().value!);
}
