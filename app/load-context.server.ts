/**
 * Per-request values shared by every loader and action of a request. Built by the
 * HTTP server (app/server.ts) through `getLoadContext`.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { isbot } from "isbot";
import { landingAttribution } from "~/analytics/attribution";
import { identifyVisitor, rememberLanding } from "~/analytics/visitor.server";
import { noteSideEffect } from "~/utils/page-record.server";
import { newNonce } from "~/security/headers.server";
import type { PlainPage } from "~/security/plain-page.server";
import { requestPathOf } from "~/security/request-guard.server";
import { limitRequest, tooManyRequestsPage } from "~/security/request-limits.server";
import { sendDocumentReload } from "~/security/single-fetch-reload.server";
import { env } from "~/utils/env.server";

declare module "@remix-run/node" {
  interface AppLoadContext {
    /** A stable, random id for this browser (first-party analytics). */
    visitorId: string;
    /** The client's IP address, for rate limits. */
    clientIp: string;
    /** This response's Content-Security-Policy nonce. */
    cspNonce: string;
    /** Asked by the app's own JavaScript (a `.data` request): it reads answers as data, not as pages. */
    dataRequest: boolean;
  }
}

export function clientIp(req: IncomingMessage): string {
  // Only a proxy we run may tell us the client's address; anyone can send the header.
  const forwarded = env.trustProxy ? req.headers["x-forwarded-for"] : undefined;
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(",")[0]?.trim();
  return first || req.socket.remoteAddress || "unknown";
}

export async function getLoadContext(req: IncomingMessage, res: ServerResponse) {
  const { visitorId, setCookie } = await identifyVisitor(req.headers.cookie);
  if (setCookie) {
    res.appendHeader("Set-Cookie", setCookie);
    // Set beside Remix's headers: a page that sets it is not served again (it would not set it).
    noteSideEffect("visitor cookie");
  }
  if (req.method === "GET" && !isbot(req.headers["user-agent"] ?? "")) {
    const attribution = landingAttribution({ url: new URL(req.url ?? "/", env.publicUrl).href, referer: req.headers.referer, ownOrigins: [env.publicUrl] });
    // Only landings that say where the visitor came from are written (first touch wins).
    if (attribution) await rememberLanding(visitorId, attribution);
  }
  return { visitorId, clientIp: clientIp(req), cspNonce: newNonce(), dataRequest: requestPathOf(req)?.dataRequest ?? false };
}

/**
 * Express middleware (app/server.ts): answers 429 when a client sends too many changing
 * requests (app/security/request-limits.server.ts); otherwise lets the request through.
 */
export async function limitRequests(req: IncomingMessage, res: ServerResponse, next: () => void): Promise<void> {
  if (req.method === "GET" && requestPathOf(req)?.endpoint === TOO_MANY_REQUESTS_PATH) return sendPage(res, tooManyRequestsPage(retryAtFrom(req.url)));
  const retryAt = await limitRequest(req, clientIp(req));
  if (!retryAt) return next();
  const page = tooManyRequestsPage(retryAt);
  // A form sent by the app's JavaScript is told to open the same page as a document.
  if (requestPathOf(req)?.dataRequest)
    return sendDocumentReload(res, req.method, `${TOO_MANY_REQUESTS_PATH}?until=${retryAt.getTime()}`, { "Retry-After": page.headers["Retry-After"] });
  sendPage(res, page);
}

/** Where a page whose form was refused by the request limit is sent (JavaScript on). */
const TOO_MANY_REQUESTS_PATH = "/too-many-requests";

/** The time the link names, within the next hour (anything else: a minute from now). */
function retryAtFrom(url: string | undefined): Date {
  const until = Number(new URL(url ?? "/", "http://x").searchParams.get("until"));
  const at = Date.now();
  return Number.isFinite(until) && until > at && until <= at + 3_600_000 ? new Date(until) : new Date(at + 60_000);
}

function sendPage(res: ServerResponse, page: PlainPage): void {
  res.writeHead(page.status, page.headers);
  res.end(page.body);
}
