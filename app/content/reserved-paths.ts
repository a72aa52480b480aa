/**
 * Addresses content pages (offer pages, quizzes) may not take. An offer page or a quiz lives
 * at one path segment chosen in the Studio ("/glow-offer"), served by the one content route
 * (routes/$funnel.($step).tsx); a page of the app's own at the same address would win, so the
 * content would never show, or would hide that page. Reserved: every first segment of the
 * app's routes (tests/unit/content-paths.test.ts fails when a route is added and this list is
 * not), the files the app serves (public/, the build's assets) and the addresses the server
 * answers before the app. Pure, so the Studio, the linter and the app's schema share it.
 */
export const RESERVED_SEGMENTS: ReadonlySet<string> = new Set([
  // Pages and endpoints of the app (app/routes, app/routes.ts).
  "admin",
  "app",
  "auth",
  "billing",
  "checkout",
  "completion",
  "cookie-settings",
  "dev",
  "email-instructions",
  "home",
  "login",
  "logout",
  "magic",
  "partnerships",
  "path1",
  "path2",
  "path3",
  "path4",
  "path5",
  "path6",
  "payment-success",
  "plan",
  "preview",
  "privacy-policy",
  "profile",
  "registration",
  "reminders",
  "terms-of-service",
  "test",
  "tutorial-step",
  "webhooks",
  // Answered before the app: health checks, the rate-limit page.
  "healthz",
  "readyz",
  "too-many-requests",
  // Files: public/ and the build's assets.
  "assets",
  "images",
  "videos",
  "fonts",
  "favicon.svg",
  "robots.txt",
  "sitemap.xml",
]);

/** Why a content page cannot live at `path` ("/login"), or null when it can. */
export function reservedPathProblem(path: string): string | null {
  const segment = path.split("/")[1] ?? "";
  return RESERVED_SEGMENTS.has(segment) ? `"/${segment}" is a page of the app: choose another address` : null;
}
