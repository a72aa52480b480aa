/**
 * Where to send someone after signing in. Only a path on this site is honoured;
 * absolute URLs, protocol-relative "//host", "/\host" and their encoded forms are
 * ignored, because browsers treat some of them as other sites.
 */
export function safeRedirect(to: unknown, fallback = "/home"): string {
  if (typeof to !== "string" || to.length === 0 || to.length > 2000) return fallback;
  let decoded = to;
  // Decode repeatedly so "%2F%2Fevil.example" cannot slip through as a path.
  for (let i = 0; i < 3; i++) {
    try {
      const next = decodeURIComponent(decoded);
      if (next === decoded) break;
      decoded = next;
    } catch {
      return fallback;
    }
  }
  if (!decoded.startsWith("/") || decoded.startsWith("//") || decoded.includes("\\")) return fallback;
  // Control characters (tabs, newlines) are stripped by browsers inside URLs: "/\t/evil".
  if (/[\u0000-\u001f\u007f]/.test(decoded)) return fallback;
  const base = "http://same.origin.invalid";
  const url = new URL(to, base);
  if (url.origin !== base) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}
