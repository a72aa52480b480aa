/**
 * The app reading from Sanity: the real @sanity/client pointed at a local Sanity API
 * (fake-sanity.ts) holding the embedded dataset as content:push stores it. Covers what
 * pages read, caching and the signed webhook that clears it, a broken CMS document falling
 * back (last good version, else the embedded one), and the preview cookie showing drafts.
 */
import { encodeSignatureHeader, SIGNATURE_HEADER_NAME } from "@sanity/webhook";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as content from "~/content/content.server";
import { readEmbeddedDataset } from "~/content/embedded-dataset.server";
import * as preview from "~/content/preview.server";
import { toSanityDocument } from "~/content/sanity-format";
import { loader as landingLoader } from "~/routes/_index";
import { loader as previewRoute } from "~/routes/preview";
import { action as webhookAction } from "~/routes/webhooks.sanity";
import { reloadEnv } from "~/utils/env.server";
import { logger } from "~/utils/logger.server";
import { startFakeSanity, type FakeSanity } from "./fake-sanity";

const WEBHOOK_SECRET = "whsec-test-0123456789";
const STUDIO = "https://studio.glowcoach.test";
const SANITY_SETTINGS = ["SANITY_PROJECT_ID", "SANITY_DATASET", "SANITY_API_TOKEN", "SANITY_API_HOST", "SANITY_WEBHOOK_SECRET"];

let fake: FakeSanity;
const errors: string[] = [];

beforeAll(async () => {
  fake = await startFakeSanity({ documents: readEmbeddedDataset().map(toSanityDocument) });
  // The embedded dataset's landing page in the caches, as a file before this one in the worker
  // may have left it: the first test proves it goes when Sanity is switched on.
  await landing();
  Object.assign(process.env, {
    SANITY_PROJECT_ID: fake.projectId,
    SANITY_DATASET: fake.dataset,
    SANITY_API_TOKEN: fake.token,
    SANITY_API_HOST: fake.url,
    SANITY_WEBHOOK_SECRET: WEBHOOK_SECRET,
  });
  // Content now comes from Sanity: the sources follow the settings, and what the embedded
  // dataset filled the caches with goes (content.server.ts).
  reloadEnv();
});
afterAll(async () => {
  vi.restoreAllMocks();
  for (const key of SANITY_SETTINGS) delete process.env[key];
  reloadEnv();
  await fake.close();
});
beforeEach(() => {
  errors.length = 0;
  vi.spyOn(logger, "error").mockImplementation((...args: unknown[]) => void errors.push(args.join(" ")));
  vi.spyOn(logger, "info").mockImplementation(() => {});
  vi.spyOn(logger, "warn").mockImplementation(() => {});
});

async function signedWebhook(body: object, secret = WEBHOOK_SECRET): Promise<Request> {
  const text = JSON.stringify(body);
  const signature = await encodeSignatureHeader(text, Date.now(), secret);
  return new Request("http://app.test/webhooks/sanity", {
    method: "POST",
    body: text,
    headers: { "Content-Type": "application/json", [SIGNATURE_HEADER_NAME]: signature },
  });
}

/** The webhook as Sanity reaches it: POST /webhooks/sanity. */
const postWebhook = (request: Request) => webhookAction({ request, params: {}, context: {} } as never);

const edit = (id: string, change: (doc: Record<string, any>) => void) => {
  const doc = structuredClone(fake.get(id)!) as Record<string, any>;
  change(doc);
  fake.put(doc as never);
};
const queries = () => fake.requests.filter((r) => r.path.includes("/data/query/")).length;
const landing = async () => (await landingLoader({} as never)) as { headline: string };

describe("content from Sanity", () => {
  it("pages read published content from the Content Lake, once until a webhook says it changed", async () => {
    edit("page-landing", (d) => (d.headline = "From the Content Lake"));
    expect((await landing()).headline).toBe("From the Content Lake");
    expect(fake.requests.at(-1)).toMatchObject({ perspective: "published" });
    expect((await content.getFunnelByRoute("/quiz"))?.pageTitle).toBe("Skin quiz");

    const before = queries();
    edit("page-landing", (d) => (d.headline = "Edited again"));
    expect((await landing()).headline).toBe("From the Content Lake");
    expect(queries()).toBe(before);

    const response = await postWebhook(await signedWebhook({ _id: "page-landing" }));
    expect(response.status).toBe(200);
    expect((await landing()).headline).toBe("Edited again");
  });

  it("a webhook with a bad, missing or forged signature is refused and changes nothing", async () => {
    await landing();
    edit("page-landing", (d) => (d.headline = "Not yet"));
    const generation = content.contentGeneration();
    const wrongSecret = await signedWebhook({ _id: "page-landing" }, "another-secret-987654321");
    const tampered = await signedWebhook({ _id: "page-landing" });
    const tamperedBody = new Request(tampered.url, { method: "POST", body: JSON.stringify({ _id: "other" }), headers: tampered.headers });
    const unsigned = new Request("http://app.test/webhooks/sanity", { method: "POST", body: "{}" });
    const garbage = new Request("http://app.test/webhooks/sanity", { method: "POST", body: "{}", headers: { [SIGNATURE_HEADER_NAME]: "t=1,v1=nonsense" } });
    for (const request of [wrongSecret, tamperedBody, unsigned, garbage]) {
      const response = await postWebhook(request);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: "Invalid signature." });
    }
    expect(content.contentGeneration()).toBe(generation);
    expect((await landing()).headline).not.toBe("Not yet");
    await postWebhook(await signedWebhook({}));
    expect((await landing()).headline).toBe("Not yet");
  });

  it("the webhook module answers with values, and the route turns them into responses", async () => {
    const { handleSanityWebhook } = await import("~/content/webhook.server");
    const generation = content.contentGeneration();
    expect(await handleSanityWebhook({ body: null, signature: null })).toEqual({ outcome: "too-large" });
    expect(await handleSanityWebhook({ body: "{}", signature: null })).toEqual({ outcome: "invalid-signature" });
    expect(content.contentGeneration()).toBe(generation);
    const signed = await signedWebhook({ _id: "page-landing" });
    const outcome = await handleSanityWebhook({ body: await signed.text(), signature: signed.headers.get(SIGNATURE_HEADER_NAME) });
    expect(outcome).toMatchObject({ outcome: "published", version: expect.any(Number) });

    const tooLarge = new Request("http://app.test/webhooks/sanity", { method: "POST", body: "x".repeat(256 * 1024 + 1) });
    const response = await postWebhook(tooLarge);
    expect(response.status).toBe(413);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    expect(await response.json()).toEqual({ error: "The request body is too large." });
  });

  it("an invalid document keeps the last good version, and the log names the document and the path", async () => {
    expect((await content.getSiteSettings()).supportEmail).toBe("support@glowcoach.app");
    edit("siteSettings", (d) => (d.supportEmail = "not an e-mail"));
    await postWebhook(await signedWebhook({ _id: "siteSettings" }));
    expect((await content.getSiteSettings()).supportEmail).toBe("support@glowcoach.app");
    expect(errors.join("\n")).toMatch(/document siteSettings is invalid and was not used:\n\s+supportEmail: /);
  });

  it("an invalid document never served before falls back to the embedded one", async () => {
    edit("insight-skin-acne", (d) => (d.body = []));
    edit("funnel-crease-crisis", (d) => (d.steps[0].next = [{ _key: "x", to: { step: "gone" } }]));
    await postWebhook(await signedWebhook({}));
    const insight = await content.getInsight("insight-skin-acne");
    expect(insight?.title).toBe("Calm breakouts without stripping your skin");
    expect(insight?.body.length).toBeGreaterThan(0);
    expect(errors.join("\n")).toMatch(/insight-skin-acne is invalid and was not used:\n\s+body: /);
    // The funnels were read before (last good); a funnel that breaks is kept as it was.
    const crease = await content.getFunnelByRoute("/crease-crisis");
    expect(crease?.steps[0].type === "question" && crease.steps[0].next[0].to).not.toEqual({ step: "gone" });
    expect(errors.join("\n")).toMatch(/funnel funnel-crease-crisis is invalid and was not used:\n\s+steps\.0\.next\.0\.to\.step: no step "gone"/);
  });

  it("the preview cookie shows drafts, uncached; without it (or forged) visitors see published content", async () => {
    const published = (await landing()).headline;
    fake.put({ ...(fake.get("page-landing") as object), _id: "drafts.page-landing", headline: "Draft headline" } as never);

    // What the Studio does (an editor's session): store a one-hour secret in the dataset, then open /preview with it.
    const secret = await studioSecret();
    const link = (secret: string, path = "/quiz") =>
      previewRoute({
        request: new Request(`http://app.test/preview?sanity-preview-secret=${secret}&sanity-preview-pathname=${encodeURIComponent(path)}`),
      } as never);
    const enter = await link(secret);
    expect(enter.status).toBe(303);
    expect(enter.headers.get("Location")).toBe("/quiz");
    const cookie = enter.headers.get("Set-Cookie")!;
    expect(cookie).toMatch(/^gc_preview=\d+\.[\w-]+\.[\w-]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=3600/);
    const cookieHeader = cookie.split(";")[0];

    const removed: string[] = [];
    const response = { removeHeader: (name: string) => void removed.push(name) };
    const inPreview = <T>(header: string | undefined, read: () => Promise<T>) =>
      new Promise<T>((resolve, reject) => preview.withContentPreview(header, response, () => void read().then(resolve, reject)));
    expect((await inPreview(cookieHeader, landing)).headline).toBe("Draft headline");
    expect(fake.requests.at(-1)).toMatchObject({ perspective: "drafts" });
    // The Studio that opened the preview may show it in its pane; nobody else may frame it.
    expect(await inPreview(cookieHeader, async () => preview.previewFramedBy())).toBe(STUDIO);
    expect(removed).toContain("X-Frame-Options");
    expect(await inPreview(undefined, async () => preview.previewFramedBy())).toBeNull();
    expect((await landing()).headline).toBe(published);
    // Funnels too (the drafts perspective adds _originalId, which the strict funnel format must not choke on).
    fake.put({ ...(fake.get("funnel-app-goal") as object), _id: "drafts.funnel-app-goal", pageTitle: "Draft goal" } as never);
    expect((await inPreview(cookieHeader, () => content.getFunnelByRoute("/app-goal")))?.pageTitle).toBe("Draft goal");
    expect((await content.getFunnelByRoute("/app-goal"))?.pageTitle).not.toBe("Draft goal");
    const forged = cookieHeader.replace(/\.[\w-]+$/, ".AAAA");
    expect((await inPreview(forged, landing)).headline).toBe(published);
    // Another Studio's origin in a cookie signed for this one: not a preview at all.
    const [expires, , signature] = cookieHeader.split("=")[1].split(".");
    const otherStudio = `gc_preview=${expires}.${Buffer.from("https://evil.example").toString("base64url")}.${signature}`;
    expect((await inPreview(otherStudio, landing)).headline).toBe(published);

    for (const refused of [await link("guessed-secret-0123456789"), await link(await studioSecret({ hoursAgo: 2 }))]) {
      expect(refused.status).toBe(401);
      expect(refused.headers.get("Set-Cookie")).toBeNull();
      expect(await refused.text()).toBe("That preview link is not valid or has expired. Open the preview again from the Studio.");
    }
    expect((await link(await studioSecret(), "//evil.example")).headers.get("Location")).toBe("/");
  });
});

describe("content follows settings parsed again (reloadEnv, for tests sharing modules)", () => {
  it("with Sanity switched off, pages show the embedded dataset at once, not what Sanity sent", async () => {
    edit("page-landing", (d) => (d.headline = "Only in Sanity"));
    await postWebhook(await signedWebhook({ _id: "page-landing" }));
    expect((await landing()).headline).toBe("Only in Sanity");
    for (const key of SANITY_SETTINGS) delete process.env[key];
    reloadEnv();
    const embedded = readEmbeddedDataset().find((d) => d._id === "page-landing")!;
    expect((await landing()).headline).toBe(embedded.headline);
    expect(preview.previewAvailable()).toBe(false);
  });
});

/**
 * A preview secret as the Studio stores it (@sanity/preview-url-secret's createPreviewSecret,
 * with an editor's client); `hoursAgo` backdates it, as if stored that long ago.
 */
async function studioSecret({ hoursAgo = 0 } = {}): Promise<string> {
  const { createClient } = await import("@sanity/client");
  const { createPreviewSecret } = await import("@sanity/preview-url-secret/create-secret");
  const editor = createClient({
    projectId: fake.projectId,
    dataset: fake.dataset,
    token: fake.token,
    apiHost: fake.url,
    useProjectHostname: false,
    useCdn: false,
    apiVersion: "2025-02-19",
  });
  const { secret } = await createPreviewSecret(editor, "test", STUDIO);
  if (hoursAgo) {
    const stored = fake.all().find((d) => d.secret === secret)!;
    fake.putRaw({ ...stored, _updatedAt: new Date(Date.now() - hoursAgo * 3_600_000).toISOString() });
  }
  return secret;
}
