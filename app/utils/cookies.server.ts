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
