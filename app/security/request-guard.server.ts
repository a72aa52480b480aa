/**
 * The gate every request passes first (server.mjs calls it before the page cache, the
 * static files and Remix). It is the one place these two rules live:
 *
 * - Methods: the app answers GET, HEAD and POST (HTML forms and Remix's data requests use
 *   nothing else). Anything else, TRACE included, gets 405 with an Allow header.
 * - Origin: a POST changes something, so it must come from our own pages. Checked here, not
 *   in route modules, so documents, Remix's `?_data=` and `.data` requests and resource
 *   routes (/logout, /auth/google, /billing/portal, ...) are all covered before any action
 *   runs. A request from elsewhere gets a short 403 page.
 *
 * Webhooks (/webhooks/stripe, /webhooks/sanity) and the reminder e-mail's one-click unsubscribe
 * (/reminders/unsubscribe) are the only exemptions from the origin rule: providers and mail apps
 * post from their own servers, and each request is verified by its signature (the signed token).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { env, isLoopbackHost } from "~/utils/env.server";
import { logger } from "~/utils/logger.server";
import { plainPage, type PlainPage } from "./plain-page.server";

export const ALLOWED_METHODS = ["GET", "HEAD", "POST"] as const;

const WEBHOOKS = new Set(["/webhooks/stripe", "/webhooks/sanity", "/reminders/unsubscribe"]);

/**
 * Our own origins: PUBLIC_URL's; in local mode also the loopback names of the same port, so
 * `npm start` opened as http://localhost:3000 works (local mode only listens on loopback).
 */
function ownOrigins(): Set<string> {
  const origins = new Set([new URL(env.publicUrl).origin]);
  if (!env.isProduction && isLoopbackHost(env.host)) {
    for (const host of ["localhost", "127.0.0.1", "[::1]"]) origins.add(`http://${host}:${env.port}`);
  }
  return origins;
}
const OWN_ORIGINS = ownOrigins();

type Headers = IncomingMessage["headers"];

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Whether a changing request comes from one of our pages. Browsers send `Origin` with every
 * POST; where it is missing or "null" (a no-referrer page), `Sec-Fetch-Site`, which pages
 * cannot forge, says whether it came from our origin, and failing that the Referer. A
 * request with none of these comes from no browser (curl, a script): it carries no
 * victim's cookies to abuse, so it passes.
 */
export function fromOwnPages(headers: Headers, origins: ReadonlySet<string> = OWN_ORIGINS): boolean {
  const origin = single(headers.origin);
  if (origin && origin !== "null") return origins.has(origin);
  const site = single(headers["sec-fetch-site"]);
  if (site) return site === "same-origin";
  if (origin === "null") return false;
  const referer = single(headers.referer);
  if (!referer) return true;
  try {
    return origins.has(new URL(referer).origin);
  } catch {
    return false;
  }
}

export type Refusal = "method" | "origin";

/** Why this request must not go further, or null when it may. */
export function refusalFor(req: Pick<IncomingMessage, "method" | "url" | "headers">): Refusal | null {
  const method = req.method ?? "GET";
  if (!(ALLOWED_METHODS as readonly string[]).includes(method)) return "method";
  if (method !== "POST") return null;
  const path = (req.url ?? "/").split("?")[0];
  if (WEBHOOKS.has(path)) return null;
  return fromOwnPages(req.headers) ? null : "origin";
}

export function refusalPage(refusal: Refusal): PlainPage {
  if (refusal === "method") {
    return plainPage({
      status: 405,
      title: "That isn't something this page does",
      text: "This address only answers ordinary page visits and form posts.",
      headers: { Allow: ALLOWED_METHODS.join(", ") },
    });
  }
  return plainPage({
    status: 403,
    title: "This request didn't come from our site",
    text: "For your safety, Glow Coach only accepts forms sent from its own pages. Nothing was changed. Please open the page on our site and try again.",
  });
}

/**
 * Answers a request that breaks a rule (and returns true); otherwise writes nothing and
 * returns false. HEAD gets the status and headers only.
 */
export function refuseRequest(req: IncomingMessage, res: ServerResponse): boolean {
  const refusal = refusalFor(req);
  if (!refusal) return false;
  if (refusal === "origin")
    logger.warn({ from: single(req.headers.origin) ?? single(req.headers["sec-fetch-site"]) ?? "?" }, `[request-guard] refused a cross-site ${req.method}`);
  const page = refusalPage(refusal);
  res.writeHead(page.status, page.headers);
  res.end(page.body);
  return true;
}
