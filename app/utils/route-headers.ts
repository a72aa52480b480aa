import type { HeadersFunction } from "@remix-run/node";

/**
 * For form pages: a document answer keeps the action's Retry-After (429) and the
 * loader's or action's Cache-Control, which Remix drops unless the route passes them on.
 */
export const formPageHeaders: HeadersFunction = ({ loaderHeaders, actionHeaders }) => {
  const headers = new Headers();
  for (const name of ["Retry-After", "Cache-Control", "Referrer-Policy"]) {
    const value = actionHeaders.get(name) ?? loaderHeaders.get(name);
    if (value) headers.set(name, value);
  }
  return headers;
};
