/**
 * The gate every request passes first (app/server.ts calls it before the page cache, the
 * static files and Remix). It is the one place these rules live:
 *
 * - Methods: the app answers GET, HEAD and POST (HTML forms and Remix's data requests use
 *   nothing else). Anything else, TRACE included, gets 405 with an Allow header.
 * - Address: the request's path is judged here, once, the way Remix's router will match it
 *   (request-path.ts, ADR 29); the limits and the stored pages read this judgement
 *   (requestPathOf). A target that is no path, or a Host header that is no host name (Remix's
 *   adapter puts it before the path, so `Host: x/quiz/1?` would move the request to another
 *   route, and a bad one makes the adapter throw), gets a short 400 page.
 * - Origin: a POST changes something, so it must come from our own pages. Checked here, not
 *   in route modules, so documents, Remix's `?_data=` and `.data` requests and resource
 *   routes (/logout, /auth/google, /billing/portal, ...) are all covered before any action
 *   runs. A request from elsewhere gets a short 403 page.
 *
 * Webhooks (/webhooks/stripe, /webhooks/sanity) and the reminder and recovery e-mails' one-click unsubscribe
 * (/reminders/unsubscribe, for recovery e-mails too) are the only exemptions from the origin rule, however their path is
 * spelled: providers and mail apps post from their own servers and pages, and each request is
 * verified by its signature (the signed token). Their `Origin` is taken off before Remix runs,
 * whose own origin check would otherwise answer a mail app's post with a 500.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { env, isLoopbackHost } from "~/utils/env.server";
import { logger } from "~/utils/logger.server";
import { plainPage, type PlainPage } from "./plain-page.server";
import { judgeRequestPath, type RequestPath } from "./request-path";

export const ALLOWED_METHODS = ["GET", "HEAD", "POST"] as const;

/** Signed by their providers, who retry in bursts: no origin rule, no request limit. */
export const WEBHOOKS: ReadonlySet<string> = new Set(["/webhooks/stripe", "/webhooks/sanity"]);
/** Endpoints whose POSTs are verified by a signature, not by where they come from (by RequestPath.endpoint). */
const SIGNED_ENDPOINTS: ReadonlySet<string> = new Set([...WEBHOOKS, "/reminders/unsubscribe"]);

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
type Request = Pick<IncomingMessage, "method" | "url" | "headers">;

/** Each request's path as the gate judged it: judged once, read by the limits and the stored pages. */
const judgedPaths = new WeakMap<object, RequestPath | null>();

/** How the router will read this request's path (null: it is no path; the gate refuses those). */
export function requestPathOf(req: Pick<IncomingMessage, "url">): RequestPath | null {
  let path = judgedPaths.get(req);
  if (path === undefined) {
    path = judgeRequestPath(req.url ?? "/");
    judgedPaths.set(req, path);
  }
  return path;
}

/** A host name or address with an optional port, nothing that could end the URL's host part. */
const HOST = /^(?:[A-Za-z0-9_.-]+|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?$/;

/**
 * Whether Remix's adapter can build the request's URL with this Host (or X-Forwarded-Host,
 * whose port it reads even from a proxy nobody trusts; a list when proxies append to it).
 */
export function wellFormedHost(value: string | undefined): boolean {
  if (value === undefined) return true;
  return value.split(",").every((host) => {
    const match = HOST.exec(host.trim());
    return match !== null && (match[1] === undefined || Number(match[1]) <= 65_535);
  });
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Whether a changing request comes from one of our pages. Browsers send `Origin` with every
 * POST; where it is missing, `Sec-Fetch-Site`, which pages cannot forge, says whether it came
 * from our origin, and failing that the Referer. A request with none of these comes from no
 * browser (curl, a script): it carries no victim's cookies to abuse, so it passes.
 */
export function fromOwnPages(headers: Headers, origins: ReadonlySet<string> = OWN_ORIGINS): boolean {
  const origin = single(headers.origin);
  // "null" (a sandboxed frame, a redirect across origins, a no-referrer page) is never one of
  // our pages; Remix's own check would answer it with a 500, whatever Sec-Fetch-Site says.
  if (origin) return origin !== "null" && origins.has(origin);
  const site = single(headers["sec-fetch-site"]);
  if (site) return site === "same-origin";
  const referer = single(headers.referer);
  if (!referer) return true;
  try {
    return origins.has(new URL(referer).origin);
  } catch {
    return false;
  }
}

export type Refusal = "method" | "address" | "origin";

/** Why this request must not go further, or null when it may. */
export function refusalFor(req: Request): Refusal | null {
  const method = req.method ?? "GET";
  if (!(ALLOWED_METHODS as readonly string[]).includes(method)) return "method";
  const path = requestPathOf(req);
  if (!path || !wellFormedHost(single(req.headers.host)) || !wellFormedHost(single(req.headers["x-forwarded-host"]))) return "address";
  if (method !== "POST" || SIGNED_ENDPOINTS.has(path.endpoint)) return null;
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
  if (refusal === "address") {
    return plainPage({
      status: 400,
      title: "That address doesn't look right",
      text: "We couldn't read the address this request was sent to, so nothing was changed. Please check the link, or start again from our home page.",
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
  if (!refusal) {
    if (req.method === "POST" && SIGNED_ENDPOINTS.has(requestPathOf(req)!.endpoint)) delete req.headers.origin;
    return false;
  }
  if (refusal === "origin")
    logger.warn({ from: single(req.headers.origin) ?? single(req.headers["sec-fetch-site"]) ?? "?" }, `[request-guard] refused a cross-site ${req.method}`);
  if (refusal === "address")
    logger.warn({ host: single(req.headers.host) }, `[request-guard] refused a ${req.method} to an address that is no path on this site`);
  const page = refusalPage(refusal);
  res.writeHead(page.status, page.headers);
  res.end(page.body);
  return true;
}
