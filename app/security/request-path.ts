/**
 * A request's path, judged the way Remix's router will match it: the one judgement the gate,
 * the request limits and the stored pages use (ADR 29). Each step is what the code between the
 * socket and the route does with the address, in its order:
 *
 * 1. Remix's Express adapter appends the request target to the host and parses the result as a
 *    WHATWG URL: `..` and `.` segments are resolved (also spelled `%2e`, `%2E`, `.%2e`), and a
 *    backslash is a slash. A target that is not a path (`http://x/quiz`, `*`) gives an address
 *    the adapter cannot build, so it is no path here either.
 * 2. Remix answers `<path>.data` (and `/_root.data` for `/`) with the route of `<path>`; it takes
 *    the suffix off through the URL's pathname setter, which resolves dot segments once more
 *    (`/x/%2e%2e.data` is `/`).
 * 3. The router decodes each segment's %-escapes (`/%6Cogin` is `/login`; an escaped slash stays
 *    escaped); when any escape is broken it matches the whole path as sent.
 * 4. Route paths match regardless of case (`caseSensitive` is false unless a route sets it; none
 *    does) and with any number of trailing slashes.
 *
 * The query string plays no part: `?index` picks between a layout and its index route, and
 * both count as one endpoint (stricter, never looser).
 */

export type RequestPath = {
  /** The path the router matches, after steps 1–3 (case and trailing slashes as sent). */
  routed: string;
  /**
   * One spelling for every path the router matches alike: `routed` in lower case without
   * trailing slashes (`/` stays `/`). What the limits count and the exemptions are decided on.
   * Lower case also joins route parameters that differ only in case (`/QUIZ/1` and `/quiz/1`):
   * they share one count, which is stricter, never looser.
   */
  endpoint: string;
  /** Asked by Remix's own JavaScript for a loader's or an action's data (`.data`). */
  dataRequest: boolean;
  /** The path was sent exactly as the router matches it: nothing resolved, decoded or taken off. */
  asSent: boolean;
};

/** Any host: only the path of the address is read. */
const ORIGIN = "http://glow.invalid";

/** The router's own decoding (@remix-run/router's decodePath). */
function decodeSegments(pathname: string): string {
  // Nothing to decode (most requests): the same answer without splitting the path.
  if (!pathname.includes("%")) return pathname;
  try {
    return pathname
      .split("/")
      .map((segment) => decodeURIComponent(segment).replace(/\//g, "%2F"))
      .join("/");
  } catch {
    return pathname;
  }
}

/** How the router will read the path of `target` (a request line's target), or null when it is no path. */
export function judgeRequestPath(target: string): RequestPath | null {
  if (!target.startsWith("/")) return null;
  let url: URL;
  try {
    url = new URL(ORIGIN + target);
  } catch {
    return null;
  }
  const dataRequest = url.pathname.endsWith(".data");
  if (dataRequest) url.pathname = url.pathname.replace(/\.data$/, "").replace(/^\/_root$/, "/");
  const routed = decodeSegments(url.pathname);
  const endpoint = routed.replace(/\/+$/, "").toLowerCase() || "/";
  const sent = target.split(/[?#]/, 1)[0];
  return { routed, endpoint, dataRequest, asSent: !dataRequest && sent === routed };
}
