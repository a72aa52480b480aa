/**
 * Moving through a quiz with JavaScript on costs one request per step. An answer's response
 * carries the page it leads to (a handoff); the content route's clientLoader shows that page
 * instead of asking the server for it again. And the root's data (the signed-in member, the
 * site's settings) is not asked for again while the visitor moves within a funnel: nothing a
 * funnel step does changes it.
 */
import type { StepView } from "./view";

/** The answer's response for the app's JavaScript: where the funnel goes next, and that page's data. */
export type StepHandoff = { to: string; page: StepView };

let pending: StepHandoff | null = null;
/** The addresses of the funnels this browser has shown ("/quiz"), for the root's revalidation. */
const funnelRoutes = new Set<string>();

export function isHandoff(value: unknown): value is { handoff: StepHandoff } {
  return typeof value === "object" && value !== null && "handoff" in value;
}

/** Keeps the page an answer led to until the navigation there asks for it (once). */
export function keepHandoff(handoff: StepHandoff): void {
  pending = handoff;
}

/** The handed-off page for this address, if the last answer led here; each is taken once. */
export function takeHandoff(url: URL): StepView | null {
  const page = pending?.to === url.pathname + url.search ? pending.page : null;
  pending = null;
  return page;
}

export function noteFunnelShown(route: string): void {
  funnelRoutes.add(route);
}

function funnelOf(url: URL | string | undefined): string | undefined {
  if (!url) return undefined;
  const path = typeof url === "string" ? new URL(url, "http://x").pathname : url.pathname;
  return [...funnelRoutes].find((route) => path === route || path.startsWith(`${route}/`));
}

/** True for a move from one step of a funnel to another (a link, or an answer's redirect). */
export function movesWithinFunnel(args: { currentUrl: URL; nextUrl: URL; formAction?: string }): boolean {
  const funnel = funnelOf(args.currentUrl);
  return funnel !== undefined && funnelOf(args.nextUrl) === funnel && (args.formAction === undefined || funnelOf(args.formAction) === funnel);
}
