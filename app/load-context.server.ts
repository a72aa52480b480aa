/**
 * Per-request values shared by every loader and action of a request. Built by the
 * HTTP server (server.mjs) through `getLoadContext`, exported from entry.server.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { identifyVisitor } from "~/analytics/visitor.server";

declare module "@remix-run/node" {
  interface AppLoadContext {
    /** A stable, random id for this browser (first-party analytics). */
    visitorId: string;
  }
}

export async function getLoadContext(req: IncomingMessage, res: ServerResponse) {
  const { visitorId, setCookie } = await identifyVisitor(req.headers.cookie);
  if (setCookie) res.appendHeader("Set-Cookie", setCookie);
  return { visitorId };
}
