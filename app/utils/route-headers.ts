import type { HeadersFunction } from "@remix-run/node";

/**
 * For form pages: a document answer keeps the action's Retry-After (a 429) and a loader's
 * Referrer-Policy, which Remix drops unless the route passes them on. (Cache-Control is one
 * policy for every document: app/security/headers.server.ts.)
 */
export const formPageHeaders: HeadersFunction = ({ loaderHeaders, actionHeaders }) => {
  const headers = new Headers();
  for (const name of ["Retry-After", "Referrer-Policy"]) {
    const value = actionHeaders.get(name) ?? loaderHeaders.get(name);
    if (value) headers.set(name, value);
  }
  return headers;
};
