/** Small response helpers shared by route modules. */
import { logger } from "./logger.server";

/** The not-found screen, with the attempted path in the server log. */
export function notFound(request: Request): Response {
  logger.warn(`[404] ${request.method} ${new URL(request.url).pathname}`);
  return new Response("Not found", { status: 404 });
}

/** For resource routes (JSON, redirects) that depend on the visitor; documents get headers.server.ts's policy. */
export const PRIVATE_NO_STORE = "private, no-store";
