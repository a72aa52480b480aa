/**
 * The consent form (the banner's and /cookie-settings'): what a visitor may send, and what
 * saving it does. The route turns the outcome into HTTP.
 */
import { z } from "zod";
import { sameOriginPath } from "~/content-model/same-origin-path";
import { go, refusal, type Go, type Refusal } from "~/utils/outcome";
import { toastHeader } from "~/utils/toast.server";
import { consentCookie, type ConsentChoice } from "./consent.server";
import { env } from "~/utils/env.server";

export const CHOOSE_ONE = "Please choose Accept or Decline.";

export const ConsentForm = z.object({
  choice: z.enum(["granted", "denied"], { error: CHOOSE_ONE }),
  returnTo: z.string().max(2000).optional(),
});

export const CONSENT_SAVED: Record<ConsentChoice, { title: string; description: string }> = {
  granted: { title: "Thanks, choice saved", description: "Meta's pixel is on. You can change this any time under Cookie settings." },
  denied: { title: "Choice saved", description: "Meta's pixel stays off. You can change this any time under Cookie settings." },
};

/** A path on this site to bring the visitor back to, or null (elsewhere, or the settings page itself). */
function pageToReturnTo(to: unknown): string | null {
  const path = sameOriginPath(to);
  return path && path !== "/cookie-settings" && !path.startsWith("/cookie-settings?") ? path : null;
}

/** Where a choice brings the visitor back to: the page they chose on, or the home page. */
export function returnPath(to: unknown): string {
  return pageToReturnTo(to) ?? "/";
}

/**
 * The page the form was sent from: the browser's Referer when it is a page of ours (it is the
 * page's current address even after in-app navigation, which the banner's field may predate),
 * else the form's `returnTo`.
 */
export function pageChosenOn(input: { referer: string | null; origin: string; returnTo?: string }): string {
  let fromReferer: string | null = null;
  try {
    const url = input.referer ? new URL(input.referer) : null;
    if (url && url.origin === input.origin) fromReferer = pageToReturnTo(`${url.pathname}${url.search}`);
  } catch {
    // Not a URL: use the form's field.
  }
  return fromReferer ?? returnPath(input.returnTo);
}

/** Remembers the choice and goes back to `page`; refused when no pixel is configured (there is nothing to choose). */
export async function saveConsent(choice: ConsentChoice, page: string): Promise<Go | Refusal> {
  if (!env.metaPixelId) return refusal(404, "This site uses no advertising cookies, so there is nothing to choose.");
  return go(page, [consentCookie(choice), await toastHeader(CONSENT_SAVED[choice])]);
}
