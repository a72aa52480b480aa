import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { inPreview } from "./content/preview.server";
import { isReusable, rememberPage } from "./funnels/page-cache.server";
import { currentPageRecord } from "./utils/page-record.server";
import { keepPage, pageToKeep } from "./render/stored-pages.server";
import { renderKey, storedRender, storeRender } from "./render/stored-renders.server";
import { scriptsAfterLoad } from "./utils/scripts-after-load.server";
import { DATA_CACHE_CONTROL, documentHeaders } from "./security/headers.server";
import { NonceContext } from "./security/nonce";
import { StylesheetTextContext } from "./styles/stylesheet";
import { stylesheetText } from "./styles/stylesheet.server";
import type { RootData } from "./root";
import { logger } from "./utils/logger.server";

const ABORT_DELAY = 5_000;

/** The path and view to cache this render under, when its page may be served again. */
function reusablePage(request: Request, status: number, context: EntryContext) {
  // A page showing drafts is never anyone else's page.
  if (request.method !== "GET" || status !== 200 || inPreview()) return undefined;
  const { loaderData, actionData, errors, matches } = context.staticHandlerContext;
  if (actionData || errors) return undefined;
  const view = loaderData[matches[matches.length - 1]?.route.id];
  // Only the anonymous rendering is shared: no member menu, no toast.
  const root = loaderData.root as RootData | undefined;
  if (!root || root.user || root.toast) return undefined;
  const url = new URL(request.url);
  return isReusable(view) && !url.search ? { path: url.pathname, view } : undefined;
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce;
  // Crawlers get the whole page at once; browsers get it streamed as it renders.
  const waitForAll = isbot(request.headers.get("user-agent") ?? "");
  const reusable = reusablePage(request, responseStatusCode, remixContext);
  const key = reusable ? undefined : renderKey(request, responseStatusCode, remixContext, waitForAll);
  // A page that may be answered again before Express and Remix (ADR 26), and whether it shows a
  // live countdown: then its data changes every second, and it is kept with the countdown as a
  // slot instead of among the stored renders.
  const record = currentPageRecord();
  const keep = pageToKeep({ record, request, status: responseStatusCode, responseHeaders, storable: key !== undefined });
  const renderStoreKey = record?.countdown ? undefined : key;
  // The same loader data rendered before: its bytes, with this response's nonce (ADR 21).
  const stored = renderStoreKey ? storedRender(renderStoreKey) : undefined;
  if (stored) {
    for (const [name, value] of Object.entries(documentHeaders(nonce))) responseHeaders.set(name, value);
    if (keep) keepPage(keep, { page: stored });
    const html = Buffer.concat(stored.htmlParts(nonce));
    return new Response(new Uint8Array(html.buffer as ArrayBuffer, html.byteOffset, html.length), { headers: responseHeaders, status: responseStatusCode });
  }
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    let failed = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <StylesheetTextContext.Provider value={stylesheetText()}>
          <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
        </StylesheetTextContext.Provider>
      </NonceContext.Provider>,
      {
        nonce,
        [waitForAll ? "onAllReady" : "onShellReady"]() {
          shellRendered = true;
          const body = scriptsAfterLoad();
          if (reusable || renderStoreKey || keep) {
            const chunks: Buffer[] = [];
            body.on("data", (chunk: Buffer) => chunks.push(chunk));
            body.on("end", () => {
              if (failed) return;
              const html = Buffer.concat(chunks);
              if (reusable) return rememberPage(reusable.path, reusable.view, html, nonce, request.headers.get("Cookie"));
              const page = renderStoreKey ? storeRender(renderStoreKey, html, nonce) : undefined;
              if (keep) keepPage(keep, page ? { page } : { html, nonce });
            });
          }
          body.on("close", () => clearTimeout(timer));
          for (const [name, value] of Object.entries(documentHeaders(nonce))) responseHeaders.set(name, value);
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          clearTimeout(timer);
          reject(error);
        },
        onError(error: unknown) {
          failed = true;
          responseStatusCode = 500;
          // Errors after the shell are reported by handleError; only log render errors here.
          if (shellRendered) logger.error({ err: error }, `[render] ${request.method} ${new URL(request.url).pathname}`);
        },
      },
    );
    const timer = setTimeout(abort, ABORT_DELAY);
  });
}

/** Data requests carry the same per-visitor data as documents: the same rule, set here too. */
export function handleDataRequest(response: Response): Response {
  try {
    response.headers.set("Cache-Control", DATA_CACHE_CONTROL);
    return response;
  } catch {
    // A response with immutable headers (e.g. from Response.redirect): copy it.
    const copy = new Response(response.body, response);
    copy.headers.set("Cache-Control", DATA_CACHE_CONTROL);
    return copy;
  }
}

export const handleError: HandleErrorFunction = (error, { request }) => {
  // A visitor closing the tab is not an error worth logging.
  if (request.signal.aborted) return;
  logger.error({ err: error }, `[error] ${request.method} ${new URL(request.url).pathname}`);
};
