/**
 * The production build reading its content from Sanity: a server of its own, pointed at a
 * local Sanity API (tests/unit/fake-sanity.ts) that holds the embedded dataset as
 * content:push stores it. Pages render from it, a signed webhook updates them, a broken
 * document never breaks a page, the Studio's preview (a secret it stores in the dataset) shows
 * drafts to that browser only, also framed in the Studio's preview pane, and a picture
 * uploaded in the Studio shows from Sanity's image CDN.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { createClient } from "@sanity/client";
import { createPreviewSecret } from "@sanity/preview-url-secret/create-secret";
import { encodeSignatureHeader, SIGNATURE_HEADER_NAME } from "@sanity/webhook";
import { expect, test } from "@playwright/test";
import { readEmbeddedDataset } from "../../app/content/embedded-dataset.server";
import { toSanityDocument } from "../../app/content/sanity-format";
import { startFakeSanity, type FakeSanity } from "../unit/fake-sanity";
import { png } from "../unit/png";
import { choose, jsEnabled } from "./support";
import { entitlementsOf, signedInMember, userIdOf } from "./members-helpers";
import { e2ePort } from "./ports";

const WEBHOOK_SECRET = "e2e-webhook-secret-123456";
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
const FILES: Record<string, { type: string; body: Buffer }> = {
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
  const port = e2ePort("sanity", PROJECTS.indexOf(testInfo.project.name));
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
      // The fake stands in for the image CDN too, so uploaded pictures really load.
      SANITY_CDN_URL: fake.url,
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

/** The Studio's client: an editor's session (the fake takes the token). */
function editor() {
  return createClient({
    projectId: fake.projectId,
    dataset: fake.dataset,
    token: fake.token,
    apiHost: fake.url,
    useProjectHostname: false,
    useCdn: false,
    apiVersion: "2025-02-19",
  });
}

/** What the Studio's preview does: a one-hour secret stored in the dataset, and the app's /preview link with it. */
async function previewLink(path: string, { hoursAgo = 0 } = {}) {
  // The Studio is served by the fake in these tests: the same site as the app, as on localhost.
  const { secret } = await createPreviewSecret(editor(), "e2e", fake.url);
  if (hoursAgo) {
    const stored = fake.all().find((d) => d.secret === secret)!;
    fake.putRaw({ ...stored, _updatedAt: new Date(Date.now() - hoursAgo * 3_600_000).toISOString() });
  }
  return `${base}/preview?sanity-preview-secret=${secret}&sanity-preview-pathname=${encodeURIComponent(path)}`;
}

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

  // A made-up secret, and one the Studio stored more than an hour ago: refused, nothing set.
  for (const link of [`${base}/preview?sanity-preview-secret=guessed-0123456789&sanity-preview-pathname=/quiz`, await previewLink("/quiz", { hoursAgo: 2 })]) {
    const refused = await page.goto(link);
    expect(refused?.status()).toBe(401);
    expect(await refused?.headerValue("set-cookie")).toBeNull();
    await expect(page.getByText("That preview link is not valid or has expired. Open the preview again from the Studio.")).toBeVisible();
  }
  const opened = await page.goto(await previewLink("/quiz"));
  await expect(page).toHaveURL(`${base}/quiz`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Draft: a brand-new intro");
  // Only the Studio that opened the preview may frame it; never anyone else.
  expect(await opened?.headerValue("content-security-policy")).toContain(`frame-ancestors 'self' ${fake.url}`);
  expect(await opened?.headerValue("x-frame-options")).toBeNull();

  const visitor = await browser.newPage();
  const visited = await visitor.goto(`${base}/quiz`);
  await expect(visitor.getByRole("heading", { level: 1 })).toHaveText("Find your routine in two minutes");
  expect(await visited?.headerValue("content-security-policy")).toContain("frame-ancestors 'none'");
  expect(await visited?.headerValue("x-frame-options")).toBe("DENY");
  await visitor.close();

  await page.goto(`${base}/preview/exit?path=/quiz`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Find your routine in two minutes");
  await page.goto(`${base}/`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(published!);
});

test("a tutorial page and a routine step with a video in the CMS play it; the others show their picture @no-js", async ({ page, context }, testInfo) => {
  // Uploaded files are asset documents; the step points at them (what the Studio's file field stores).
  fake.put({ _id: "file-clip-webm", _type: "sanity.fileAsset", url: `${fake.url}/files/clip.webm`, mimeType: "video/webm" });
  fake.put({ _id: "file-clip-vtt", _type: "sanity.fileAsset", url: `${fake.url}/files/clip.en.vtt`, mimeType: "text/vtt" });
  // Its still picture is uploaded too: the page shows it until the video plays, at its size.
  const still = await editor().assets.upload("image", png(1280, 800, [236, 220, 210], [248, 238, 230]), { filename: "clip-still.png" });
  const video = {
    _type: "routineVideo",
    title: "Cleansing in 30 seconds",
    duration: "0:02",
    file: { _type: "file", asset: { _type: "reference", _ref: "file-clip-webm" } },
    poster: { _type: "contentImage", asset: { _type: "reference", _ref: still._id }, alt: "Hands massaging cleanser into a cheek" },
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
  await expect(player).toHaveAttribute(
    "poster",
    new RegExp(`^${fake.url}/images/${fake.projectId}/${fake.dataset}/[0-9a-f]{40}-1280x800\\.png\\?w=960&q=80&auto=format$`),
  );
  await expect(player).toHaveAttribute("width", "1280");
  await expect(player).toHaveAttribute("height", "800");
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

test("the Studio's preview pane shows the page with the draft, beside the form", async ({ browser }) => {
  // A fresh browser, framed by the Studio (its pane is an iframe of the app's preview link).
  const context = await browser.newContext();
  const studio = await context.newPage();
  const draft = structuredClone(fake.get("funnel-skin") as Record<string, any>);
  draft.steps[0].headline = "Draft: seen in the pane";
  // (The published quiz was broken by an earlier test; the draft mends it.)
  draft.steps[0].next = [{ _key: "1", to: { step: "1" } }];
  fake.put({ ...draft, _id: "drafts.funnel-skin" } as never);
  const link = await previewLink("/quiz");
  FILES["studio.html"] = {
    type: "text/html",
    body: Buffer.from(`<!doctype html><title>Studio</title><iframe src="${link}" title="Preview of /quiz" width="800" height="600"></iframe>`),
  };
  await studio.goto(`${fake.url}/files/studio.html`);
  await expect(studio.frameLocator("iframe").getByRole("heading", { level: 1 })).toHaveText("Draft: seen in the pane");
  // Another page framing the app (not the Studio that opened a preview) gets nothing: the browser refuses to show it.
  FILES["elsewhere.html"] = { type: "text/html", body: Buffer.from(`<!doctype html><title>Other</title><iframe src="${base}/quiz" title="Framed"></iframe>`) };
  const other = await (await browser.newContext()).newPage();
  await other.goto(`${fake.url}/files/elsewhere.html`);
  await expect(other.frameLocator("iframe").getByRole("heading", { level: 1 })).toHaveCount(0);
  await other.context().close();
  await context.close();
});

test("a picture uploaded in the Studio shows on the page from Sanity's image CDN, sized to its slot", async ({ page }) => {
  // Uploaded as the Studio does (the assets API), then placed in a Studio-shaped document with a crop and hotspot.
  const asset = await editor().assets.upload("image", png(1000, 400), { filename: "luma-logo.png", contentType: "image/png" });
  expect(asset._id).toMatch(/^image-[0-9a-f]{40}-1000x400-png$/);
  edit("page-partnerships", (d) => {
    d.brands.logos[0] = {
      _key: "luma",
      _type: "contentImage",
      asset: { _type: "reference", _ref: asset._id },
      crop: { _type: "sanity.imageCrop", top: 0, bottom: 0, left: 0, right: 0.2 },
      hotspot: { _type: "sanity.imageHotspot", x: 0.4, y: 0.5, width: 0.3, height: 0.3 },
      alt: "Luma Skin",
    };
  });
  expect((await webhook({ _id: "page-partnerships" })).status).toBe(200);

  await page.goto(`${base}/partnerships`);
  const logo = page.getByRole("img", { name: "Luma Skin" });
  const file = `${fake.url}/images/${fake.projectId}/${fake.dataset}/${asset._id.split("-")[1]}-1000x400.png`;
  // The crop (the right fifth cut off) leaves 800×400: the page holds that shape before the picture loads.
  await expect(logo).toHaveAttribute("width", "800");
  await expect(logo).toHaveAttribute("height", "400");
  await expect(logo).toHaveAttribute("src", `${file}?rect=0,0,800,400&w=800&q=80&auto=format`);
  await expect(logo).toHaveAttribute("srcset", [320, 480, 640, 800].map((w) => `${file}?rect=0,0,800,400&w=${w}&q=80&auto=format ${w}w`).join(", "));
  await expect(logo).toHaveAttribute("sizes", "96px");
  await expect(logo).toHaveAttribute("style", /object-position: ?50% 50%/);
  // The browser really loads it from the CDN (the page's Content-Security-Policy allows it).
  await logo.scrollIntoViewIfNeeded();
  // (naturalWidth is the file's width over the density the srcset entry claims: the fake CDN does not resize.)
  await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  expect(await logo.evaluate((img: HTMLImageElement) => img.currentSrc)).toMatch(
    new RegExp(`^${file.replace(/[.?]/g, "\\$&")}\\?rect=0,0,800,400&w=\\d+&q=80&auto=format$`),
  );
  expect(fake.requests.some((r) => r.path.startsWith(`/images/${fake.projectId}/${fake.dataset}/`))).toBe(true);
});

/** A new quiz and a new offer page, as the Studio stores them: live once published, with no code. */
const GLOW_QUIZ = {
  _id: "funnel-glow-quiz",
  _type: "funnel",
  id: "glow-quiz",
  title: "Glow quiz",
  route: "/glow-quiz",
  pageTitle: "Find your glow",
  steps: [
    {
      _key: "1",
      _type: "questionStep",
      id: "1",
      type: "question",
      title: "What does your skin need most?",
      questions: [
        {
          _key: "need",
          _type: "funnelQuestion",
          field: "need",
          select: "one",
          options: [
            { _key: "calm", value: "calm", label: "Calm" },
            { _key: "glow", value: "glow", label: "Glow" },
          ],
        },
      ],
      continueLabel: "Continue",
      next: [{ _key: "r", to: { _type: "target", step: "2" } }],
    },
    {
      _key: "2",
      _type: "resultStep",
      id: "2",
      type: "result",
      title: "Your glow plan is ready",
      pick: { rules: [], otherwise: { _type: "reference", _ref: "insight-skin-balanced" } },
      cta: { label: "See my glow offer", href: "/glow-offer" },
    },
  ],
};

const GLOW_OFFER = {
  _id: "offer-glow",
  _type: "offer",
  offerId: "glow",
  path: "/glow-offer",
  pageTitle: "Your Glow Routine",
  description: "A six-step routine for skin that glows.",
  funnels: ["glow-quiz"],
  routinePlan: { _type: "reference", _ref: "clear-healthy-skin" },
  plans: [
    {
      _key: "lifetime",
      _type: "offerPlan",
      id: "lifetime",
      tier: "single_payment",
      name: "Glow Routine",
      priceMinor: 3900,
      compareAtMinor: 7800,
      priceSuffix: "one-time",
      // Every plan's refund window (the Studio starts a new plan at 7 days).
      refundDays: 7,
      buttonLabel: "Start glowing - {price}",
      features: ["Your six-step routine", "Lifetime access"],
    },
  ],
  sections: [
    { _key: "hero", _type: "hero", headline: "Glow in six calm steps", benefits: ["Made from your answers"] },
    { _key: "plans", _type: "plans", title: "One payment, yours for good", planIds: ["lifetime"] },
    { _key: "secure", _type: "secureCheckout", text: "Secure checkout · One-time payment" },
  ],
};

test("a quiz and an offer page made in the Studio go live at their own addresses, sell, and answer 410 once taken down", async ({ page }, testInfo) => {
  // Addresses that never had a page: 404.
  expect((await page.goto(`${base}/glow-offer`))?.status()).toBe(404);
  fake.put(GLOW_QUIZ as never);
  // Its hero picture is uploaded in the Studio, like the document itself.
  const picture = await editor().assets.upload("image", png(1200, 800, [240, 214, 200], [250, 236, 228]), { filename: "glow-hero.png" });
  const offer = structuredClone(GLOW_OFFER) as Record<string, any>;
  offer.sections[0].image = { _type: "contentImage", asset: { _type: "reference", _ref: picture._id }, alt: "A dewy cheek in morning light" };
  fake.put(offer as never);
  expect((await webhook({ _id: "offer-glow" })).status).toBe(200);

  // The quiz's result leads to the new offer page.
  await page.goto(`${base}/glow-quiz`);
  await choose(page, "Glow");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Your glow plan is ready" })).toBeVisible();
  await page.getByRole("link", { name: "See my glow offer" }).click();
  await expect(page).toHaveURL(`${base}/glow-offer`);
  await expect(page).toHaveTitle("Your Glow Routine · Glow Coach");
  await expect(page.getByRole("heading", { level: 1, name: "Glow in six calm steps" })).toBeVisible();
  const hero = page.getByRole("img", { name: "A dewy cheek in morning light" });
  await expect(hero).toHaveAttribute(
    "src",
    new RegExp(`^${fake.url}/images/${fake.projectId}/${fake.dataset}/[0-9a-f]{40}-1200x800\\.png\\?w=960&q=80&auto=format$`),
  );
  await expect(hero).toHaveAttribute("width", "1200");
  await expect(hero).toHaveAttribute("height", "800");
  await expect.poll(() => hero.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  const plan = page.getByRole("article", { name: "Glow Routine" });
  await expect(plan.getByText("$39", { exact: true })).toBeVisible();
  await expect(plan.locator("s")).toHaveText("$78");

  // Bought through the local test checkout, at the price shown.
  await plan.getByRole("button", { name: "Start glowing - $39" }).click();
  await expect(page).toHaveURL(/\/checkout\/test\/cs_local_/);
  await expect(page.getByRole("region", { name: "Your order" }).getByText("$39").first()).toBeVisible();
  const email = `glow-${testInfo.project.name}-${Date.now()}@example.com`;
  await page.getByLabel("E-mail").fill(email);
  await page.getByRole("button", { name: "Complete test payment" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();
  const [entitlement] = await entitlementsOf(await userIdOf(email, dataDir), dataDir);
  expect(entitlement).toMatchObject({ offerId: "glow", routinePlanId: "clear-healthy-skin", planId: "lifetime", priceMinor: 3900, tier: "single_payment" });

  // Unpublished in the Studio: the addresses that had pages answer 410, others still 404.
  fake.remove("offer-glow");
  fake.remove("funnel-glow-quiz");
  expect((await webhook({ _id: "offer-glow" })).status).toBe(200);
  const gone = await page.goto(`${base}/glow-offer`);
  expect(gone?.status()).toBe(410);
  await expect(page.getByRole("heading", { level: 1, name: "This page has ended" })).toBeVisible();
  expect((await page.goto(`${base}/glow-quiz`))?.status()).toBe(410);
  expect((await page.goto(`${base}/glow-quiz/2`))?.status()).toBe(410);
  expect((await page.goto(`${base}/never-an-offer`))?.status()).toBe(404);
  // A form posted to a page taken down changes nothing and says so.
  const post = await page.request.post(`${base}/glow-offer`, { form: { intent: "checkout", planId: "lifetime" }, headers: { Origin: base }, maxRedirects: 0 });
  expect(post.status()).toBe(410);
});
