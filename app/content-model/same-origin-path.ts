/**
 * The one place that decides where a redirect may lead when the target came from outside
 * the code (a form field, a query parameter, a Referer, stored content): only to a path on
 * this site. Every route that redirects to such a target goes through safeRedirect()
 * (app/auth/redirect.ts); content addresses (a funnel's links) are checked with it too, which
 * is why it lives in the content model's leaf.
 *
 * Browsers parse URLs more loosely than a string check: they drop tabs and newlines, read
 * "\" as "/", collapse "/./" and "/../" (also when encoded), and take "//host" as another
 * site. So the target is judged twice: as typed (and decoded), and after the same URL
 * normalisation a browser applies; both must be a plain path on our origin.
 */

const BASE = "http://same-origin.invalid";

/** Characters a browser strips or reinterprets inside a URL. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const LOOSE = /[\u0000-\u001f\u007f\\]/;

/** Percent-decoded until stable (so "%252F" cannot hide a "/"), or null when malformed. */
function decodeFully(value: string): string | null {
  let decoded = value;
  for (let i = 0; i < 4; i++) {
    let next: string;
    try {
      next = decodeURIComponent(decoded);
    } catch {
      return null;
    }
    if (next === decoded) return decoded;
    decoded = next;
  }
  return decoded;
}

/** A single-slash path with nothing a browser would read differently. */
function isPlainPath(value: string): boolean {
  return value.startsWith("/") && !value.startsWith("//") && !LOOSE.test(value);
}

/** The normalised path `to` leads to on this site, or null when it could lead anywhere else. */
export function sameOriginPath(to: unknown): string | null {
  if (typeof to !== "string" || to.length === 0 || to.length > 2000) return null;
  const decoded = decodeFully(to);
  if (decoded === null || !isPlainPath(to) || !isPlainPath(decoded)) return null;
  const url = new URL(to, BASE);
  if (url.origin !== BASE) return null;
  // After normalisation: "/.//x" and "/a/../..//x" become "//x"; "/%2e/%2Fx" becomes "/%2Fx".
  const pathname = decodeFully(url.pathname);
  if (pathname === null || !isPlainPath(url.pathname) || !isPlainPath(pathname)) return null;
  const path = `${url.pathname}${url.search}${url.hash}`;
  return new URL(path, BASE).origin === BASE ? path : null;
}
