/**
 * content:push and content:pull against a local Sanity API (fake-sanity.ts) with the real
 * @sanity/client: a round trip leaves the files byte for byte as they were, a second push
 * writes nothing, and a marketer's edit comes back as exactly that change. The commands
 * themselves, as processes (their variables, exit codes and output), are tests/server/content-scripts.test.ts.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createClient } from "@sanity/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEmbeddedDataset } from "~/content/embedded-dataset.server";
import { fromSanityDocument } from "~/content/sanity-format";
import { pullContent, pushContent, type ContentClient } from "../../scripts/content-sync";
import { Product, RoutineVideo } from "~/content-model/content-types";
import { videoView } from "~/members/personalise";
import { startFakeSanity, type FakeSanity } from "./fake-sanity";
import { imageOnCdn } from "~/content/image-urls.server";
import { pixelAt, png, readPng } from "./png";

/** A copy of the content files only, so tests can pull into it. */
function copyContent(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "glow-content-"));
  fs.cpSync("content", path.join(root, "content"), { recursive: true });
  fs.cpSync("funnels", path.join(root, "funnels"), { recursive: true });
  return root;
}

function snapshot(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const dir of ["content", "funnels"]) {
    for (const name of fs.readdirSync(path.join(root, dir)).sort()) files[`${dir}/${name}`] = fs.readFileSync(path.join(root, dir, name), "utf8");
  }
  return files;
}

/** Stands in for an uploaded video: content:pull copies bytes, whatever they are. */
const CLIP = Buffer.from("not really a webm, but copied byte for byte");

let fake: FakeSanity;
let client: ContentClient;
const roots: string[] = [];

beforeAll(async () => {
  fake = await startFakeSanity({ files: { "cleanse.webm": { type: "video/webm", body: CLIP } } });
  client = createClient({
    projectId: fake.projectId,
    dataset: fake.dataset,
    apiVersion: "2025-02-19",
    token: fake.token,
    useCdn: false,
    perspective: "published",
    apiHost: fake.url,
    useProjectHostname: false,
  }) as unknown as ContentClient;
});
afterAll(async () => {
  await fake.close();
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
});

/** A Studio editor's client (the upload API), on the fake Sanity server. */
function studioEditor() {
  return createClient({
    projectId: fake.projectId,
    dataset: fake.dataset,
    apiVersion: "2025-02-19",
    token: fake.token,
    useCdn: false,
    apiHost: fake.url,
    useProjectHostname: false,
  });
}
describe("content:push and content:pull", () => {
  it("push writes every document with stable ids and list keys; a second push writes nothing", async () => {
    const first = await pushContent(client, process.cwd());
    const local = readEmbeddedDataset();
    expect(first.written.sort()).toEqual(local.map((d) => d._id).sort());
    expect(first.unchanged).toEqual([]);

    const skin = fake.get("funnel-skin") as Record<string, any>;
    expect(skin.steps[1]).toMatchObject({ _key: "1", _type: "questionStep", id: "1" });
    expect(skin.steps[1].questions[0].options[0]).toMatchObject({ _key: "normal", value: "normal" });
    const makeup = fake.get("funnel-makeup") as Record<string, any>;
    const shared = makeup.steps.flatMap((s: any) => s.questions ?? []).find((q: any) => q._ref);
    expect(shared).toMatchObject({ _type: "reference", _ref: expect.stringMatching(/^question-/) });

    const revisions = fake.all().map((d) => `${d._id}@${d._rev}`);
    const second = await pushContent(client, process.cwd());
    expect(second.written).toEqual([]);
    expect(second.unchanged).toHaveLength(local.length);
    expect(fake.all().map((d) => `${d._id}@${d._rev}`)).toEqual(revisions);
  });

  it("pull of what was pushed gives back the files exactly", async () => {
    const root = copyContent();
    roots.push(root);
    const before = snapshot(root);
    const report = await pullContent(client, root);
    expect(report).toEqual({ changedFiles: [], removedFiles: [], copiedAssets: [] });
    expect(snapshot(root)).toEqual(before);
  });

  it("a marketer's edit, new document and deletion come back as exactly those changes", async () => {
    const root = copyContent();
    roots.push(root);
    const before = snapshot(root);
    // As the Studio would save them: an edited headline, a new insight (with Studio keys), a deleted funnel.
    const landing = fake.get("page-landing")!;
    fake.put({ ...landing, headline: "Calm skin, one step at a time" });
    fake.put({ _id: "insight-new", _type: "insight", title: "New", summary: "S", body: ["B"], highlights: [{ _key: "x1", _type: "span" } as never].slice(1) });
    fake.remove("funnel-app-goal");

    const report = await pullContent(client, root);
    expect(report.changedFiles.sort()).toEqual(["content/insights.ndjson", "content/site.ndjson"]);
    expect(report.removedFiles).toEqual(["funnels/app-goal.json"]);
    const after = snapshot(root);
    expect(after["content/site.ndjson"]).toBe(
      before["content/site.ndjson"].replace("Skin you feel good in, one simple routine at a time", "Calm skin, one step at a time"),
    );
    expect(after["content/insights.ndjson"]).toBe(
      `${before["content/insights.ndjson"]}{"_id": "insight-new", "_type": "insight", "title": "New", "summary": "S", "body": ["B"], "highlights": []}\n`,
    );
    expect(after["funnels/app-goal.json"]).toBeUndefined();

    // Pushing the pulled files back writes only what changed (the deleted funnel stays deleted).
    const push = await pushContent(client, root);
    expect(push.written).toEqual([]);
  });

  it("a picture uploaded in the Studio comes back as its reference, with a copy under public/images/cms/ for the files", async () => {
    await pushContent(client, process.cwd());
    const root = copyContent();
    roots.push(root);
    const editor = studioEditor();
    const picture = png(600, 300);
    const asset = await editor.assets.upload("image", picture, { filename: "sponge.png" });
    const product = fake.get("product-beauty-sponge")!;
    const image = {
      _type: "contentImage",
      asset: { _type: "reference", _ref: asset._id },
      hotspot: { _type: "sanity.imageHotspot", x: 0.3, y: 0.4, width: 0.2, height: 0.2 },
      alt: "A pink sponge",
    };
    fake.put({ ...product, image });

    const report = await pullContent(client, root);
    const file = `public/images/cms/${asset._id.split("-")[1]}-600x300.png`;
    expect(report.changedFiles).toContain("content/products.ndjson");
    expect(report.copiedAssets).toEqual([file]);
    expect(fs.readFileSync(path.join(root, file)).equals(picture)).toBe(true);
    const pulled = readEmbeddedDataset(root).find((d) => d._id === "product-beauty-sponge")!;
    expect(pulled.image).toEqual({ asset: { _ref: asset._id }, hotspot: { x: 0.3, y: 0.4, width: 0.2, height: 0.2 }, alt: "A pink sponge" });
    // The embedded dataset shows it from that copy; a second pull copies nothing again.
    expect(Product.parse(pulled).image.src).toBe(`/${file.slice("public/".length)}`);
    expect((await pullContent(client, root)).copiedAssets).toEqual([]);
    // And it goes back to Sanity as it came.
    expect((await pushContent(client, root)).written).toEqual([]);
    fake.put(product);
  });

  it("a cropped picture's copy is the crop, as Sanity's CDN shows it: the page's size, shape and content without Sanity", async () => {
    await pushContent(client, process.cwd());
    const root = copyContent();
    roots.push(root);
    const editor = studioEditor();
    // Left half pink, right half sand: the crop keeps 240 px of the left half and 240 px of the right.
    const [pink, sand] = [
      [246, 224, 225],
      [232, 199, 176],
    ] as [number, number, number][];
    const asset = await editor.assets.upload("image", png(800, 400, pink, sand), { filename: "jar.png" });
    const product = fake.get("product-beauty-sponge")!;
    const crop = { _type: "sanity.imageCrop", top: 0.1, bottom: 0.25, left: 0.2, right: 0.2 };
    fake.put({ ...product, image: { _type: "contentImage", asset: { _type: "reference", _ref: asset._id }, crop, alt: "A jar" } });

    const report = await pullContent(client, root);
    const image = Product.parse(readEmbeddedDataset(root).find((d) => d._id === "product-beauty-sponge")!).image;
    // The page says 480×260 (the crop of 800×400) and shows the copy content:pull wrote ...
    expect(image).toMatchObject({ width: 480, height: 260 });
    const file = `public${image.src}`;
    expect(report.copiedAssets).toEqual([file]);
    const copy = readPng(fs.readFileSync(path.join(root, file)));
    // ... which is that crop: its size, so its shape, and what is inside it.
    expect([copy.width, copy.height]).toEqual([480, 260]);
    expect(pixelAt(copy, 0, 0)).toEqual(pink);
    expect(pixelAt(copy, 239, 259)).toEqual(pink);
    expect(pixelAt(copy, 240, 0)).toEqual(sand);
    expect(pixelAt(copy, 479, 259)).toEqual(sand);
    // The same rectangle the CDN is asked for when the app reads Sanity.
    const cdn = imageOnCdn(image, { baseUrl: fake.url, projectId: fake.projectId, dataset: fake.dataset });
    expect(cdn.src).toContain("rect=160,40,480,260&");
    expect((await pullContent(client, root)).copiedAssets).toEqual([]);
    fake.put(product);
  });

  it("a video uploaded in the Studio comes back as its reference, with a copy under public/videos/cms/ that the embedded dataset plays", async () => {
    await pushContent(client, process.cwd());
    const root = copyContent();
    roots.push(root);
    // What the Studio's file field stores: an asset document and a reference to it.
    fake.put({ _id: "file-0c1d2e3f-webm", _type: "sanity.fileAsset", url: `${fake.url}/files/cleanse.webm`, mimeType: "video/webm" });
    const tutorial = fake.get("tutorial-step-1")!;
    const poster = { _type: "contentImage", src: "/images/routine/cleanse.svg", width: 640, height: 400, alt: "Cleansing the face" };
    const video = {
      _type: "routineVideo",
      title: "Cleansing in 30 seconds",
      file: { _type: "file", asset: { _type: "reference", _ref: "file-0c1d2e3f-webm" } },
      poster,
    };
    fake.put({ ...tutorial, video });

    const report = await pullContent(client, root);
    expect(report.copiedAssets).toEqual(["public/videos/cms/0c1d2e3f.webm"]);
    expect(fs.readFileSync(path.join(root, "public/videos/cms/0c1d2e3f.webm")).equals(CLIP)).toBe(true);
    const pulled = readEmbeddedDataset(root).find((d) => d._id === "tutorial-step-1")!;
    expect(videoView(RoutineVideo.parse(pulled.video))?.src).toBe("/videos/cms/0c1d2e3f.webm");
    expect((await pullContent(client, root)).copiedAssets).toEqual([]);
    fake.put(tutorial);
  });
});

describe("Sanity's fields in and out of a document", () => {
  it("pull drops the Studio's item types but keeps an offer's section types, which the app reads", () => {
    const fromStudio = {
      _id: "offer-new",
      _type: "offer",
      _rev: "r1",
      plans: [{ _key: "a1", _type: "offerPlan", id: "annual", features: ["x"] }],
      sections: [
        { _key: "s1", _type: "hero", headline: "Hi", cta: { _type: "cta", label: "Go", href: "#plan-annual" } },
        { _key: "s2", _type: "faq", title: "Q", items: [{ _key: "q1", _type: "faqItem", question: "?", answer: "!" }] },
      ],
    };
    expect(fromSanityDocument(fromStudio)).toEqual({
      _id: "offer-new",
      _type: "offer",
      plans: [{ id: "annual", features: ["x"] }],
      sections: [
        { _type: "hero", headline: "Hi", cta: { label: "Go", href: "#plan-annual" } },
        { _type: "faq", title: "Q", items: [{ question: "?", answer: "!" }] },
      ],
    });
    // A legal page's sections are plain objects: their Studio type goes.
    expect(fromSanityDocument({ _id: "page-x", _type: "legalPage", sections: [{ _key: "k", _type: "legalSection", heading: "H" }] })).toEqual({
      _id: "page-x",
      _type: "legalPage",
      sections: [{ heading: "H" }],
    });
  });
});
