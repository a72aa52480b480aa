/**
 * Where the app shows a document, and the app's preview link for it. The app's origin is
 * the only thing the Studio is built with (SANITY_STUDIO_PREVIEW_URL): no secret. Each
 * preview link carries a secret the Studio has just stored in the dataset (see
 * use-preview-link.ts), which the app checks with its own server-side token.
 */

/** The app's origin, e.g. https://glowcoach.app (set when building the Studio). */
export const APP_URL = (process.env.SANITY_STUDIO_PREVIEW_URL || "http://localhost:3000").replace(/\/$/, "");

type Doc = { _id?: unknown; _type?: unknown; [field: string]: unknown };

/** The app page that shows a document, or null when none shows it on its own. */
export function pagePathOf(doc: Doc | null | undefined): string | null {
  if (!doc) return null;
  const id = String(doc._id ?? "").replace(/^drafts\./, "");
  switch (doc._type) {
    case "funnel":
      return typeof doc.route === "string" ? doc.route : null;
    case "offer":
      return typeof doc.path === "string" ? doc.path : null;
    case "plan":
      return `/plan/${id}`;
    case "tutorialStep":
      return typeof doc.number === "number" ? `/path${doc.number}` : null;
    case "tutorialSettings":
      return "/completion";
    case "homePage":
      return "/home";
    case "partnershipsPage":
      return "/partnerships";
    case "legalPage":
      return typeof doc.slug === "string" ? `/${doc.slug}` : null;
    case "landingPage":
    case "siteSettings":
      return "/";
    default:
      return null;
  }
}

/** The app's /preview link that opens `path` with drafts shown (@sanity/preview-url-secret's parameters). */
export function previewLink(secret: string, path: string): string {
  const params = new URLSearchParams({ "sanity-preview-secret": secret, "sanity-preview-pathname": path });
  return `${APP_URL}/preview?${params}`;
}
