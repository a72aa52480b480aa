/**
 * Pages rendered per person, kept as bytes and sent again when the same render comes up.
 *
 * React's render of a document is a pure function of the URL and the loader data of every
 * matched route (root included: the member menu, a toast), plus the build. Loaders still run
 * on every request (the session is checked, cookies are set, the data is read fresh); only
 * when their data is exactly the data a page was rendered from before is the render skipped
 * and the stored bytes sent, with this response's own CSP nonce in every slot (PageSlots).
 * So the key is the data itself, never the visitor: nobody can get a page whose data their
 * own loaders did not produce. A member reloading /home, or opening the next step of the
 * player and coming back, gets the stored bytes; finishing a step changes the data and so the
 * key. Content publishes change the data too, and contentGeneration() is part of the key as
 * well. Headers (Set-Cookie, Cache-Control: private, no-store) come from this request, as for
 * any rendered page. See docs/decisions/0021-per-person-pages.md.
 */
import { createHash } from "node:crypto";
import type { EntryContext } from "@remix-run/node";
import { contentGeneration, onContentChange } from "~/content/content.server";
import { inPreview } from "~/content/preview.server";
import { PageSlots } from "~/render/page-slots.server";
import { identityOf } from "~/utils/unchanging.server";

/** ≈ 90 KB a page: 300 pages are ≈ 27 MB. */
const MAX_PAGES = 300;

/** Insertion-ordered, so the first key is the least recently used. */
const pages = new Map<string, PageSlots>();

/** Values a render must not be keyed by: a promise (deferred data) stringifies as `{}`. */
class NotStorable extends Error {}
function plainValue(_key: string, value: unknown) {
  // A value built once and never changed (a funnel's plan): the same object is the same data,
  // so its identity stands for it instead of its ≈ 10 KB of JSON (unchanging.server.ts).
  const identity = identityOf(value);
  if (identity) return identity;
  if (typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function") throw new NotStorable();
  if (typeof value === "function" || typeof value === "symbol" || typeof value === "bigint") throw new NotStorable();
  return value;
}

/**
 * The key this render is stored under, or undefined when it must not be stored: anything
 * but a plain 200 GET document, action results, errors, deferred data.
 */
export function renderKey(request: Request, status: number, context: EntryContext, waitForAll: boolean): string | undefined {
  // A page showing drafts is rendered for the editor only.
  if (request.method !== "GET" || status !== 200 || inPreview()) return undefined;
  const { loaderData, actionData, errors, matches } = context.staticHandlerContext;
  if (actionData || errors) return undefined;
  let data: string;
  try {
    data = JSON.stringify(
      matches.map((match) => [match.route.id, loaderData[match.route.id] ?? null]),
      plainValue,
    );
  } catch (error) {
    if (error instanceof NotStorable) return undefined;
    throw error;
  }
  // The footer's year is the one value a page renders from the clock.
  const year = new Date().getUTCFullYear();
  return createHash("sha256")
    .update(`${contentGeneration()}\u0000${year}\u0000${waitForAll ? "all" : "shell"}\u0000${request.url}\u0000`)
    .update(data)
    .digest("base64url");
}

/** The stored render for `key`; undefined when none. */
export function storedRender(key: string): PageSlots | undefined {
  const page = pages.get(key);
  if (!page) return undefined;
  pages.delete(key);
  pages.set(key, page);
  return page;
}

/** Stores a render under `key`; answers its slots. */
export function storeRender(key: string, html: Buffer, nonce: string): PageSlots {
  const page = PageSlots.fromPage(html, nonce);
  pages.delete(key);
  pages.set(key, page);
  if (pages.size > MAX_PAGES) pages.delete(pages.keys().next().value!);
  return page;
}

export function forgetRenders(): void {
  pages.clear();
}
onContentChange(forgetRenders);

export function storedRenderCount(): number {
  return pages.size;
}
