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
import { readEmbeddedDataset } from "../../app/content/embedded-dataset.server";
import { toSanityDocument } from "../../app/content/sanity-format";
import { startFakeSanity, type FakeSanity } from "../unit/fake-sanity";
import { jsEnabled } from "./support";
import { signedInMember } from "./members-helpers";

const WEBHOOK_SECRET = "e2e-webhook-secret-123456";
const PREVIEW_SECRET = "e2e-preview-secret-123456";
const PROJECTS = ["desktop", "phone", "desktop-no-js", "phone-no-js"];

test.describe.configure({ mode: "serial" });

let fake: FakeSanity;
let server: ChildProcess;
let base: string;
let dataDir: string;

/**
 * A two-second clip and its captions, made with Debian's ffmpeg (small enough to keep in the
 * repository): ffmpeg -f lavfi -i "color=c=0xf6e0e1:s=160x100:d=2:r=10" -c:v libvpx-vp9 -b:v 20k -an clip.webm
 */
const FILES = {
  "clip.webm": { type: "video/webm", body: fs.readFileSync("tests/fixtures/clip.webm") },
  "clip.en.vtt": { type: "text/vtt", body: fs.readFileSync("tests/fixtures/clip.en.vtt") },
};

test.beforeAll(async ({}, testInfo) => {
  testInfo.setTimeout(180_000);
  fake = await startFakeSanity({ documents: readEmbeddedDataset().map(toSanityDocument), files: FILES });
  // What the Content Lake holds differs from the embedded files, so a page shows which it read.
  edit("page-landing", (d) => (d.headline = "Glow from the Content Lake"));
  edit("funnel-skin", (d) => (d.steps[0].headline = "Your skin, your routine"));
  // One app server per project, beside the suite's own port.
  const port = Number(process.env.E2E_PORT ?? 3210) + 30 + PROJECTS.indexOf(testInfo.project.name);
  dataDir = `test-results/e2e-sanity-${testInfo.project.name}`;
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
    const up = await fetch(`${base}/`).then(
      (r) => r.ok,
      () => false,
    );
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
  fake.put({
    ...(fake.get("funnel-skin") as object),
    _id: "drafts.funnel-skin",
    steps: (() => {
      const steps = structuredClone((fake.get("funnel-skin") as Record<string, any>).steps);
      steps[0].headline = "Draft: a brand-new intro";
      steps[0].next = [{ _key: "1", to: { step: "1" } }];
      return steps;
    })(),
  } as never);

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

test("a tutorial page and a routine step with a video in the CMS play it; the others show their picture", async ({ page, context }, testInfo) => {
  // Uploaded files are asset documents; the step points at them (what the Studio's file field stores).
  fake.put({ _id: "file-clip-webm", _type: "sanity.fileAsset", url: `${fake.url}/files/clip.webm`, mimeType: "video/webm" });
  fake.put({ _id: "file-clip-vtt", _type: "sanity.fileAsset", url: `${fake.url}/files/clip.en.vtt`, mimeType: "text/vtt" });
  const video = {
    _type: "routineVideo",
    title: "Cleansing in 30 seconds",
    duration: "0:02",
    file: { _type: "file", asset: { _type: "reference", _ref: "file-clip-webm" } },
    captions: { file: { _type: "file", asset: { _type: "reference", _ref: "file-clip-vtt" } }, label: "English", srclang: "en" },
  };
  edit("tutorial-step-1", (d) => (d.video = video));
  edit("clear-healthy-skin", (d) => (d.steps[0].video = video));
  expect((await webhook({ _id: "tutorial-step-1" })).status).toBe(200);

  const { userId } = await signedInMember(context, base, { dataDir, subscription: "annual" });
  expect(userId).toBeTruthy();
  await page.goto(`${base}/path1`);
  const player = page.locator("video");
  await expect(player).toHaveCount(1);
  await expect(player).toHaveAttribute("controls", "");
  await expect(player).toHaveAttribute("poster", "/images/routine/cleanse.svg");
  await expect(player.locator("source")).toHaveAttribute("src", `${fake.url}/files/clip.webm`);
  await expect(player.locator('track[kind="captions"]')).toHaveAttribute("srclang", "en");
  await expect(page.getByText("Video · 0:02")).toBeVisible();
  if (jsEnabled(testInfo)) {
    // The browser really loads it (the page's Content-Security-Policy allows the CMS's files), and its captions.
    await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(await player.evaluate((v: HTMLVideoElement) => Math.round(v.duration))).toBe(2);
    await expect
      .poll(() => player.evaluate((v: HTMLVideoElement) => v.textTracks[0]?.cues?.[0] && (v.textTracks[0].cues[0] as VTTCue).text))
      .toBe("Massage the cleanser in for 30 seconds.");
  }

  // A page without a video: its picture, no player, no play button or length.
  await page.goto(`${base}/path2`);
  await expect(page.locator("video")).toHaveCount(0);
  await expect(page.getByText(/^Video · /)).toHaveCount(0);

  // The routine player: the step with a video plays it; the next one has none.
  await page.goto(`${base}/plan/clear-healthy-skin?step=1`);
  await expect(page.getByText("Video Tutorial · Cleansing in 30 seconds")).toBeVisible();
  await expect(page.locator("video source")).toHaveAttribute("src", `${fake.url}/files/clip.webm`);
  await page.goto(`${base}/plan/clear-healthy-skin?step=2`);
  await expect(page.locator("video")).toHaveCount(0);
  await expect(page.getByText(/Video Tutorial/)).toHaveCount(0);
});
