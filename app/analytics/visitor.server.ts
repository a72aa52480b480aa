/**
 * Every browser gets a random visitor id in a signed, HttpOnly cookie, so funnel
 * events can be joined up without any third-party tracker.
 */
import { signedCookie } from "~/utils/cookies.server";
import crypto from "node:crypto";
import { db } from "~/utils/db.server";
import { now } from "~/utils/clock.server";
import type { Attribution } from "./attribution";
import { logger } from "~/utils/logger.server";

const visitorCookie = signedCookie("gc_vid", 60 * 60 * 24 * 365);

const VISITOR_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The visitor id from the request's cookie, or a new one with the Set-Cookie header to send. */
export async function identifyVisitor(cookieHeader: string | null | undefined): Promise<{ visitorId: string; setCookie?: string }> {
  const known = await visitorIdOf(cookieHeader);
  if (known) return { visitorId: known };
  const visitorId = crypto.randomUUID();
  return { visitorId, setCookie: await visitorCookie.serialize(visitorId) };
}

/** The visitor id a request's cookie proves, or null (no cookie, or not signed by us). */
export async function visitorIdOf(cookieHeader: string | null | undefined): Promise<string | null> {
  const known = await visitorCookie.parse(cookieHeader ?? null).catch(() => null);
  return typeof known === "string" && VISITOR_ID.test(known) ? known : null;
}

/** Stores where a visitor came from, once: a later landing with other UTM tags changes nothing. */
export async function rememberLanding(visitorId: string, attribution: Attribution): Promise<void> {
  try {
    await db.visitor.upsert({ where: { id: visitorId }, create: { id: visitorId, ...attribution, firstSeenAt: now() }, update: {} });
  } catch (error) {
    // Two first requests at once may race on the insert; either row is the first touch.
    if ((error as { code?: string }).code !== "P2002") logger.error({ err: error }, "[analytics] could not store the landing");
  }
}
