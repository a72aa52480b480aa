/** The legal pages' loader: content plus where "Back" leads. */
import { safeRedirect } from "~/auth/redirect";
import { REFUND_WINDOWS_PLACEHOLDER, refundTermsLines } from "~/billing/refund-policy";
import { getLegalPage, getRefundWindows } from "~/content/content.server";
import type { LegalPage } from "~/content-model/content-types";

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
  return { page: await withRefundWindows(page), backHref: backHref(request.headers.get("Referer"), request.url) };
}

/**
 * The "{refundWindows}" paragraph becomes one line per plan sold with its window, read from
 * the offers (ADR 33): the Terms never state a refund period of their own.
 */
async function withRefundWindows(page: LegalPage): Promise<LegalPage> {
  if (!page.sections.some((section) => section.paragraphs.includes(REFUND_WINDOWS_PLACEHOLDER))) return page;
  const lines = refundTermsLines(await getRefundWindows());
  return {
    ...page,
    sections: page.sections.map((section) => ({
      ...section,
      paragraphs: section.paragraphs.flatMap((paragraph) => (paragraph === REFUND_WINDOWS_PLACEHOLDER ? lines : [paragraph])),
    })),
  };
}

export const LEGAL_PAGE_MISSING = "This page's content is missing.";
