/**
 * A local server speaking the part of the Sanity HTTP API the app and the content scripts
 * use, answering GROQ with groq-js over an in-memory dataset: queries (GET and POST, with
 * perspectives published / drafts / raw) and mutations. The real @sanity/client talks to it
 * with `apiHost: fake.url, useProjectHostname: false`. It also stands in for the asset CDN:
 * files given in `files` are served at `/files/<name>` (with CORS, as cdn.sanity.io does);
 * images uploaded through the assets API (`POST /v<version>/assets/images/<dataset>`, PNG
 * only: its size is read from the header) become `sanity.imageAsset` documents and are
 * served at `/images/<project>/<dataset>/<id>-<w>x<h>.png`, cut to `rect=left,top,width,height`
 * when asked, as the CDN does (other CDN parameters are recorded, not applied: no resizing, no
 * format change).
 */
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { evaluate, parse } from "groq-js";
import { cropPng } from "./png";

export type FakeDocument = { _id: string; _type: string; [key: string]: unknown };

export type FakeSanity = {
  url: string;
  projectId: string;
  dataset: string;
  token: string;
  /** Every request: method, path (without query string), perspective, and the query text. */
  requests: { method: string; path: string; perspective: string; query?: string }[];
  get(id: string): FakeDocument | undefined;
  all(): FakeDocument[];
  put(doc: FakeDocument): void;
  /** Stores a document as it is, system fields included (e.g. an _updatedAt in the past). */
  putRaw(doc: FakeDocument): void;
  remove(id: string): void;
  close(): Promise<void>;
};

type Mutation = Record<string, { _id?: string; id?: string; query?: string; set?: Record<string, unknown> } & Record<string, unknown>>;

/** Width and height from a PNG's IHDR chunk, or null for anything else. */
function pngSize(body: Buffer): { width: number; height: number } | null {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (body.length < 24 || !body.subarray(0, 8).equals(signature) || body.toString("latin1", 12, 16) !== "IHDR") return null;
  return { width: body.readUInt32BE(16), height: body.readUInt32BE(20) };
}

function view(docs: FakeDocument[], perspective: string): FakeDocument[] {
  if (perspective === "raw") return docs;
  const published = docs.filter((d) => !d._id.startsWith("drafts."));
  if (perspective !== "drafts" && perspective !== "previewDrafts") return published;
  // Drafts take the place of their published document, under the published id.
  const byId = new Map(published.map((d) => [d._id, d]));
  for (const draft of docs.filter((d) => d._id.startsWith("drafts."))) {
    const id = draft._id.slice("drafts.".length);
    byId.set(id, { ...draft, _id: id, _originalId: draft._id });
  }
  return [...byId.values()];
}

export async function startFakeSanity(
  options: {
    documents?: FakeDocument[];
    port?: number;
    projectId?: string;
    dataset?: string;
    token?: string;
    files?: Record<string, { type: string; body: Buffer }>;
  } = {},
): Promise<FakeSanity> {
  const projectId = options.projectId ?? "fakeproject";
  const dataset = options.dataset ?? "production";
  const token = options.token ?? "fake-token";
  const docs = new Map<string, FakeDocument>();
  let revision = 0;
  const stamp = (doc: FakeDocument): FakeDocument => {
    const now = new Date().toISOString();
    const createdAt = (docs.get(doc._id)?._createdAt as string | undefined) ?? now;
    const { _rev, _createdAt, _updatedAt, ...rest } = doc;
    return { ...rest, _rev: `rev${++revision}`, _createdAt: createdAt, _updatedAt: now } as FakeDocument;
  };
  for (const doc of options.documents ?? []) docs.set(doc._id, stamp(doc));
  const requests: FakeSanity["requests"] = [];
  /** Uploaded images by file name (<sha1>-<w>x<h>.png). */
  const images = new Map<string, Buffer>();
  let fakeUrl = "";

  const server = http.createServer(async (req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(body));
    };
    try {
      const url = new URL(req.url ?? "/", "http://localhost");
      const file = url.pathname.startsWith("/files/") ? options.files?.[url.pathname.slice("/files/".length)] : undefined;
      if (file && (req.method === "GET" || req.method === "HEAD")) {
        res.writeHead(200, {
          "Content-Type": file.type,
          "Content-Length": String(file.body.length),
          "Access-Control-Allow-Origin": "*",
          "Accept-Ranges": "none",
        });
        res.end(req.method === "HEAD" ? undefined : file.body);
        return;
      }
      const image = /^\/images\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(url.pathname);
      if (image && (req.method === "GET" || req.method === "HEAD")) {
        requests.push({ method: req.method, path: `${url.pathname}${url.search}`, perspective: "" });
        const original = image[1] === projectId && image[2] === dataset ? images.get(image[3]) : undefined;
        if (!original) return send(404, { error: "Not found" });
        const rect = url.searchParams.get("rect")?.split(",").map(Number);
        const stored = rect ? cropPng(original, { left: rect[0], top: rect[1], width: rect[2], height: rect[3] }) : original;
        res.writeHead(200, { "Content-Type": "image/png", "Content-Length": String(stored.length), "Access-Control-Allow-Origin": "*" });
        res.end(req.method === "HEAD" ? undefined : stored);
        return;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const raw = Buffer.concat(chunks);
      const authorized = req.headers.authorization === `Bearer ${token}`;
      const upload = /^\/v[\d-]+\/assets\/images\/([^/]+)$/.exec(url.pathname);
      if (upload && req.method === "POST") {
        requests.push({ method: "POST", path: url.pathname, perspective: "" });
        if (!authorized) return send(401, { error: "Unauthorized" });
        if (upload[1] !== dataset) return send(404, { error: `Dataset "${upload[1]}" not found` });
        const size = pngSize(raw);
        if (!size) return send(400, { error: "Invalid image: only PNG files are accepted here" });
        const sha1 = crypto.createHash("sha1").update(raw).digest("hex");
        const file = `${sha1}-${size.width}x${size.height}.png`;
        images.set(file, raw);
        const asset: FakeDocument = {
          _id: `image-${sha1}-${size.width}x${size.height}-png`,
          _type: "sanity.imageAsset",
          assetId: sha1,
          extension: "png",
          mimeType: "image/png",
          originalFilename: url.searchParams.get("filename") ?? file,
          size: raw.length,
          url: `${fakeUrl}/images/${projectId}/${dataset}/${file}`,
          path: `images/${projectId}/${dataset}/${file}`,
          metadata: { _type: "sanity.imageMetadata", dimensions: { _type: "sanity.imageDimensions", ...size, aspectRatio: size.width / size.height } },
        };
        docs.set(asset._id, stamp(asset));
        return send(200, { document: docs.get(asset._id) });
      }
      const body = raw.length ? JSON.parse(raw.toString("utf8")) : undefined;
      const match = /^\/v[\d-]+\/data\/(query|mutate|doc)\/([^/]+)(?:\/(.*))?$/.exec(url.pathname);
      const perspective = url.searchParams.get("perspective") ?? "published";
      requests.push({ method: req.method ?? "GET", path: url.pathname, perspective, query: body?.query ?? url.searchParams.get("query") ?? undefined });
      // Like Sanity: a token that is sent must be valid, whatever the request.
      if (req.headers.authorization && !authorized) return send(401, { error: "Unauthorized", message: "Session not found" });
      if (!match) return send(404, { error: "Not found" });
      if (match[2] !== dataset) return send(404, { error: `Dataset "${match[2]}" not found` });

      if (match[1] === "query") {
        if (perspective !== "published" && !authorized) return send(401, { error: "Unauthorized", message: "Drafts need a token" });
        const query = body?.query ?? url.searchParams.get("query");
        const params: Record<string, unknown> = { ...(body?.params ?? {}) };
        for (const [key, value] of url.searchParams) if (key.startsWith("$")) params[key.slice(1)] = JSON.parse(value);
        const tree = parse(query, { params });
        const result = await (await evaluate(tree, { dataset: view([...docs.values()], perspective), params })).get();
        return send(200, { query, result, ms: 1 });
      }
      if (match[1] === "mutate") {
        if (!authorized) return send(401, { error: "Unauthorized" });
        const results: { id: string; operation: string }[] = [];
        for (const mutation of (body?.mutations ?? []) as Mutation[]) {
          const [operation, arg] = Object.entries(mutation)[0];
          if (operation === "createOrReplace" || operation === "create" || operation === "createIfNotExists") {
            const doc = arg as unknown as FakeDocument;
            if (operation === "create" && docs.has(doc._id)) return send(409, { error: `Document "${doc._id}" already exists` });
            if (operation === "createIfNotExists" && docs.has(doc._id)) continue;
            docs.set(doc._id, stamp(doc));
            results.push({ id: doc._id, operation: "create" });
          } else if (operation === "delete" && arg.query) {
            const matched = await (await evaluate(parse(arg.query, { params: {} }), { dataset: [...docs.values()] })).get();
            for (const doc of (matched ?? []) as FakeDocument[]) {
              docs.delete(doc._id);
              results.push({ id: doc._id, operation: "delete" });
            }
          } else if (operation === "delete") {
            docs.delete(String(arg.id));
            results.push({ id: String(arg.id), operation: "delete" });
          } else if (operation === "patch" && arg.set) {
            const existing = docs.get(String(arg.id));
            if (!existing) return send(404, { error: `Document "${arg.id}" not found` });
            docs.set(existing._id, stamp({ ...existing, ...arg.set }));
            results.push({ id: existing._id, operation: "update" });
          } else {
            return send(400, { error: `Unsupported mutation ${operation}` });
          }
        }
        return send(200, { transactionId: `tx${revision}`, results });
      }
      return send(404, { error: "Not found" });
    } catch (error) {
      send(400, { error: (error as Error).message });
    }
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  fakeUrl = `http://127.0.0.1:${port}`;
  return {
    url: fakeUrl,
    projectId,
    dataset,
    token,
    requests,
    get: (id) => docs.get(id),
    all: () => [...docs.values()],
    put: (doc) => docs.set(doc._id, stamp(doc)),
    putRaw: (doc) => docs.set(doc._id, doc),
    remove: (id) => void docs.delete(id),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
