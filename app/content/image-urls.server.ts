/**
 * Addresses of images uploaded in the Studio, on Sanity's image CDN. Content is parsed once
 * (app/content/content.server.ts); each uploaded image in it then gets a `src` and a `srcSet`
 * of widths up to its own, in the browser's best format (`auto=format`) at quality 80, with
 * the editor's crop applied by the CDN. Pages only render what is here (ContentImage), so
 * no image code reaches the browser. Without Sanity, uploaded images keep their copy under
 * /images/cms/, cut to the same crop (content:pull writes it: uploadedImageCopy in app/content-model/content-types.ts).
 */
import { createImageUrlBuilder } from "@sanity/image-url";
import type { ContentImage } from "../content-model/content-types";

/** Where the CDN lives and whose images it serves. */
export type ImageCdn = { baseUrl: string; projectId: string; dataset: string };

/** Widths offered in a srcset (device pixels); an image is never offered wider than it is. */
const WIDTHS = [320, 480, 640, 960, 1280, 1920];
/** The width of the plain `src`, for browsers that ignore srcset. */
const DEFAULT_WIDTH = 960;
const QUALITY = 80;

function isUploadedImage(value: Record<string, unknown>): value is ContentImage & { asset: NonNullable<ContentImage["asset"]> } {
  const asset = value.asset as ContentImage["asset"] | undefined;
  return typeof value.src === "string" && typeof value.alt === "string" && !!asset && typeof asset.id === "string" && "crop" in asset;
}

/** The CDN addresses of one uploaded image (a copy: parsed content is never changed in place). */
export function imageOnCdn(image: ContentImage, cdn: ImageCdn): ContentImage {
  if (!image.asset) return image;
  const { id, crop } = image.asset;
  // Vector images are served as they are: no widths, no format change.
  if (id.endsWith("-svg")) {
    const url = createImageUrlBuilder(cdn).image({ asset: { _ref: id } }).url();
    return { ...image, src: url, srcSet: null };
  }
  const source = { asset: { _ref: id }, ...(crop ? { crop } : {}) };
  const at = (width: number) => createImageUrlBuilder(cdn).image(source).width(width).auto("format").quality(QUALITY).url();
  const widths = [...WIDTHS.filter((w) => w < image.width), Math.min(image.width, WIDTHS.at(-1)!)];
  return {
    ...image,
    src: at(Math.min(image.width, DEFAULT_WIDTH)),
    srcSet: [...new Set(widths)].map((w) => `${at(w)} ${w}w`).join(", "),
  };
}

/** `value` with every uploaded image in it given its CDN addresses; other values are kept as they are. */
export function withImageUrls<T>(value: T, cdn: ImageCdn | null): T {
  if (!cdn) return value;
  // Objects without an uploaded image inside are kept as they are (same object).
  const visit = (node: unknown): unknown => {
    if (node === null || typeof node !== "object") return node;
    if (Array.isArray(node)) {
      const items = node.map(visit);
      return items.some((item, i) => item !== node[i]) ? items : node;
    }
    const record = node as Record<string, unknown>;
    if (isUploadedImage(record)) return imageOnCdn(record, cdn);
    const entries = Object.entries(record).map(([key, inner]) => [key, visit(inner)] as const);
    return entries.some(([key, inner]) => inner !== record[key]) ? Object.fromEntries(entries) : record;
  };
  return visit(value) as T;
}
