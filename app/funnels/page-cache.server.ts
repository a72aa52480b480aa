/**
 * Rendered funnel pages, kept in memory and served without running React again.
 *
 * A step page is a pure function of its path, the step's view (the loader data: which
 * answers are preselected, where Back goes, the experiment variants the visitor runs the
 * funnel in) and the content version. So the key is
 * exactly that, never the visitor: two visitors at the same step with the same
 * relevant answers get the same bytes. A page is only served from here when opening
 * it changes nothing (no event to record, no cookie to set); otherwise the request
 * goes through Remix as usual. See docs/decisions/0004-funnel-page-cache.md.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { adConsentIn } from "~/analytics/consent.server";
import { identifyVisitor } from "~/analytics/visitor.server";
import { contentGeneration, onContentChange } from "~/content/content.server";
import { storedFunnelVersion } from "~/experiments/experiments.server";
import { documentHeaders, newNonce, staticSecurityHeaders } from "~/security/headers.server";
import { PageSlots } from "~/render/page-slots.server";
import { planFunnelStep } from "./flow.server";
import type { StepView } from "./view";

const MAX_PAGES = 500;

/** A page with slots where its CSP nonce goes: each response fills in a fresh one. */
type CachedPage = PageSlots;

/** Insertion-ordered, so the first key is the least recently used. */
const pages = new Map<string, CachedPage>();

/** Views whose loader had no side effects, so their page may be served again. */
const reusableViews = new WeakSet<object>();

export function markReusable(view: StepView): StepView {
  reusableViews.add(view);
  return view;
}

export function isReusable(view: unknown): view is StepView {
  return typeof view === "object" && view !== null && reusableViews.has(view);
}

/**
 * The page also shows the visitor's answer to the consent banner (the banner, or Meta's pixel):
 * part of the key, read from the Cookie header as the root loader reads it (ADR 32).
 */
function pageKey(path: string, view: StepView, cookieHeader: string | null): string {
  // A question's plan is the funnel version's, which the content generation and the variant already name.
  const { plan: _plan, ...shown } = view;
  return `${contentGeneration()}\u0000${adConsentIn(cookieHeader)}\u0000${path}\u0000${JSON.stringify(shown)}`;
}

export function rememberPage(path: string, view: StepView, html: Buffer, nonce: string, cookieHeader: string | null): void {
  const key = pageKey(path, view, cookieHeader);
  pages.delete(key);
  pages.set(key, PageSlots.fromPage(html, nonce));
  if (pages.size > MAX_PAGES) pages.delete(pages.keys().next().value!);
}

export function forgetPages(): void {
  pages.clear();
}
onContentChange(forgetPages);

export function cachedPageCount(): number {
  return pages.size;
}

/** Cookies that make a page personal (a signed-in member, a toast to show, a preview of drafts). */
const PERSONAL_COOKIES = /(?:^|;\s*)(?:gc_session|gc_toast|gc_preview)=/;

/** /quiz or /quiz/3: one or two plain segments, no query string. */
const FUNNEL_PATH = /^\/([a-z0-9]+(?:-[a-z0-9]+)*)(?:\/([a-z0-9]+(?:-[a-z0-9]+)*))?$/;

/**
 * Answers a GET for a funnel step from the cache when it can; returns false (having
 * written nothing) when the request must go through Remix.
 */
export async function serveCachedPage(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  if (req.method !== "GET" || pages.size === 0 || !req.url) return false;
  const match = FUNNEL_PATH.exec(req.url);
  if (!match) return false;
  const cookieHeader = req.headers.cookie ?? null;
  // Cached pages are the anonymous, toast-free rendering: members see their menu, and a
  // pending toast must be shown once. A new visitor gets a cookie from the normal path.
  if (cookieHeader && PERSONAL_COOKIES.test(cookieHeader)) return false;
  const visitor = await identifyVisitor(cookieHeader);
  if (visitor.setCookie) return false;
  // A funnel with experiments running: the visitor's stored variants, or Remix assigns them first.
  const version = await storedFunnelVersion(`/${match[1]}`, visitor.visitorId);
  if (!version || version === "unassigned") return false;

  const outcome = await planFunnelStep({ cookieHeader, route: `/${match[1]}`, stepParam: match[2], version });
  if (outcome.kind !== "view" || outcome.setCookie || outcome.events?.length) return false;
  const key = pageKey(req.url, outcome.view, cookieHeader);
  const page = pages.get(key);
  if (!page) return false;
  pages.delete(key);
  pages.set(key, page);

  const nonce = newNonce();
  const gzip = /\bgzip\b/.test(req.headers["accept-encoding"] ?? "");
  const parts = gzip ? page.gzipParts(nonce) : page.htmlParts(nonce);
  res.writeHead(200, {
    ...staticSecurityHeaders(),
    ...documentHeaders(nonce),
    Vary: "Accept-Encoding",
    "Content-Length": parts.reduce((length, part) => length + part.length, 0),
    ...(gzip ? { "Content-Encoding": "gzip" } : {}),
  });
  // Corked (end() uncorks): the parts leave in one write, without copying the page into one buffer.
  res.cork();
  for (const part of parts) res.write(part);
  res.end();
  return true;
}
