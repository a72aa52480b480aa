/**
 * Meta's conversions below the browser (ADR 32): the consent cookie, the form's way back, the
 * AdConversion rows a checkout and its fulfilment write, the pixel's copy shown once, and the
 * Conversions API sender against a local fake endpoint (sent once, retried, given up).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";

type Received = {
  url: string;
  body: { data: { event_name: string; event_id: string; event_time: number; user_data: Record<string, unknown> }[]; access_token: string };
};
const received: Received[] = [];
let answerStatus = 200;
const fake = http.createServer((req, res) => {
  let text = "";
  req.on("data", (chunk) => (text += chunk));
  req.on("end", () => {
    received.push({ url: req.url ?? "", body: JSON.parse(text) });
    res
      .writeHead(answerStatus, { "Content-Type": "application/json" })
      .end(answerStatus === 200 ? '{"events_received":1}' : '{"error":{"message":"Invalid parameter"}}');
  });
});
await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve));
const META_SETTINGS = {
  META_PIXEL_ID: "123456789012",
  META_CAPI_TOKEN: "unit-capi-token",
  META_CAPI_URL: `http://127.0.0.1:${(fake.address() as AddressInfo).port}`,
};
// The pixel and the Conversions API on for this file, in the app's parsed settings too (it
// may share modules with files that ran before it), and off again after it.
Object.assign(process.env, META_SETTINGS);
const { EnvError, parseEnv, reloadEnv } = await import("~/utils/env.server");
reloadEnv();
afterAll(() => {
  for (const key of Object.keys(META_SETTINGS)) delete process.env[key];
  reloadEnv();
});

const { adConsentIn, consentChoiceIn, consentCookie } = await import("~/analytics/consent.server");
const { pageChosenOn, returnPath, saveConsent } = await import("~/analytics/consent-form.server");
const { adBrowserOf, hashedEmail, pixelEventOnce } = await import("~/analytics/conversions.server");
const { sendDueConversions, MAX_ATTEMPTS, retryDelayMs } = await import("~/analytics/conversions-api.server");
const { getOfferByPath } = await import("~/content/content.server");
const { startCheckout } = await import("~/payments/checkout.server");
const { completeLocalCheckout } = await import("~/payments/local-checkout.server");
const { db } = await import("~/utils/db.server");
const { logger } = await import("~/utils/logger.server");

afterAll(() => fake.close());
beforeEach(() => {
  answerStatus = 200;
});

const consenting = (cookie = "gc_consent=granted; _fbp=fb.1.1700000000000.42") =>
  new Request("http://127.0.0.1:3000/sales", { headers: { Cookie: cookie, "User-Agent": "UnitBrowser/1.0" } });

/** A local checkout of /sales from a browser with this Cookie header, paid with `email`. */
async function buy(visitorId: string, cookie: string, email: string) {
  const offer = (await getOfferByPath("/sales"))!;
  const adBrowser = adBrowserOf(consenting(cookie), "203.0.113.9");
  const started = await startCheckout({ offer, planId: "lifetime", user: null, visitorId, cookieHeader: cookie, adBrowser });
  if (!started.ok) throw new Error(started.reason);
  const id = started.url.split("/").pop()!;
  await completeLocalCheckout({ id, visitorId, user: null, email });
  return id;
}

/** Waits for the background send a new row starts (kick), so each test starts from a quiet outbox. */
async function settled() {
  for (let i = 0; i < 50; i++) {
    const due = await db.adConversion.count({ where: { serverSentAt: null, serverDueAt: { not: null }, leaseUntil: null } });
    const leased = await db.adConversion.count({ where: { serverSentAt: null, leaseId: { not: null } } });
    if (due === 0 && leased === 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("the consent cookie", () => {
  it("reads only an exact choice, and asks while none is made", () => {
    expect(adConsentIn(null)).toBe("ask");
    expect(adConsentIn("gc_vid=x; gc_consent=granted")).toBe("granted");
    expect(adConsentIn("gc_consent=denied; gc_vid=x")).toBe("denied");
    expect(adConsentIn("gc_consent=grantedx")).toBe("ask");
    expect(adConsentIn("xgc_consent=granted")).toBe("ask");
    expect(consentChoiceIn("gc_consent=maybe")).toBeNull();
  });

  it("is HttpOnly, SameSite=Lax, the whole site, about six months", () => {
    expect(consentCookie("granted")).toBe("gc_consent=granted; Max-Age=15552000; Path=/; HttpOnly; SameSite=Lax");
  });

  it("brings the visitor back to a page of ours only", () => {
    const origin = "http://127.0.0.1:3000";
    expect(pageChosenOn({ referer: `${origin}/crease-crisis/3?x=1`, origin, returnTo: "/crease-crisis" })).toBe("/crease-crisis/3?x=1");
    // Another site's Referer, or the settings page itself: the form's field.
    expect(pageChosenOn({ referer: "https://evil.example/phish", origin, returnTo: "/sales" })).toBe("/sales");
    expect(pageChosenOn({ referer: `${origin}/cookie-settings?returnTo=%2Fsales`, origin, returnTo: "/sales" })).toBe("/sales");
    expect(pageChosenOn({ referer: null, origin, returnTo: "//evil.example" })).toBe("/");
    expect(pageChosenOn({ referer: "not a url", origin, returnTo: "https://evil.example/" })).toBe("/");
    expect(returnPath("/\\evil.example")).toBe("/");
  });

  it("saving a choice sets the cookie and a toast, and goes back", async () => {
    const outcome = await saveConsent("denied", "/sales");
    expect(outcome).toMatchObject({ go: "/sales" });
    expect((outcome as { cookies: string[] }).cookies[0]).toMatch(/^gc_consent=denied;/);
  });
});

describe("configuration", () => {
  const DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "glow-capi-env-"));
  const production = {
    DATA_DIR,
    NODE_ENV: "production",
    SESSION_SECRET: "x".repeat(40),
    PUBLIC_URL: "https://glowcoach.app",
    SMTP_URL: "smtp://m:587",
    PAYMENTS: "off",
  };
  const refused = (source: Record<string, string>) => {
    try {
      parseEnv(source);
    } catch (error) {
      expect(error).toBeInstanceOf(EnvError);
      return (error as Error).message;
    }
    throw new Error("expected the configuration to be refused");
  };

  it("reads the token, defaults to Meta's Graph API, and refuses the test endpoint in production", () => {
    expect(parseEnv({ DATA_DIR }).metaCapi).toBeNull();
    expect(parseEnv({ ...production, META_PIXEL_ID: "123456789012", META_CAPI_TOKEN: "tok" }).metaCapi).toEqual({
      token: "tok",
      baseUrl: "https://graph.facebook.com",
    });
    expect(refused({ ...production, META_PIXEL_ID: "123456789012", META_CAPI_TOKEN: "tok", META_CAPI_URL: "http://127.0.0.1:9" })).toContain(
      "META_CAPI_URL: only for tests, not allowed in production",
    );
    expect(refused({ DATA_DIR, META_CAPI_TOKEN: "tok" })).toContain("META_PIXEL_ID: required when META_CAPI_TOKEN is set");
  });
});

describe("conversions of a paid checkout", () => {
  it("a consenting browser's checkout: InitiateCheckout and Purchase, each sent to the Conversions API once with the logged ids", async () => {
    await settled();
    const visitorId = crypto.randomUUID();
    const email = `Buyer-${visitorId}@Example.com`;
    const id = await buy(visitorId, "gc_consent=granted; _fbp=fb.1.1700000000000.42; _fbc=<script>", email);
    await settled();

    const rows = await db.adConversion.findMany({ where: { checkoutSessionId: id }, orderBy: { name: "asc" } });
    expect(rows.map((row) => row.name)).toEqual(["InitiateCheckout", "Purchase"]);
    const events = await db.analyticsEvent.findMany({ where: { visitorId } });
    const initiate = events.find((event) => event.name === "initiate_checkout")!;
    const purchase = events.find((event) => event.name === "purchase")!;
    expect(rows[0].eventId).toBe(initiate.id);
    expect(rows[1].eventId).toBe((JSON.parse(purchase.props) as { eventId: string }).eventId);
    expect(rows.every((row) => row.serverSentAt !== null)).toBe(true);

    const sent = received.flatMap((request) => request.body.data.filter((event) => event.event_id === rows[0].eventId || event.event_id === rows[1].eventId));
    expect(sent.map((event) => event.event_name).sort()).toEqual(["InitiateCheckout", "Purchase"]);
    const serverPurchase = sent.find((event) => event.event_name === "Purchase")!;
    // The address hashed as Meta asks (trimmed, lower case), Meta's own cookie kept, a forged one dropped.
    expect(serverPurchase.user_data).toEqual({
      client_ip_address: "203.0.113.9",
      client_user_agent: "UnitBrowser/1.0",
      fbp: "fb.1.1700000000000.42",
      em: [hashedEmail(email)],
    });
    expect(hashedEmail(email)).toBe(crypto.createHash("sha256").update(email.toLowerCase()).digest("hex"));
    expect(received.at(-1)!.url).toBe("/v25.0/123456789012/events");
    expect(received.at(-1)!.body.access_token).toBe("unit-capi-token");

    // A second fulfilment (a re-delivered webhook) and a later pass send nothing more.
    const before = received.length;
    await completeLocalCheckout({ id, visitorId, user: null, email });
    expect(await sendDueConversions()).toEqual({ sent: 0, failed: 0, "gave-up": 0 });
    expect(received.length).toBe(before);
    expect(await db.adConversion.count({ where: { checkoutSessionId: id } })).toBe(2);
  });

  it("the pixel's copy is given to the first page that asks, and only with consent", async () => {
    const visitorId = crypto.randomUUID();
    const id = await buy(visitorId, "gc_consent=granted", `once-${visitorId}@example.com`);
    await settled();
    expect(await pixelEventOnce(consenting("gc_consent=denied"), id, "Purchase")).toBeNull();
    const first = await pixelEventOnce(consenting(), id, "Purchase");
    expect(first).toMatchObject({ name: "Purchase", params: { value: 29.99, currency: "USD" } });
    expect(await pixelEventOnce(consenting(), id, "Purchase")).toBeNull();
    expect(await pixelEventOnce(consenting(), id, "InitiateCheckout")).toMatchObject({ name: "InitiateCheckout" });
  });

  it("a browser that declined, or never answered: nothing is written for Meta", async () => {
    for (const cookie of ["gc_consent=denied", ""]) {
      const visitorId = crypto.randomUUID();
      const id = await buy(visitorId, cookie, `declined-${visitorId}@example.com`);
      expect(await db.adConversion.count({ where: { checkoutSessionId: id } })).toBe(0);
      expect(await db.analyticsEvent.count({ where: { visitorId, name: "purchase" } })).toBe(1);
    }
  });

  it("Meta refusing: retried after a backoff, the token never logged, given up after the last try", async () => {
    await settled();
    const logged = vi.spyOn(logger, "error").mockImplementation(() => {});
    answerStatus = 400;
    const visitorId = crypto.randomUUID();
    const id = await buy(visitorId, "gc_consent=granted", `refused-${visitorId}@example.com`);
    await settled();
    const rows = await db.adConversion.findMany({ where: { checkoutSessionId: id } });
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.serverSentAt).toBeNull();
      expect(row.lastError).toContain("HTTP 400");
      expect(row.lastError).not.toContain("unit-capi-token");
      expect(row.attempts).toBe(1);
      expect(row.leaseUntil!.getTime() - row.createdAt.getTime()).toBeGreaterThanOrEqual(retryDelayMs(1) - 1000);
    }
    // Not due before its backoff; each later pass is a try, until the last one gives up.
    expect(await sendDueConversions(new Date())).toEqual({ sent: 0, failed: 0, "gave-up": 0 });
    let at = Date.now();
    for (let attempt = 2; attempt <= MAX_ATTEMPTS; attempt++) {
      at += retryDelayMs(attempt - 1) + 1000;
      const counts = await sendDueConversions(new Date(at));
      expect(counts).toEqual(attempt < MAX_ATTEMPTS ? { sent: 0, failed: 2, "gave-up": 0 } : { sent: 0, failed: 0, "gave-up": 2 });
    }
    const given = await db.adConversion.findMany({ where: { checkoutSessionId: id } });
    expect(given.every((row) => row.serverDueAt === null && row.serverSentAt === null)).toBe(true);
    answerStatus = 200;
    expect(await sendDueConversions(new Date(at + 86_400_000))).toEqual({ sent: 0, failed: 0, "gave-up": 0 });
    expect(logged).toHaveBeenCalled();
    expect(JSON.stringify(logged.mock.calls)).not.toContain("unit-capi-token");
    logged.mockRestore();
  });
});
