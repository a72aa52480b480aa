/**
 * "Open preview": opens the page being edited in the app, with drafts shown. The app's
 * /preview URL checks the secret, sets a signed preview cookie and redirects to the page
 * (app/routes/preview.tsx). Set SANITY_STUDIO_PREVIEW_URL (the app's origin) and
 * SANITY_STUDIO_PREVIEW_SECRET (= the app's SANITY_PREVIEW_SECRET) when building the Studio.
 */
import { EyeOpenIcon } from "@sanity/icons";
import type { DocumentActionComponent, SanityDocument } from "sanity";

const APP_URL = (process.env.SANITY_STUDIO_PREVIEW_URL || "http://127.0.0.1:3000").replace(/\/$/, "");
const SECRET = process.env.SANITY_STUDIO_PREVIEW_SECRET || "";

/** The app page that shows a document, or null when none shows it on its own. */
export function pagePathOf(doc: Partial<SanityDocument> | null | undefined): string | null {
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

export const previewAction: DocumentActionComponent = ({ draft, published }) => {
  const path = pagePathOf(draft ?? published);
  return {
    label: "Open preview",
    icon: EyeOpenIcon,
    disabled: !path || !SECRET,
    title: !SECRET
      ? "Preview is not set up (SANITY_STUDIO_PREVIEW_SECRET)"
      : !path
        ? "This document has no page of its own"
        : "Open the page with your unpublished changes",
    onHandle: () => {
      const url = `${APP_URL}/preview?secret=${encodeURIComponent(SECRET)}&path=${encodeURIComponent(path!)}`;
      window.open(url, "_blank", "noopener");
    },
  };
};
