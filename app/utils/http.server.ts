/** Small response helpers shared by route modules. */
import { logger } from "./logger.server";

/** The not-found screen, with the attempted path in the server log. */
export function notFound(request: Request): Response {
  logger.warn(`[404] ${request.method} ${new URL(request.url).pathname}`);
  return new Response("Not found", { status: 404 });
}

/** A content page (an offer page, a quiz) that was published here and has been taken down. */
export function gone(request: Request): Response {
  logger.warn(`[410] ${request.method} ${new URL(request.url).pathname}`);
  return new Response("Gone", { status: 410 });
}

/** For resource routes (JSON, redirects) that depend on the visitor; documents get headers.server.ts's policy. */
export const PRIVATE_NO_STORE = "private, no-store";
