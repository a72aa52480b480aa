import { createCookie } from "@remix-run/node";
import { env } from "./env.server";

/**
 * What every cookie of ours carries: HttpOnly, SameSite=Lax, Secure on https, the whole site,
 * and a signature with the session secret. One place, so no cookie can be made weaker by accident.
 */
export function signedCookieOptions(maxAgeSeconds: number) {
  return {
    httpOnly: true,
    sameSite: "lax" as const,
    secure: env.publicUrl.startsWith("https:"),
    path: "/",
    maxAge: maxAgeSeconds,
    secrets: [env.sessionSecret],
  };
}

export function signedCookie(name: string, maxAgeSeconds: number) {
  return createCookie(name, signedCookieOptions(maxAgeSeconds));
}

/**
 * The Cookie header a browser would send after taking these Set-Cookie headers: each cookie
 * they set replaces the one of the same name (a later one wins), the others are kept.
 */
export function withSetCookies(cookieHeader: string | null, setCookies: readonly string[]): string | null {
  if (!setCookies.length) return cookieHeader;
  const jar = new Map<string, string>();
  for (const pair of (cookieHeader ?? "").split(";")) {
    const at = pair.indexOf("=");
    if (at > 0) jar.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
  }
  for (const setCookie of setCookies) {
    const pair = setCookie.split(";", 1)[0];
    const at = pair.indexOf("=");
    if (at <= 0) continue;
    const name = pair.slice(0, at).trim();
    if (/;\s*max-age=0\s*(;|$)/i.test(setCookie)) jar.delete(name);
    else jar.set(name, pair.slice(at + 1).trim());
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
}
