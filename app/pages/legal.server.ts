/** The legal pages' loader: content plus where "Back" leads. */
import { safeRedirect } from "~/auth/redirect";
import { getLegalPage } from "~/content/content.server";
import type { LegalPage } from "~/content/types";

/**
 * "Back" returns to the page the visitor came from on this site (the Referer), so it works
 * without JavaScript; from anywhere else, or the legal page itself, it goes home.
 */
export function backHref(referer: string | null, requestUrl: string): string {
  if (!referer) return "/";
  let from: URL;
  try {
    from = new URL(referer);
  } catch {
    return "/";
  }
  const here = new URL(requestUrl);
  if (from.origin !== here.origin || from.pathname === here.pathname) return "/";
  return safeRedirect(`${from.pathname}${from.search}`, "/");
}

/** A legal page and where its "Back" leads; null when its content document is missing. */
export async function legalPageView(request: Request, slug: LegalPage["slug"]) {
  const page = await getLegalPage(slug);
  if (!page) return null;
  return { page, backHref: backHref(request.headers.get("Referer"), request.url) };
}

export const LEGAL_PAGE_MISSING = "This page's content is missing.";
