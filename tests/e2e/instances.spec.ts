/**
 * Two instances of the production build, one database: whatever one instance learns, the
 * other knows. A pair of its own (content from a local Sanity API, a low request limit) on
 * the suite's database: the SQLite file of its own data folder, or the PostgreSQL database of
 * the PostgreSQL stage (E2E_DATABASE_URL). Cookies belong to the host, not the port, so one
 * browser is signed in on both, as behind a load balancer.
 */
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import { encodeSignatureHeader, SIGNATURE_HEADER_NAME } from "@sanity/webhook";
import { expect, test } from "@playwright/test";
import { readEmbeddedDataset } from "../../app/content/embedded-dataset.server";
import { toSanityDocument } from "../../app/content/sanity-format";
import { startFakeSanity, type FakeSanity } from "../unit/fake-sanity";
import { accountMenu, uniqueEmail } from "./accounts";
import { E2E_MAIL_DIR, signInLinkFrom, waitForEmail } from "./mail-server";
import { ownLimitMinute } from "./support";
import { databaseOf, E2E_DATABASE_URL } from "./test-db";
import { e2ePort } from "./ports";

const WEBHOOK_SECRET = "e2e-instances-webhook-secret";
const REQUEST_LIMIT = 20;
const BASE_PORT = e2ePort("instances");
const DATA_DIR = "test-results/e2e-instances";

test.describe.configure({ mode: "serial" });
// The pair's request counts live in the suite's database: beside the other suites' requests
// from 127.0.0.1 its low limit would be spent by them. Behind its load balancer it sees this
// browser at an address of its own.
test.use({ extraHTTPHeaders: { "X-Forwarded-For": `10.201.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}` } });

let fake: FakeSanity;
const servers: ChildProcess[] = [];
const [A, B] = [`http://127.0.0.1:${BASE_PORT}`, `http://127.0.0.1:${BASE_PORT + 1}`];

function startInstance(port: number, script: string): { child: ChildProcess; log: { port: number; text: string } } {
  const child = spawn(process.execPath, [script], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      APP_ENV: "local",
      HOST: "127.0.0.1",
      PORT: String(port),
      // Behind one load balancer, both instances make links to the same public origin.
      PUBLIC_URL: A,
      DATA_DIR,
      ...(E2E_DATABASE_URL ? { DATABASE_URL: E2E_DATABASE_URL } : {}),
      SANITY_PROJECT_ID: fake.projectId,
      SANITY_DATASET: fake.dataset,
      SANITY_API_TOKEN: fake.token,
      SANITY_API_HOST: fake.url,
      SANITY_WEBHOOK_SECRET: WEBHOOK_SECRET,
      SMTP_URL: `smtp://127.0.0.1:${e2ePort("smtp")}`,
      REQUEST_LIMIT_PER_MINUTE: String(REQUEST_LIMIT),
      TRUST_PROXY: "1",
      // The limit test counts in a minute of its own (ownLimitMinute).
      TEST_CLOCK: "1",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  // Each instance's log is kept, and printed when a test fails: an answer of 500 says nothing
  // about its cause in the browser.
  const log = { port, text: "" };
  child.stdout!.on("data", (chunk) => (log.text += chunk));
  child.stderr!.on("data", (chunk) => (log.text += chunk));
  child.on("exit", (code) => {
    if (code) console.error(`instance on ${port} exited ${code}:\n${log.text}`);
  });
  logs.push(log);
  servers.push(child);
  return { child, log };
}

const logs: { port: number; text: string }[] = [];

test.afterEach(async ({}, testInfo) => {
  if (testInfo.status === testInfo.expectedStatus) return;
  for (const log of logs) console.error(`--- instance on ${log.port} ---\n${log.text.split("\n").slice(-60).join("\n")}`);
});

/**
 * Started when the instance itself says it listens (after its migrations, for the first) and
 * its port answers: an answer alone may come from another process on that port, and then the
 * second instance would start on a database not migrated yet.
 */
async function waitFor(base: string, { child, log }: ReturnType<typeof startInstance>) {
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`the instance at ${base} did not start:\n${log.text}`);
    if (
      log.text.includes(`listening on ${base} `) &&
      (await fetch(`${base}/`).then(
        (r) => r.ok,
        () => false,
      ))
    )
      return;
    if (i > 900) throw new Error(`the instance at ${base} did not answer`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  fake = await startFakeSanity({ documents: readEmbeddedDataset().map(toSanityDocument) });
  // What the Content Lake holds differs from the embedded files, so a page shows which it read.
  edit("page-landing", (d) => (d.headline = "Glow from the Content Lake"));
  fs.rmSync(DATA_DIR, { recursive: true, force: true });
  // The first migrates the database (npm start); the second only serves, as a second machine would.
  const first = startInstance(BASE_PORT, "scripts/start.mjs");
  await waitFor(A, first);
  await waitFor(B, startInstance(BASE_PORT + 1, "server.mjs"));
});

test.afterAll(async () => {
  for (const server of servers) server.kill("SIGTERM");
  await fake?.close();
});

function edit(id: string, change: (doc: Record<string, any>) => void) {
  const doc = structuredClone(fake.get(id)!) as Record<string, any>;
  change(doc);
  fake.put(doc as never);
}

test("a sign-in on one instance is a session on the other, and signing out on either ends it @instances", async ({ page }) => {
  const email = uniqueEmail("two-instances");
  const sentAfter = new Date(Date.now() - 1000);
  await page.goto(`${A}/login`);
  await page.getByLabel("E-mail").fill(email);
  await page.getByRole("button", { name: "Send Magic Link" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Check Your Email!" })).toBeVisible();
  // The link is opened on the other instance.
  const link = new URL(signInLinkFrom(await waitForEmail(E2E_MAIL_DIR, email, { after: sentAfter })));
  await page.goto(`${B}${link.pathname}${link.search}`);
  await page.getByRole("button", { name: `Sign in as ${email}` }).click();
  await expect(accountMenu(page, email)).toBeVisible();

  for (const base of [A, B]) {
    await page.goto(`${base}/profile`);
    await expect(page).toHaveURL(`${base}/profile`);
    await expect(accountMenu(page, email)).toBeVisible();
  }

  // Signed out on A: the session is over on B too, even for a copy of the old cookie.
  const session = (await page.context().cookies()).find((cookie) => cookie.name === "gc_session")!;
  const logout = await page.request.post(`${A}/logout`, { maxRedirects: 0 });
  expect(logout.status()).toBe(303);
  await page.context().addCookies([session]);
  await page.goto(`${B}/profile`);
  await expect(page).toHaveURL(`${B}/login?redirectTo=%2Fprofile`);
});

test("a Sanity publish that reaches one instance is seen by both @instances", async ({ page }) => {
  // Both instances have read (and cached) the landing page and the quiz.
  for (const base of [A, B]) {
    await page.goto(`${base}/`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Glow from the Content Lake");
  }
  edit("page-landing", (d) => (d.headline = "Published once, seen everywhere"));
  // Until the webhook comes, each serves what it cached.
  await page.goto(`${B}/`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Glow from the Content Lake");

  const body = JSON.stringify({ _id: "page-landing" });
  const delivered = await fetch(`${A}/webhooks/sanity`, {
    method: "POST",
    body,
    headers: { "Content-Type": "application/json", [SIGNATURE_HEADER_NAME]: await encodeSignatureHeader(body, Date.now(), WEBHOOK_SECRET) },
  });
  expect(delivered.status).toBe(200);

  await page.goto(`${A}/`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Published once, seen everywhere");
  // The other instance sees the new content version within its one-second check.
  await expect.poll(async () => (await (await fetch(`${B}/`)).text()).includes("Published once, seen everywhere"), { timeout: 5_000 }).toBe(true);
});

test("a request limit is counted across both instances, exactly, even when requests arrive at once @instances", async ({ playwright }) => {
  const address = `10.200.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`;
  const client = await playwright.request.newContext({ extraHTTPHeaders: { "X-Forwarded-For": address, ...ownLimitMinute() } });
  // 24 changing requests from one address, half to each instance, all at once.
  const answers = await Promise.all(
    Array.from({ length: REQUEST_LIMIT + 4 }, (_, i) => client.post(`${i % 2 ? B : A}/login`, { form: { email: "" }, maxRedirects: 0 })),
  );
  const statuses = answers.map((answer) => answer.status());
  expect(statuses.filter((status) => status === 429)).toHaveLength(4);
  const refused = answers.find((answer) => answer.status() === 429)!;
  expect(await refused.text()).toContain("Too many requests");
  expect(Number(refused.headers()["retry-after"])).toBeGreaterThan(0);
  // Either instance now refuses this address.
  for (const base of [A, B]) expect((await client.post(`${base}/login`, { form: { email: "" }, maxRedirects: 0 })).status()).toBe(429);
  await client.dispose();
});

test("a new buyer's test checkout completed eight times at once, half on each instance: the success page every time, one account, one purchase @instances", async ({
  page,
}) => {
  await page.goto(`${A}/subscribe`);
  await page.getByRole("article", { name: "Annual Plan" }).getByRole("button", { name: "Unlock My Clear Skin Plan - $59/year" }).click();
  await expect(page).toHaveURL(/\/checkout\/test\/cs_local_/);
  await expect(page.getByText("Billed every year, renews automatically")).toBeVisible();
  const id = page.url().split("/").pop()!;
  const email = uniqueEmail("simultaneous-buyer");

  // The buyer's browser posts the form eight times at once (a webhook racing the success
  // page takes the same path): each answer is the way to the success page, none an error.
  const answers = await Promise.all(
    Array.from({ length: 8 }, (_, i) => page.request.post(`${i % 2 ? B : A}/checkout/test/${id}`, { form: { intent: "complete", email }, maxRedirects: 0 })),
  );
  expect(answers.map((answer) => `${answer.status()} ${answer.headers().location}`)).toEqual(Array(8).fill(`303 /payment-success?session_id=${id}`));
  await page.goto(`${B}/payment-success?session_id=${id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();

  const { rows } = databaseOf(E2E_DATABASE_URL ? undefined : DATA_DIR);
  const [stored] = await rows<{ accounts: number; entitlements: number; purchases: number; status: string }>(
    `SELECT (SELECT COUNT(*) FROM "User" WHERE "email" = ?) AS "accounts",
            (SELECT COUNT(*) FROM "Entitlement" WHERE "stripeCheckoutSessionId" = ?) AS "entitlements",
            (SELECT COUNT(*) FROM "AnalyticsEvent" WHERE "name" = 'purchase' AND "props" LIKE ?) AS "purchases",
            (SELECT "status" FROM "CheckoutSession" WHERE "id" = ?) AS "status"`,
    email,
    id,
    `%"checkoutSessionId":"${id}"%`,
    id,
  );
  expect(stored).toEqual({ accounts: 1, entitlements: 1, purchases: 1, status: "complete" });
});
