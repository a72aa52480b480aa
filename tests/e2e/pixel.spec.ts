/**
 * The Meta pixel and the Conversions API with META_PIXEL_ID and META_CAPI_TOKEN set (ADR 32).
 * The main e2e server runs without them (site-pages spec: nothing third-party loads), so this
 * spec starts a second production server on its own port and data folder, with the
 * Conversions API pointed at a fake endpoint here that records what it is sent. Meta's script
 * is answered locally by a stub; the fbq queue then holds exactly what the page asked Meta to
 * track.
 */
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import Database from "better-sqlite3";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { e2ePort } from "./ports";
import { visitorId } from "./support";

const PORT = e2ePort("pixel");
const BASE = `http://127.0.0.1:${PORT}`;
const DATA_DIR = "test-results/e2e-data-pixel";
const PIXEL_ID = "123456789012";
const CAPI_TOKEN = "capi-test-token";

let server: ChildProcess | undefined;

/** What the fake Conversions API was sent: one entry per request. */
type CapiRequest = {
  path: string;
  body: { data: { event_name: string; event_id: string; user_data: Record<string, unknown>; custom_data: Record<string, unknown> }[]; access_token: string };
};
const capiRequests: CapiRequest[] = [];
let capi: http.Server | undefined;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  capi = http.createServer((req, res) => {
    let text = "";
    req.on("data", (chunk) => (text += chunk));
    req.on("end", () => {
      capiRequests.push({ path: req.url ?? "", body: JSON.parse(text) });
      res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ events_received: 1 }));
    });
  });
  await new Promise<void>((resolve) => capi!.listen(0, "127.0.0.1", resolve));
  const capiUrl = `http://127.0.0.1:${(capi.address() as AddressInfo).port}`;
  fs.rmSync(DATA_DIR, { recursive: true, force: true });
  server = spawn("node", ["scripts/start.mjs"], {
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: "127.0.0.1",
      DATA_DIR,
      APP_ENV: "local",
      META_PIXEL_ID: PIXEL_ID,
      META_CAPI_TOKEN: CAPI_TOKEN,
      META_CAPI_URL: capiUrl,
      SMTP_URL: "",
      TEST_CLOCK: "",
    },
    stdio: "ignore",
  });
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${BASE}/`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error("the pixel server did not start");
});

test.afterAll(() => {
  server?.kill();
  capi?.close();
});

function query<T>(statement: string, ...params: unknown[]): T[] {
  const db = new Database(path.join(DATA_DIR, "glow-coach.db"), { readonly: true, fileMustExist: true });
  try {
    return db.prepare(statement).all(...params) as T[];
  } finally {
    db.close();
  }
}

function eventIds(visitor: string, name: string): string[] {
  return query<{ id: string }>(`SELECT id FROM "AnalyticsEvent" WHERE visitorId = ? AND name = ? ORDER BY createdAt`, visitor, name).map((r) => r.id);
}

async function tracked(page: Page): Promise<unknown[][]> {
  return page.evaluate(() => ((window as unknown as { fbq: { queue: IArguments[] } }).fbq.queue ?? []).map((args) => Array.from(args)));
}

/** Meta's script requests of a context, answered by a stub. */
async function stubMetaScript(context: BrowserContext): Promise<string[]> {
  const scripts: string[] = [];
  await context.route("https://connect.facebook.net/**", (route) => {
    scripts.push(route.request().url());
    return route.fulfill({ contentType: "text/javascript", body: "/* stub of Meta's fbevents.js */" });
  });
  return scripts;
}

/** A visitor who answered the banner earlier. */
async function chose(context: BrowserContext, choice: "granted" | "denied") {
  await context.addCookies([{ name: "gc_consent", value: choice, url: BASE }]);
}

const banner = (page: Page) => page.getByRole("region", { name: "May we measure our ads?" });

test("the pixel waits for consent: a calm banner, Decline keeps Meta out, the footer's Cookie settings changes it", async ({ page, context, browser }) => {
  const scripts = await stubMetaScript(context);

  await page.goto(`${BASE}/crease-crisis`);
  await expect(banner(page)).toBeVisible();
  await expect(banner(page).getByRole("button", { name: "Accept" })).toBeVisible();
  await expect(banner(page).getByRole("button", { name: "Decline" })).toBeVisible();
  // The page is loaded and hydrated, and still nothing of Meta's: no script, no fbq, no events.
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  expect(scripts).toEqual([]);
  expect(await page.evaluate(() => typeof (window as unknown as { fbq?: unknown }).fbq)).toBe("undefined");
  // First-party analytics are unaffected.
  expect(eventIds(await visitorId(context), "funnel_viewed")).toHaveLength(1);

  // Step 2, opened again: opening it changes nothing now, so its page is kept and served from memory.
  await page.getByRole("button", { name: "By lunchtime", exact: true }).click();
  await expect(page).toHaveURL(`${BASE}/crease-crisis/2`);
  // Step 2 shows before the answer is stored (ADR 43): reloaded once the server has it.
  const visitor = await visitorId(context);
  await expect.poll(() => eventIds(visitor, "step_answered")).toHaveLength(1);
  await page.reload();
  await page.reload();
  await expect(banner(page)).toBeVisible();

  await banner(page).getByRole("button", { name: "Decline" }).click();
  // Back to the page the choice was made on.
  await expect(page).toHaveURL(`${BASE}/crease-crisis/2`);
  await expect(page.getByRole("status").filter({ hasText: "Choice saved" })).toBeVisible();
  await expect(banner(page)).toHaveCount(0);
  // The page kept from memory shows the banner: it is not this visitor's page any more.
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(banner(page)).toHaveCount(0);
  expect(scripts).toEqual([]);

  // Changed from the footer: back to the page it was opened from, with the pixel on.
  await page.getByRole("link", { name: "Cookie settings" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Cookie settings" })).toBeVisible();
  await expect(page.getByText("You declined: Meta's pixel is off for this browser.")).toBeVisible();
  await page.getByRole("button", { name: "Accept" }).click();
  await expect(page).toHaveURL(`${BASE}/crease-crisis/2`);
  await expect.poll(() => scripts).toEqual(["https://connect.facebook.net/en_US/fbevents.js"]);
  await expect(banner(page)).toHaveCount(0);

  // A form sent without a choice: a clear message, a 400, nothing remembered.
  const refused = await page.request.post(`${BASE}/cookie-settings`, { form: { returnTo: "/" }, headers: { Origin: BASE } });
  expect(refused.status()).toBe(400);
  expect(await refused.text()).toContain("Please choose Accept or Decline.");

  // Without JavaScript the banner is a plain form that works the same.
  const noJs = await browser.newContext({ javaScriptEnabled: false });
  const plain = await noJs.newPage();
  await plain.goto(`${BASE}/crease-crisis`);
  expect(await plain.content()).not.toContain("connect.facebook.net/en_US/fbevents.js");
  await banner(plain).getByRole("button", { name: "Accept" }).click();
  await expect(plain).toHaveURL(`${BASE}/crease-crisis`);
  await expect(banner(plain)).toHaveCount(0);
  expect((await noJs.cookies()).find((c) => c.name === "gc_consent")).toMatchObject({ value: "granted", httpOnly: true, sameSite: "Lax" });
  // Scripts do not run here: the page now carries Meta's loader, which it did not before.
  expect(await plain.content()).toContain("connect.facebook.net/en_US/fbevents.js");
  await noJs.close();
});

test("with consent the pixel loads and quiz events carry the server's event ids", async ({ page, context }) => {
  const scripts = await stubMetaScript(context);
  await chose(context, "granted");

  await page.goto(`${BASE}/crease-crisis`);
  await expect.poll(() => scripts).toEqual(["https://connect.facebook.net/en_US/fbevents.js"]);
  const visitor = await visitorId(context);
  const [viewedId] = eventIds(visitor, "funnel_viewed");
  expect(viewedId).toBeTruthy();
  await expect
    .poll(() => tracked(page))
    .toEqual([
      ["init", PIXEL_ID],
      ["track", "PageView"],
      ["track", "ViewContent", { content_ids: ["crease-crisis"], content_name: expect.any(String), content_type: "quiz" }, { eventID: viewedId }],
    ]);

  for (const [label, next] of [
    ["By lunchtime", "/crease-crisis/2"],
    ["Under my eyes", "/crease-crisis/3"],
    ["Self-conscious", "/crease-crisis/4"],
    ["A full workday", "/crease-crisis/5"],
    ["Feeling confident all day", "/crease-crisis/6"],
  ]) {
    await page.getByRole("button", { name: label, exact: true }).click();
    await expect(page).toHaveURL(`${BASE}${next}`);
  }
  await expect(page).toHaveURL(`${BASE}/crease-crisis/7`, { timeout: 10_000 });
  const [completedId] = eventIds(visitor, "funnel_completed");
  expect(completedId).toBeTruthy();
  await expect
    .poll(async () => (await tracked(page)).filter((call) => call[1] === "Lead"))
    .toEqual([["track", "Lead", { content_ids: ["crease-crisis"], content_name: expect.any(String) }, { eventID: completedId }]]);
  // Client-side navigations fire each event once; the loader script is loaded once.
  expect((await tracked(page)).filter((call) => call[1] === "ViewContent")).toHaveLength(1);
  expect(scripts).toHaveLength(1);
});

async function buyCreaseRoutine(page: Page, email: string) {
  await page.goto(`${BASE}/crease-crisis`);
  for (const label of ["By lunchtime", "Under my eyes", "Self-conscious", "A full workday", "Feeling confident all day"]) {
    await page.getByRole("button", { name: label, exact: true }).click();
  }
  await expect(page).toHaveURL(`${BASE}/crease-crisis/7`, { timeout: 10_000 });
  await page.getByRole("link", { name: "See My Crease-Free Routine" }).click();
  await expect(page).toHaveURL(`${BASE}/sales`);
  await page.getByRole("button", { name: "Get My Personalized Routine" }).click();
  await expect(page).toHaveURL(/\/checkout\/test\/cs_local_/);
  const checkoutUrl = page.url();
  await page.getByLabel("E-mail").fill(email);
  return checkoutUrl;
}

const capiEvents = (id: string) => capiRequests.flatMap((request) => request.body.data.filter((event) => event.event_id === id));

test("InitiateCheckout and Purchase: one event id each, logged by the server, sent by the pixel once and by the Conversions API once", async ({
  page,
  context,
}) => {
  await stubMetaScript(context);
  await chose(context, "granted");
  const email = `pixel-buyer-${Date.now()}@example.com`;
  const checkoutUrl = await buyCreaseRoutine(page, email);
  const visitor = await visitorId(context);

  // The checkout started: the pixel's InitiateCheckout carries the id of the server's initiate_checkout event.
  const [initiateId] = eventIds(visitor, "initiate_checkout");
  expect(initiateId).toBeTruthy();
  const initiate = [
    "track",
    "InitiateCheckout",
    { value: 29.99, currency: "USD", content_ids: [expect.any(String)], content_name: expect.any(String) },
    { eventID: initiateId },
  ];
  await expect.poll(async () => (await tracked(page)).filter((call) => call[1] === "InitiateCheckout")).toEqual([initiate]);
  // The test checkout page again (a reload): no second InitiateCheckout.
  await page.reload();
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  expect((await tracked(page)).filter((call) => call[1] === "InitiateCheckout")).toEqual([]);
  expect(page.url()).toBe(checkoutUrl);

  await page.getByLabel("E-mail").fill(email);
  await page.getByRole("button", { name: "Complete test payment" }).click();
  await expect(page).toHaveURL(/\/payment-success\?session_id=cs_local_/);
  await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();
  const [purchase] = query<{ props: string }>(`SELECT props FROM "AnalyticsEvent" WHERE visitorId = ? AND name = 'purchase'`, visitor);
  const purchaseId = (JSON.parse(purchase.props) as { eventId: string }).eventId;
  expect(purchaseId).toMatch(/^[0-9a-f-]{36}$/);
  await expect
    .poll(async () => (await tracked(page)).filter((call) => call[1] === "Purchase"))
    .toEqual([
      ["track", "Purchase", { value: 29.99, currency: "USD", content_ids: [expect.any(String)], content_name: expect.any(String) }, { eventID: purchaseId }],
    ]);

  // A reload of the success page sends no second Purchase.
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  expect((await tracked(page)).filter((call) => call[1] === "Purchase")).toEqual([]);

  // The Conversions API got each event once, with the same ids, so Meta counts each once.
  await expect.poll(() => capiEvents(purchaseId).length).toBe(1);
  await expect.poll(() => capiEvents(initiateId).length).toBe(1);
  const [serverPurchase] = capiEvents(purchaseId);
  expect(serverPurchase).toMatchObject({
    event_name: "Purchase",
    action_source: "website",
    event_source_url: `${BASE}/payment-success`,
    user_data: {
      em: [crypto.createHash("sha256").update(email.toLowerCase()).digest("hex")],
      client_ip_address: expect.any(String),
      client_user_agent: expect.any(String),
    },
    custom_data: { value: 29.99, currency: "USD" },
  });
  expect(capiEvents(initiateId)[0]).toMatchObject({ event_name: "InitiateCheckout", event_source_url: `${BASE}/sales` });
  expect(JSON.stringify(capiEvents(initiateId)[0].user_data)).not.toContain("@");
  const requests = capiRequests.filter((request) => request.body.data.some((event) => [initiateId, purchaseId].includes(event.event_id)));
  for (const request of requests) {
    expect(request.path).toBe(`/v25.0/${PIXEL_ID}/events`);
    expect(request.body.access_token).toBe(CAPI_TOKEN);
  }
  // And never again: a second look later finds nothing new.
  await new Promise((r) => setTimeout(r, 1000));
  expect(capiEvents(purchaseId)).toHaveLength(1);
  expect(capiEvents(initiateId)).toHaveLength(1);
});

test("a visitor who declined: the purchase is logged first-party, and nothing goes to Meta from the page or the server", async ({ page, context }) => {
  const scripts = await stubMetaScript(context);
  await chose(context, "denied");
  await buyCreaseRoutine(page, `pixel-declined-${Date.now()}@example.com`);
  await page.getByRole("button", { name: "Complete test payment" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();
  const visitor = await visitorId(context);
  expect(eventIds(visitor, "initiate_checkout")).toHaveLength(1);
  expect(eventIds(visitor, "purchase")).toHaveLength(1);
  expect(query(`SELECT eventId FROM "AdConversion" WHERE visitorId = ?`, visitor)).toEqual([]);
  expect(scripts).toEqual([]);
  expect(await page.evaluate(() => typeof (window as unknown as { fbq?: unknown }).fbq)).toBe("undefined");
  const ids = [...eventIds(visitor, "initiate_checkout")];
  await new Promise((r) => setTimeout(r, 500));
  expect(ids.flatMap(capiEvents)).toEqual([]);
});
