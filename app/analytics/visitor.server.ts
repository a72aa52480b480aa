/**
 * Every browser gets a random visitor id in a signed, HttpOnly cookie, so funnel
 * events can be joined up without any third-party tracker.
 */
import crypto from "node:crypto";
import { createCookie } from "@remix-run/node";
import { env } from "~/utils/env.server";

const visitorCookie = createCookie("gc_vid", {
  httpOnly: true,
  sameSite: "lax",
  secure: env.publicUrl.startsWith("https:"),
  path: "/",
  maxAge: 60 * 60 * 24 * 365,
  secrets: [env.sessionSecret],
});

const VISITOR_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The visitor id from the request's cookie, or a new one with the Set-Cookie header to send. */
export async function identifyVisitor(cookieHeader: string | null | undefined): Promise<{ visitorId: string; setCookie?: string }> {
  const known = await visitorCookie.parse(cookieHeader ?? null).catch(() => null);
  if (typeof known === "string" && VISITOR_ID.test(known)) return { visitorId: known };
  const visitorId = crypto.randomUUID();
  return { visitorId, setCookie: await visitorCookie.serialize(visitorId) };
}
