/**
 * `npm run content:push` and `npm run content:pull`: the embedded dataset (content/*.ndjson
 * and funnels/*.json) to a Sanity dataset and back. Push is idempotent: documents are
 * written only when they differ from what Sanity holds, with stable ids and list keys, so
 * a second push writes nothing. Pull mirrors the published dataset into the same files,
 * each document in the file, position and field order it had, written in that file's own
 * style, so `git diff` shows exactly what a marketer changed. Pictures uploaded in the Studio
 * are copied into public/images/cms/ as each document crops them (cut by Sanity's CDN, so the
 * copy is what the CDN shows), and videos and captions into public/videos/cms/ (once each: an
 * uploaded asset never changes), so the pulled files show and play them with no Sanity at
 * all (app/content-model/content-types.ts: ContentImage, uploadedImageCopy, uploadedFileCopy).
 */
import fs from "node:fs";
import path from "node:path";
import { readEmbeddedDataset, type Document } from "../app/content/embedded-dataset.server";
import { fromSanityDocument, orderLike, sameDocument, toSanityDocument } from "../app/content/sanity-format";
import { FILE_ASSET_ID, IMAGE_ASSET_ID, uploadedFileCopy, uploadedImageCopy, type ImageCrop } from "../app/content-model/content-types";

/** The part of @sanity/client these scripts use. */
export type ContentClient = {
  fetch<T = unknown>(query: string, params?: Record<string, unknown>): Promise<T>;
  transaction(): { createOrReplace(doc: Document): unknown; commit(options?: { visibility?: "sync" | "async" | "deferred" }): Promise<unknown> };
};

export type PushReport = { written: string[]; unchanged: string[] };
export type PullReport = { changedFiles: string[]; removedFiles: string[]; copiedAssets: string[] };

/** Published documents only: drafts are the Studio's business until someone publishes. */
const PUBLISHED = /* groq */ `*[!(_id in path("drafts.**")) && !(_id in path("_.**"))]`;

/** Sanity's own documents (assets, system groups) are never content files. */
function isContent(doc: { _id: string; _type: string }): boolean {
  return !/^(system|sanity)\./.test(doc._type) && !doc._id.startsWith("_.");
}

export async function pushContent(client: ContentClient, root: string): Promise<PushReport> {
  const local = readEmbeddedDataset(root).map(toSanityDocument);
  const ids = local.map((d) => d._id);
  const remote = await client.fetch<Record<string, unknown>[]>(`*[_id in $ids]`, { ids });
  const byId = new Map(remote.map((d) => [String(d._id), d]));
  const report: PushReport = { written: [], unchanged: [] };
  const tx = client.transaction();
  for (const doc of local) {
    const existing = byId.get(doc._id);
    if (existing && sameDocument(existing, doc)) {
      report.unchanged.push(doc._id);
      continue;
    }
    tx.createOrReplace(doc);
    report.written.push(doc._id);
  }
  if (report.written.length) await tx.commit({ visibility: "sync" });
  return report;
}

// ---------------------------------------------------------------------------
// Files

type NdjsonFile = { kind: "ndjson"; file: string; spaced: boolean; docs: Document[] };
type FunnelFile = { kind: "funnel"; file: string; schema?: string; doc: Document };

function readFiles(root: string): { ndjson: NdjsonFile[]; funnels: FunnelFile[] } {
  const contentDir = path.join(root, "content");
  const ndjson = fs
    .readdirSync(contentDir)
    .filter((n) => n.endsWith(".ndjson"))
    .sort()
    .map((name): NdjsonFile => {
      const text = fs.readFileSync(path.join(contentDir, name), "utf8");
      const lines = text.split("\n").filter((l) => l.trim());
      // `{"_id": "x", ...}` (spaced) or `{"_id":"x",...}` (compact): each file keeps its style.
      return { kind: "ndjson", file: `content/${name}`, spaced: lines.length === 0 || /^\{"[^"]*": /.test(lines[0]), docs: lines.map((l) => JSON.parse(l)) };
    });
  const funnelDir = path.join(root, "funnels");
  const funnels = fs
    .readdirSync(funnelDir)
    .filter((n) => n.endsWith(".json") && !n.endsWith(".schema.json"))
    .sort()
    .map((name): FunnelFile => {
      const raw = JSON.parse(fs.readFileSync(path.join(funnelDir, name), "utf8"));
      const { $schema, ...rest } = raw;
      return { kind: "funnel", file: `funnels/${name}`, schema: $schema, doc: { ...rest, _id: `funnel-${String(raw.id)}`, _type: "funnel" } };
    });
  return { ndjson, funnels };
}

/** JSON with a space after each `:` and `,`, as the hand-written NDJSON files have it. */
function spacedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(spacedJson).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${JSON.stringify(k)}: ${spacedJson(v)}`)
      .join(", ")}}`;
  }
  return JSON.stringify(value);
}

function writeIfChanged(root: string, file: string, text: string, changed: string[]) {
  const full = path.join(root, file);
  const before = fs.existsSync(full) ? fs.readFileSync(full, "utf8") : null;
  if (before === text) return;
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, text);
  changed.push(file);
}

/** A funnel document as its file holds it: no _id/_type (the file name and folder say it). */
function funnelFileText(doc: Document, template: Document | undefined, schema: string | undefined): string {
  const { _id, _type, ...funnel } = doc;
  const { _id: _tid, _type: _ttype, ...templateFunnel } = template ?? ({} as Document);
  const ordered = orderLike(funnel, template ? templateFunnel : undefined) as Record<string, unknown>;
  return `${JSON.stringify({ ...(schema ? { $schema: schema } : {}), ...ordered }, null, 2)}\n`;
}

export async function pullContent(client: ContentClient, root: string): Promise<PullReport> {
  const remote = (await client.fetch<Record<string, unknown>[]>(PUBLISHED)).filter((d) => isContent(d as Document)).map(fromSanityDocument);
  remote.sort((a, b) => a._id.localeCompare(b._id));
  const { ndjson, funnels } = readFiles(root);
  const report: PullReport = { changedFiles: [], removedFiles: [], copiedAssets: [] };

  // Funnels: one file each; a new funnel gets funnels/<id>.json.
  const remoteFunnels = new Map(remote.filter((d) => d._type === "funnel").map((d) => [d._id, d]));
  for (const file of funnels) {
    const doc = remoteFunnels.get(file.doc._id);
    if (!doc) {
      fs.rmSync(path.join(root, file.file));
      report.removedFiles.push(file.file);
      continue;
    }
    remoteFunnels.delete(file.doc._id);
    writeIfChanged(root, file.file, funnelFileText(doc, file.doc, file.schema), report.changedFiles);
  }
  for (const doc of remoteFunnels.values()) {
    const name = String(doc.id ?? doc._id.replace(/^funnel-/, "")).replace(/[^a-z0-9-]/g, "-");
    writeIfChanged(root, `funnels/${name}.json`, funnelFileText(doc, undefined, "./funnel.schema.json"), report.changedFiles);
  }

  // Everything else: the file each document was in, in its place; new documents go to the
  // file that holds their type (or content/<type>.ndjson), after the ones already there.
  const others = remote.filter((d) => d._type !== "funnel");
  const remoteById = new Map(others.map((d) => [d._id, d]));
  const fileOfType = new Map<string, NdjsonFile>();
  const placed = new Set<string>();
  const outputs = new Map<NdjsonFile, Document[]>();
  for (const file of ndjson) {
    const docs: Document[] = [];
    for (const local of file.docs) {
      if (!fileOfType.has(local._type)) fileOfType.set(local._type, file);
      const doc = remoteById.get(local._id);
      if (!doc) continue;
      docs.push(orderLike(doc, local) as Document);
      placed.add(doc._id);
    }
    outputs.set(file, docs);
  }
  for (const doc of others) {
    if (placed.has(doc._id)) continue;
    let file = fileOfType.get(doc._type);
    if (!file) {
      file = { kind: "ndjson", file: `content/${doc._type}.ndjson`, spaced: true, docs: [] };
      fileOfType.set(doc._type, file);
      outputs.set(file, []);
    }
    outputs.get(file)!.push(orderLike(doc, { _id: "", _type: "" }) as Document);
  }
  for (const [file, docs] of outputs) {
    const text = docs.map((d) => (file.spaced ? spacedJson(d) : JSON.stringify(d))).join("\n");
    writeIfChanged(root, file.file, text ? `${text}\n` : "", report.changedFiles);
  }
  report.copiedAssets = await copyUploadedAssets(client, remote, root);
  return report;
}

/** An uploaded image or file a document uses, with the crop it is shown with (images). */
type AssetUse = { id: string; crop: ImageCrop | null };

/** The uploaded images and files a value uses (`{asset: {_ref: "image-…" | "file-…"}, crop?}` anywhere in it). */
function assetUses(value: unknown): AssetUse[] {
  if (Array.isArray(value)) return value.flatMap(assetUses);
  if (value === null || typeof value !== "object") return [];
  const record = value as Record<string, unknown>;
  const ref = (record.asset as { _ref?: unknown } | undefined)?._ref;
  const crop = record.crop && typeof record.crop === "object" ? (record.crop as ImageCrop) : null;
  const own =
    typeof ref === "string" && (IMAGE_ASSET_ID.test(ref) || FILE_ASSET_ID.test(ref)) ? [{ id: ref, crop: IMAGE_ASSET_ID.test(ref) ? crop : null }] : [];
  return [...own, ...Object.values(record).flatMap(assetUses)];
}

/**
 * Where the embedded dataset's pages find an uploaded asset's copy (under public/) and the
 * CDN parameters that make it (an image's crop), or null for an id of another shape.
 */
function copyOf(use: AssetUse): { file: string; query: string } | null {
  const image = uploadedImageCopy(use.id, use.crop);
  if (image)
    return { file: `public${image.path}`, query: image.rect ? `rect=${image.rect.left},${image.rect.top},${image.rect.width},${image.rect.height}` : "" };
  const file = uploadedFileCopy({ asset: { _ref: use.id } });
  return file ? { file: `public${file}`, query: "" } : null;
}

/** Copies the uploaded images (as cropped) and files the documents use under public/, where the embedded dataset's pages find them. */
async function copyUploadedAssets(client: ContentClient, docs: Document[], root: string): Promise<string[]> {
  const uses = docs.flatMap(assetUses);
  const ids = [...new Set(uses.map((u) => u.id))];
  if (!ids.length) return [];
  const assets = await client.fetch<{ _id: string; url?: string }[]>(`*[_type in ["sanity.imageAsset", "sanity.fileAsset"] && _id in $ids]{_id, url}`, { ids });
  const urls = new Map(assets.map((a) => [a._id, a.url]));
  const copied: string[] = [];
  for (const use of uses) {
    const copy = copyOf(use);
    const url = urls.get(use.id);
    if (!copy || !url || fs.existsSync(path.join(root, copy.file))) continue;
    // The crop is cut by Sanity's image CDN, as it is for the pages it serves.
    const source = copy.query ? `${url}${url.includes("?") ? "&" : "?"}${copy.query}` : url;
    const response = await fetch(source);
    if (!response.ok) throw new Error(`could not download the upload ${use.id} (${source}): HTTP ${response.status}`);
    fs.mkdirSync(path.dirname(path.join(root, copy.file)), { recursive: true });
    fs.writeFileSync(path.join(root, copy.file), Buffer.from(await response.arrayBuffer()));
    copied.push(copy.file);
  }
  return copied;
}
