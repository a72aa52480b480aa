/**
 * A form sent by the app's JavaScript posts to `<path>.data` and expects Remix's encoded answer,
 * not an HTML page: a plain page there shows the browser's generic error screen. Answers given
 * before Remix runs (the request limit) tell such a request to load a page as a document instead,
 * in the same encoding Remix uses for its own redirects.
 */
import type { ServerResponse } from "node:http";
import { Readable } from "node:stream";
// Remix 2 does not export these from its package root; the single-fetch wire format is fixed
// for the 2.x line (the app pins ^2.17).
import { encodeViaTurboStream, SINGLE_FETCH_REDIRECT_STATUS, SingleFetchRedirectSymbol } from "@remix-run/server-runtime/dist/single-fetch.js";

/**
 * Answers a `.data` request with "load `location` as a new document". An action's answer is the
 * redirect itself; a loaders' answer carries it under Remix's redirect key.
 */
export function sendDocumentReload(res: ServerResponse, method: string | undefined, location: string, headers: Record<string, string> = {}): void {
  const redirect = { redirect: location, status: 303, revalidate: false, reload: true, replace: false };
  const answer = method === "GET" ? { [SingleFetchRedirectSymbol]: redirect } : redirect;
  const stream = encodeViaTurboStream(answer, new AbortController().signal, undefined, "production" as never);
  res.writeHead(SINGLE_FETCH_REDIRECT_STATUS, { ...headers, "Content-Type": "text/x-script", "Cache-Control": "no-store", "X-Remix-Response": "yes" });
  Readable.fromWeb(stream as never).pipe(res);
}
