/**
 * Preview: a signed cookie that makes this browser's pages show Sanity drafts. The Studio
 * opens /preview with a short-lived secret it has just stored in the dataset
 * (@sanity/preview-url-secret: a `sanity.previewUrlSecret` document, valid for an hour,
 * readable only with a token); the app looks it up with its server-only token, so no
 * secret is ever built into the Studio's bundle. A valid link sets the cookie, signed with
 * the session secret and short-lived, so it cannot be forged or kept forever. Requests
 * carrying it bypass every content and page cache, and what they see never becomes anyone
 * else's cached page. The cookie also names the Studio that opened it: that origin (only)
 * may show these pages in its preview pane, beside the form being edited.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import crypto from "node:crypto";
import { validatePreviewUrl } from "@sanity/preview-url-secret";
import { now } from "~/utils/clock.server";
import { env } from "~/utils/env.server";
import { contentSources } from "./source.server";

export const PREVIEW_COOKIE = "gc_preview";
const LIFETIME_S = 60 * 60;

/** A preview in progress: the origin of the Studio that opened it, when it gave one. */
export type Preview = { studioOrigin: string | null };

const previewing = new AsyncLocalStorage<Preview | null>();

/** Drafts can be shown only when content comes from Sanity and the server holds a token. */
export function previewAvailable(): boolean {
  return contentSources().previewClient !== null;
}

function sign(expires: number, studioOrigin: string): string {
  return crypto.createHmac("sha256", env.sessionSecret).update(`preview:${expires}:${studioOrigin}`).digest("base64url");
}

/**
 * In the Studio's preview pane the page is in a frame of another site, where a browser only
 * keeps a cookie marked SameSite=None (and Secure, so https only; Partitioned keeps it to
 * pages framed by that site). Over plain http (local) the Studio and app must be one site
 * (e.g. both on localhost) for the pane; a new tab works either way.
 */
function cookieAttributes(maxAge: number): string {
  const sameSite = env.publicUrl.startsWith("https:") ? "SameSite=None; Secure; Partitioned" : `SameSite=Lax${env.isProduction ? "; Secure" : ""}`;
  return `Path=/; HttpOnly; ${sameSite}; Max-Age=${maxAge}`;
}

export function previewCookie(studioOrigin: string | null): string {
  const expires = Math.floor(now().getTime() / 1000) + LIFETIME_S;
  const origin = studioOrigin ? Buffer.from(studioOrigin).toString("base64url") : "-";
  return `${PREVIEW_COOKIE}=${expires}.${origin}.${sign(expires, studioOrigin ?? "")}; ${cookieAttributes(LIFETIME_S)}`;
}

export function clearPreviewCookie(): string {
  return `${PREVIEW_COOKIE}=; ${cookieAttributes(0)}`;
}

/** The preview a valid, unexpired cookie stands for, and only when drafts can be read at all; else null. */
export function readPreviewCookie(cookieHeader: string | null | undefined): Preview | null {
  if (!previewAvailable() || !cookieHeader) return null;
  const match = new RegExp(`(?:^|;\\s*)${PREVIEW_COOKIE}=(\\d+)\\.([A-Za-z0-9_-]+)\\.([A-Za-z0-9_-]+)`).exec(cookieHeader);
  if (!match) return null;
  const expires = Number(match[1]);
  if (expires * 1000 < now().getTime()) return null;
  const studioOrigin = match[2] === "-" ? null : Buffer.from(match[2], "base64url").toString("utf8");
  const expected = Buffer.from(sign(expires, studioOrigin ?? ""));
  const given = Buffer.from(match[3]);
  return expected.length === given.length && crypto.timingSafeEqual(expected, given) ? { studioOrigin } : null;
}

/** What a preview link from the Studio opens: where to go and which Studio opened it, or why not. */
export type PreviewLink = { ok: true; redirectTo: string | null; studioOrigin: string | null } | { ok: false; reason: "invalid" | "unavailable" };

/**
 * Checks a Studio preview link (`?sanity-preview-secret=…&sanity-preview-pathname=/quiz`):
 * the secret must be one the Studio stored in the dataset within the last hour.
 */
export async function checkPreviewLink(url: string): Promise<PreviewLink> {
  const { previewClient } = contentSources();
  if (!previewClient) return { ok: false, reason: "unavailable" };
  let result: Awaited<ReturnType<typeof validatePreviewUrl>>;
  try {
    result = await validatePreviewUrl(previewClient, url);
  } catch {
    return { ok: false, reason: "unavailable" };
  }
  if (!result.isValid) return { ok: false, reason: "invalid" };
  const studioOrigin = result.studioOrigin && /^https?:\/\/[^/]+$/.test(result.studioOrigin) ? result.studioOrigin : null;
  return { ok: true, redirectTo: result.redirectTo ? withoutStudioParams(result.redirectTo) : null, studioOrigin };
}

/** The Studio adds its perspective to the page's address; the app has one preview perspective (drafts). */
function withoutStudioParams(path: string): string {
  const url = new URL(path, "http://app.invalid");
  for (const name of [...url.searchParams.keys()]) if (name.startsWith("sanity-preview-")) url.searchParams.delete(name);
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * Runs the rest of a request (app/server.ts middleware) knowing whether it previews drafts. A
 * preview opened by a Studio may be framed by that Studio: its origin goes into the page's
 * Content-Security-Policy (frame-ancestors), and X-Frame-Options, which cannot name an
 * origin, is dropped for that response.
 */
export function withContentPreview(cookieHeader: string | undefined, response: { removeHeader(name: string): void }, next: () => void): void {
  const preview = readPreviewCookie(cookieHeader);
  if (preview?.studioOrigin) response.removeHeader("X-Frame-Options");
  previewing.run(preview, next);
}

export function inPreview(): boolean {
  return !!previewing.getStore();
}

/** The Studio that may frame this response (its preview pane), or null. */
export function previewFramedBy(): string | null {
  return previewing.getStore()?.studioOrigin ?? null;
}
