/**
 * The production build reading its content from Sanity: a server of its own, pointed at a
 * local Sanity API (tests/unit/fake-sanity.ts) that holds the embedded dataset as
 * content:push stores it. Pages render from it, a signed webhook updates them, a broken
 * document never breaks a page, and the preview link shows drafts to that browser only.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { encodeSignatureHeader, SIGNATURE_HEADER_NAME } from "@sanity/webhook";
import { expect, test } from "@playwright/test";
import { readEmbeddedDataset } from "../../app/content/embedded-dataset";
import { toSanityDocument } from "../../app/content/sanity-format";
import { startFakeSanity, type FakeSanity } from "../unit/fake-sanity";

const WEBHOOK_SECRET = "e2e-webhook-secret-123456";
const PREVIEW_SECRET = "e2e-preview-secret-123456";
const PROJECTS = ["desktop", "phone", "desktop-no-js", "phone-no-js"];

test.describe.configure({ mode: "serial" });

let fake: FakeSanity;
let server: ChildProcess;
let base: string;

test.beforeAll(async ({}, testInfo) => {
  testInfo.setTimeout(180_000);
  fake = await startFakeSanity({ documents: readEmbeddedDataset().map(toSanityDocument) });
  // What the Content Lake holds differs from the embedded files, so a page shows which it read.
  edit("page-landing", (d) => (d.headline = "Glow from the Content Lake"));
  edit("funnel-skin", (d) => (d.steps[0].headline = "Your skin, your routine"));
  // One app server per project, beside the suite's own port.
  const port = Number(process.env.E2E_PORT ?? 3210) + 30 + PROJECTS.indexOf(testInfo.project.name);
  const dataDir = `test-results/e2e-sanity-${testInfo.project.name}`;
  fs.rmSync(dataDir, { recursive: true, force: true });
  base = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, ["scripts/start.mjs"], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      APP_ENV: "local",
      SANITY_PROJECT_ID: fake.projectId,
      SANITY_DATASET: fake.dataset,
      SANITY_API_TOKEN: fake.token,
      SANITY_API_HOST: fake.url,
      SANITY_WEBHOOK_SECRET: WEBHOOK_SECRET,
      SANITY_PREVIEW_SECRET: PREVIEW_SECRET,
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  server.stderr!.on("data", (chunk) => (stderr += chunk));
  for (let i = 0; ; i++) {
    if (server.exitCode !== null) throw new Error(`the app did not start:\n${stderr}`);
    const up = await fetch(`${base}/`).then((r) => r.ok, () => false);
    if (up) break;
    if (i > 600) throw new Error(`the app did not answer:\n${stderr}`);
    await new Promise((r) => setTimeout(r, 200));
  }
});

test.afterAll(async () => {
  server?.kill("SIGTERM");
  await fake?.close();
});

function edit(id: string, change: (doc: Record<string, any>) => void) {
  const doc = structuredClone(fake.get(id)!) as Record<string, any>;
  change(doc);
  fake.put(doc as never);
}

async function webhook(body: object, secret = WEBHOOK_SECRET) {
  const text = JSON.stringify(body);
  return fetch(`${base}/webhooks/sanity`, {
    method: "POST",
    body: text,
    headers: { "Content-Type": "application/json", [SIGNATURE_HEADER_NAME]: await encodeSignatureHeader(text, Date.now(), secret) },
  });
}

test("pages render from Sanity and change when a signed webhook says so", async ({ page }) => {
  await page.goto(`${base}/`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Glow from the Content Lake");
  await page.goto(`${base}/quiz`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your skin, your routine");

  edit("funnel-skin", (d) => (d.steps[0].headline = "Find your routine in two minutes"));
  // Wrong secret: refused, and the page (cached until now) stays as it was.
  const refused = await webhook({ _id: "funnel-skin" }, "someone-elses-secret-000");
  expect(refused.status).toBe(401);
  await page.goto(`${base}/quiz`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your skin, your routine");

  expect((await webhook({ _id: "funnel-skin" })).status).toBe(200);
  await page.goto(`${base}/quiz`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Find your routine in two minutes");
});

test("a broken document from the CMS keeps the page as it was", async ({ page }) => {
  await page.goto(`${base}/`);
  const headline = await page.getByRole("heading", { level: 1 }).textContent();
  edit("page-landing", (d) => {
    d.headline = "";
    d.quizzes = [];
  });
  edit("funnel-skin", (d) => (d.steps[0].next = [{ _key: "x", to: { step: "nowhere" } }]));
  expect((await webhook({})).status).toBe(200);
  const response = await page.goto(`${base}/`);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(headline!);
  expect((await page.goto(`${base}/quiz`))?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Find your routine in two minutes");
});

test("the preview link shows drafts to that browser only", async ({ page, browser }) => {
  await page.goto(`${base}/`);
  const published = await page.getByRole("heading", { level: 1 }).textContent();
  fake.put({ ...(fake.get("funnel-skin") as object), _id: "drafts.funnel-skin", steps: (() => {
    const steps = structuredClone((fake.get("funnel-skin") as Record<string, any>).steps);
    steps[0].headline = "Draft: a brand-new intro";
    steps[0].next = [{ _key: "1", to: { step: "1" } }];
    return steps;
  })() } as never);

  expect((await page.goto(`${base}/preview?secret=wrong&path=/quiz`))?.status()).toBe(401);
  await page.goto(`${base}/preview?secret=${PREVIEW_SECRET}&path=/quiz`);
  await expect(page).toHaveURL(`${base}/quiz`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Draft: a brand-new intro");

  const visitor = await browser.newPage();
  await visitor.goto(`${base}/quiz`);
  await expect(visitor.getByRole("heading", { level: 1 })).toHaveText("Find your routine in two minutes");
  await visitor.close();

  await page.goto(`${base}/preview/exit?path=/quiz`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Find your routine in two minutes");
  await page.goto(`${base}/`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(published!);
});
