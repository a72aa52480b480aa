/**
 * The visitor's answer to "may Meta's pixel and the Conversions API see this visit?" (ADR 32).
 * Asked only where META_PIXEL_ID is set; first-party analytics never depend on it.
 *
 * Kept in a plain cookie, `gc_consent=granted|denied`, HttpOnly, SameSite=Lax, Secure on https,
 * for 180 days. Not signed: it holds the visitor's own choice, and a forged value changes only
 * what that visitor's own browser sends. Its meaning is a pure function of the Cookie header, so
 * the page caches key on exactly what the page was rendered from (page-cache.server.ts).
 */
import { env } from "~/utils/env.server";

export const CONSENT_COOKIE = "gc_consent";
/** How long a choice is remembered before the banner asks again (about six months). */
export const CONSENT_MAX_AGE_SECONDS = 180 * 24 * 60 * 60;

export type ConsentChoice = "granted" | "denied";
/** "off": no pixel configured, nothing to ask; "ask": configured and not answered yet. */
export type AdConsent = ConsentChoice | "ask" | "off";

const CONSENT_IN_HEADER = /(?:^|;\s*)gc_consent=(granted|denied)(?:;|\s|$)/;

/** The choice a Cookie header carries, whatever the configuration. */
export function consentChoiceIn(cookieHeader: string | null | undefined): ConsentChoice | null {
  const match = cookieHeader ? CONSENT_IN_HEADER.exec(cookieHeader) : null;
  return match ? (match[1] as ConsentChoice) : null;
}

/** What this request may send to Meta: nothing unless the pixel is configured and the visitor said yes. */
export function adConsentIn(cookieHeader: string | null | undefined): AdConsent {
  if (!env.metaPixelId) return "off";
  return consentChoiceIn(cookieHeader) ?? "ask";
}

/** True when this request may load the pixel and have its conversions reported to Meta. */
export function adsAllowed(request: Request): boolean {
  return adConsentIn(request.headers.get("Cookie")) === "granted";
}

/** The Set-Cookie header remembering a choice. */
export function consentCookie(choice: ConsentChoice): string {
  const secure = env.publicUrl.startsWith("https:") ? "; Secure" : "";
  return `${CONSENT_COOKIE}=${choice}; Max-Age=${CONSENT_MAX_AGE_SECONDS}; Path=/; HttpOnly; SameSite=Lax${secure}`;
}
