/**
 * Pictures in content: a file of the app's or an image uploaded in the Studio (asset, crop,
 * hotspot), parsed into one shape pages render (ContentImage), with Sanity's image CDN
 * addresses (widths, auto format, quality, the crop) once content comes from Sanity, and the
 * Studio refusing what the app refuses.
 */
import { describe, expect, it } from "vitest";
import { imageOnCdn, withImageUrls } from "~/content/image-urls.server";
import { ContentImage, cropRect, Product } from "~/content-model/content-types";
import { toSanityDocument } from "~/content/sanity-format";
import { validateWithStudio } from "../../studio/validate";
import { embeddedDataset } from "./helpers";

const CDN = { baseUrl: "https://cdn.sanity.io", projectId: "glow", dataset: "production" };
const uploaded = (extra: Record<string, unknown> = {}) => ({
  _type: "contentImage",
  asset: { _type: "reference", _ref: "image-Tb9Ew8CXIwaY6R1kjMvI0uRR-2000x1500-jpg" },
  alt: "A jar of moisturiser",
  ...extra,
});

describe("ContentImage", () => {
  it("a file of the app's is shown as it is", () => {
    expect(ContentImage.parse({ src: "/images/routine/cleanse.svg", width: 640, height: 400, alt: "A cleanser" })).toEqual({
      src: "/images/routine/cleanse.svg",
      srcSet: null,
      width: 640,
      height: 400,
      alt: "A cleanser",
      position: null,
      asset: null,
    });
  });

  it("an uploaded image is as large as the editor's crop leaves it, with the hotspot kept in view", () => {
    const image = ContentImage.parse(
      uploaded({ crop: { top: 0.1, bottom: 0.1, left: 0.25, right: 0.25 }, hotspot: { x: 0.5, y: 0.2, width: 0.2, height: 0.2 } }),
    );
    expect(image).toMatchObject({ width: 1000, height: 1200, alt: "A jar of moisturiser", position: "50% 12.5%", srcSet: null });
    // Without Sanity (the embedded dataset): the cropped copy content:pull writes (500 px off each
    // side, 150 off the top and bottom), the size the page gives it.
    expect(image.src).toBe("/images/cms/Tb9Ew8CXIwaY6R1kjMvI0uRR-crop-500-150-1000x1200.jpg");
    // Uncropped: the upload as it is.
    expect(ContentImage.parse(uploaded()).src).toBe("/images/cms/Tb9Ew8CXIwaY6R1kjMvI0uRR-2000x1500.jpg");
    expect(ContentImage.parse(uploaded({ crop: { top: 0, bottom: 0, left: 0, right: 0 } })).src).toBe("/images/cms/Tb9Ew8CXIwaY6R1kjMvI0uRR-2000x1500.jpg");
  });

  it("the offline copy is cut to the rectangle Sanity's CDN is asked for, and is as large as the page says", () => {
    const crops = [
      { top: 0.1, bottom: 0.1, left: 0.25, right: 0.25 },
      { top: 0.0333, bottom: 0.1777, left: 0.1234, right: 0.0005 },
      { top: 0, bottom: 0.5, left: 0, right: 0.5 },
      { top: 0.4999, bottom: 0.0001, left: 0.3333, right: 0.3333 },
    ];
    for (const crop of crops) {
      const image = ContentImage.parse(uploaded({ crop }));
      const rect = new URL(imageOnCdn(image, CDN).src).searchParams.get("rect")!.split(",").map(Number);
      expect(cropRect(2000, 1500, crop)).toEqual({ left: rect[0], top: rect[1], width: rect[2], height: rect[3] });
      expect([image.width, image.height]).toEqual([rect[2], rect[3]]);
      expect(image.src).toBe(`/images/cms/Tb9Ew8CXIwaY6R1kjMvI0uRR-crop-${rect[0]}-${rect[1]}-${rect[2]}x${rect[3]}.jpg`);
    }
  });

  it("an uploaded SVG is shown whole (the CDN serves vector images as they are), whatever its crop", () => {
    const svg = ContentImage.parse(uploaded({ asset: { _ref: "image-abc123-120x40-svg" }, crop: { top: 0, bottom: 0, left: 0, right: 0.5 } }));
    expect(svg).toMatchObject({ src: "/images/cms/abc123-120x40.svg", width: 120, height: 40 });
    expect(imageOnCdn(svg, CDN)).toMatchObject({ width: 120, height: 40 });
  });

  it("refuses a picture without a description, an upload that is not an image, and an empty picture", () => {
    const problems = (value: unknown) => {
      const result = ContentImage.safeParse(value);
      return result.success ? [] : result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    };
    expect(problems(uploaded({ alt: undefined }))).toEqual(["alt: describe the picture for people who cannot see it"]);
    expect(problems(uploaded({ alt: "  " }))).toEqual(["alt: describe the picture for people who cannot see it"]);
    expect(problems(uploaded({ asset: { _ref: "file-abc-mp4" } }))).toEqual(["asset._ref: must be an uploaded image"]);
    expect(problems({ alt: "Nothing yet" })).toEqual(["asset: upload a picture"]);
    expect(problems({ src: "https://elsewhere.example/x.png", width: 10, height: 10, alt: "x" })).toEqual(["src: must be a file under /images/"]);
  });
});

describe("image addresses on Sanity's CDN", () => {
  it("widths up to the image's own, auto format, quality 80, and the crop as a rectangle", () => {
    const image = imageOnCdn(ContentImage.parse(uploaded({ crop: { top: 0, bottom: 0.5, left: 0, right: 0.5 } })), CDN);
    const base = "https://cdn.sanity.io/images/glow/production/Tb9Ew8CXIwaY6R1kjMvI0uRR-2000x1500.jpg";
    expect(image.width).toBe(1000);
    expect(image.src).toBe(`${base}?rect=0,0,1000,750&w=960&q=80&auto=format`);
    expect(image.srcSet?.split(", ")).toEqual([320, 480, 640, 960, 1000].map((w) => `${base}?rect=0,0,1000,750&w=${w}&q=80&auto=format ${w}w`));
  });

  it("an SVG is served as it is; a file of the app's is left alone", () => {
    const svg = imageOnCdn(ContentImage.parse(uploaded({ asset: { _ref: "image-abc123-120x40-svg" } })), CDN);
    expect(svg).toMatchObject({ src: "https://cdn.sanity.io/images/glow/production/abc123-120x40.svg", srcSet: null, width: 120, height: 40 });
    const file = ContentImage.parse({ src: "/images/brands/luma.svg", width: 160, height: 48, alt: "Luma" });
    expect(imageOnCdn(file, CDN)).toBe(file);
  });

  it("fills in every uploaded image in parsed content, and leaves content without one as it was", () => {
    const product = embeddedDataset().find((d) => d._type === "product")!;
    const parsed = Product.parse(product);
    expect(withImageUrls(parsed, CDN)).toBe(parsed);
    const withUpload = Product.parse({ ...product, image: uploaded() });
    const resolved = withImageUrls(withUpload, CDN);
    expect(resolved.image.src).toMatch(
      /^https:\/\/cdn\.sanity\.io\/images\/glow\/production\/Tb9Ew8CXIwaY6R1kjMvI0uRR-2000x1500\.jpg\?w=960&q=80&auto=format$/,
    );
    expect(resolved.image.srcSet).toContain(" 1920w");
    expect(withImageUrls(withUpload, null)).toBe(withUpload);
  });
});

describe("pictures in the Studio", () => {
  it("an uploaded picture passes; without its description the Studio flags the field before publishing", async () => {
    const docs = embeddedDataset().map((d) => toSanityDocument(structuredClone(d)));
    const product = structuredClone(docs.find((d) => d._type === "product")!) as Record<string, unknown>;
    const fetch = async () => [];
    product.image = uploaded({
      crop: { _type: "sanity.imageCrop", top: 0, bottom: 0, left: 0, right: 0 },
      hotspot: { _type: "sanity.imageHotspot", x: 0.5, y: 0.5, width: 1, height: 1 },
    });
    expect((await validateWithStudio(product, fetch)).filter((m) => m.level === "error")).toEqual([]);
    product.image = uploaded({ alt: "" });
    const markers = (await validateWithStudio(product, fetch)).filter((m) => m.level === "error");
    expect(markers.map((m) => `${m.path.join(".")}: ${m.message}`)).toEqual(["image.alt: describe the picture for people who cannot see it"]);
  });
});
