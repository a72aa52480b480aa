/**
 * The conversions a paid funnel reports to Meta (ADR 32): InitiateCheckout when a checkout
 * starts, Purchase once per paid checkout. Each is one AdConversion row whose id is the event id
 * the server logged (the initiate_checkout event's row id, the purchase event's eventId), sent
 * by the browser pixel (once: the first page that shows it marks it) and, when configured, by
 * the Conversions API (conversions-api.server.ts), so Meta counts it once.
 *
 * Rows exist only for a checkout whose browser consented to the pixel when the checkout began
 * (consent.server.ts): the Purchase is recorded wherever fulfilment happens (the success page,
 * Stripe's webhook), with the consenting browser's details kept from the checkout's start.
 */
import crypto from "node:crypto";
import { now } from "~/utils/clock.server";
import { db } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { logger } from "~/utils/logger.server";
import { adsAllowed } from "./consent.server";
import { kickConversionsApi } from "./conversions-api.server";
import type { PixelEvent, PixelEventName } from "./pixel";

/** What Meta's user_data holds for a browser (https://developers.facebook.com/docs/marketing-api/conversions-api/parameters/customer-information-parameters). */
export type AdUserData = { client_ip_address: string; client_user_agent: string; fbp?: string; fbc?: string; em?: string[] };

/** The consenting browser a checkout starts in: null when the pixel is off or the visitor did not accept. */
export type AdBrowser = { userData: AdUserData; sourceUrl: string };

const FB_COOKIE = (name: "_fbp" | "_fbc", cookieHeader: string | null) => {
  const value = new RegExp(`(?:^|;\\s*)${name}=([^;]{1,500})`).exec(cookieHeader ?? "")?.[1];
  // Meta's own cookies look like "fb.1.1700000000000.123456789": anything else is not sent on.
  return value && /^fb\.\d\.\d+\.[\w.-]+$/.test(value) ? value : undefined;
};

export function adBrowserOf(request: Request, clientIp: string): AdBrowser | null {
  if (!adsAllowed(request)) return null;
  const cookies = request.headers.get("Cookie");
  const userData: AdUserData = { client_ip_address: clientIp, client_user_agent: (request.headers.get("User-Agent") ?? "").slice(0, 500) };
  const fbp = FB_COOKIE("_fbp", cookies);
  const fbc = FB_COOKIE("_fbc", cookies);
  if (fbp) userData.fbp = fbp;
  if (fbc) userData.fbc = fbc;
  const url = new URL(request.url);
  return { userData, sourceUrl: `${env.publicUrl}${url.pathname}` };
}

/** Meta's "em": the address trimmed, lower-cased and SHA-256 hashed (never the address itself). */
export function hashedEmail(email: string): string {
  return crypto.createHash("sha256").update(email.trim().toLowerCase()).digest("hex");
}

type Custom = PixelEvent["params"];

async function insertConversion(row: {
  eventId: string;
  name: "InitiateCheckout" | "Purchase";
  checkoutSessionId: string;
  visitorId: string;
  at: Date;
  sourceUrl: string;
  userData: AdUserData;
  customData: Custom;
}): Promise<void> {
  try {
    await db.adConversion.create({
      data: {
        eventId: row.eventId,
        name: row.name,
        checkoutSessionId: row.checkoutSessionId,
        visitorId: row.visitorId,
        eventTime: row.at,
        sourceUrl: row.sourceUrl,
        userData: JSON.stringify(row.userData),
        customData: JSON.stringify(row.customData),
        serverDueAt: env.metaCapi ? row.at : null,
        createdAt: now(),
      },
    });
  } catch (error) {
    // One per checkout and name: a second fulfilment of the same checkout records nothing.
    if ((error as { code?: string }).code === "P2002") return;
    logger.error({ err: error }, `[conversions] could not record ${row.name} for ${row.checkoutSessionId}`);
    return;
  }
  kickConversionsApi();
}

/** A checkout started in a consenting browser: its InitiateCheckout, with the event id the server logged. */
export async function recordCheckoutStarted(input: {
  browser: AdBrowser;
  eventId: string;
  checkoutSessionId: string;
  visitorId: string;
  at: Date;
  params: Custom;
}): Promise<void> {
  await insertConversion({
    ...input,
    name: "InitiateCheckout",
    sourceUrl: input.browser.sourceUrl,
    userData: input.browser.userData,
    customData: input.params,
  });
}

/**
 * A checkout was paid: its Purchase, when the checkout began in a consenting browser (that
 * browser's details, and the buyer's hashed address). Called once per purchase by fulfilment.
 */
export async function recordPurchase(input: {
  checkoutSessionId: string;
  eventId: string;
  email: string;
  at: Date;
  params: Custom;
  /** The page the purchase is seen on (payments owns the checkout's addresses). */
  sourcePath: string;
}): Promise<void> {
  try {
    const started = await db.adConversion.findUnique({
      where: { checkoutSessionId_name: { checkoutSessionId: input.checkoutSessionId, name: "InitiateCheckout" } },
    });
    if (!started) return;
    const userData: AdUserData = { ...(JSON.parse(started.userData) as AdUserData), em: [hashedEmail(input.email)] };
    await insertConversion({
      eventId: input.eventId,
      name: "Purchase",
      checkoutSessionId: input.checkoutSessionId,
      visitorId: started.visitorId,
      at: input.at,
      sourceUrl: `${env.publicUrl}${input.sourcePath}`,
      userData,
      customData: input.params,
    });
  } catch (error) {
    logger.error({ err: error }, `[conversions] could not record the purchase of ${input.checkoutSessionId}`);
  }
}

/**
 * The pixel's copy of a checkout's conversion, for the page that shows it first: the row is
 * marked in the same statement, so a reload (or a second tab) gets nothing.
 */
export async function pixelEventOnce(
  request: Request,
  checkoutSessionId: string,
  name: Extract<PixelEventName, "InitiateCheckout" | "Purchase">,
): Promise<PixelEvent | null> {
  if (!adsAllowed(request)) return null;
  const row = await db.adConversion.findUnique({ where: { checkoutSessionId_name: { checkoutSessionId, name } } });
  if (!row || row.browserShownAt) return null;
  const { count } = await db.adConversion.updateMany({ where: { eventId: row.eventId, browserShownAt: null }, data: { browserShownAt: now() } });
  return count === 1 ? { name, params: JSON.parse(row.customData) as Custom, eventId: row.eventId } : null;
}
