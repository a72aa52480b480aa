/**
 * Preview: a signed cookie, set by /preview?secret=… (the Studio's "Open preview"), that
 * makes this browser's pages show Sanity drafts. Signed with the session secret and
 * short-lived, so it cannot be forged or kept forever. Requests carrying it bypass every
 * content and page cache, and what they see never becomes anyone else's cached page.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import crypto from "node:crypto";
import { now } from "~/utils/clock.server";
import { env } from "~/utils/env.server";

export const PREVIEW_COOKIE = "gc_preview";
const LIFETIME_S = 60 * 60;

const previewing = new AsyncLocalStorage<boolean>();

function sign(expires: number): string {
  return crypto.createHmac("sha256", env.sessionSecret).update(`preview:${expires}`).digest("base64url");
}

function cookieAttributes(maxAge: number): string {
  return `Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${env.isProduction ? "; Secure" : ""}`;
}

export function previewCookie(): string {
  const expires = Math.floor(now().getTime() / 1000) + LIFETIME_S;
  return `${PREVIEW_COOKIE}=${expires}.${sign(expires)}; ${cookieAttributes(LIFETIME_S)}`;
}

export function clearPreviewCookie(): string {
  return `${PREVIEW_COOKIE}=; ${cookieAttributes(0)}`;
}

/** True for a valid, unexpired preview cookie, and only when drafts can be read at all. */
export function hasPreviewCookie(cookieHeader: string | null | undefined): boolean {
  if (!env.sanity?.previewSecret || !env.sanity.token || !cookieHeader) return false;
  const match = new RegExp(`(?:^|;\\s*)${PREVIEW_COOKIE}=(\\d+)\\.([A-Za-z0-9_-]+)`).exec(cookieHeader);
  if (!match) return false;
  const expires = Number(match[1]);
  if (expires * 1000 < now().getTime()) return false;
  const expected = Buffer.from(sign(expires));
  const given = Buffer.from(match[2]);
  return expected.length === given.length && crypto.timingSafeEqual(expected, given);
}

/** The secret in the preview URL, compared in constant time. */
export function isPreviewSecret(given: string | null): boolean {
  const secret = env.sanity?.previewSecret;
  if (!secret || !given) return false;
  const a = crypto.createHash("sha256").update(given).digest();
  const b = crypto.createHash("sha256").update(secret).digest();
  return crypto.timingSafeEqual(a, b);
}

/** Runs the rest of a request (server.mjs middleware) knowing whether it previews drafts. */
export function withContentPreview(cookieHeader: string | undefined, next: () => void): void {
  previewing.run(hasPreviewCookie(cookieHeader), next);
}

export function inPreview(): boolean {
  return previewing.getStore() === true;
}
