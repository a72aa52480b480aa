/**
 * The embedded dataset's documents as Sanity stores them, and back. Sanity needs a `_key`
 * on every object in a list and a `_type` where a list mixes kinds of items (funnel steps,
 * inline and shared questions); the files have neither, so a diff of a pulled file shows
 * only what a marketer changed. Keys are derived from the item (a step's id, an option's
 * value), so pushing the same files twice writes the same documents. Pure: no I/O.
 */
import type { Document } from "./embedded-dataset.server";

/** The Studio's names for the funnel step kinds (studio/schemaTypes/objects/funnel-parts.ts). */
export const STEP_TYPE_NAMES: Readonly<Record<string, string>> = {
  intro: "introStep",
  question: "questionStep",
  analysing: "analysingStep",
  insight: "insightStep",
  summary: "summaryStep",
  email: "emailStep",
  result: "resultStep",
};

/** Fields Sanity adds to every document; never part of the files. */
const SYSTEM_FIELDS = new Set(["_rev", "_createdAt", "_updatedAt", "_system", "_originalId"]);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** A key from what the item is (its id, value, field or an experiment variant's key), else its position; unique within the list. */
function keysFor(items: unknown[]): string[] {
  const used = new Set<string>();
  return items.map((item, index) => {
    const record = item as Record<string, unknown>;
    const name = [record.id, record.value, record.field, record.key, record._ref].find((v) => typeof v === "string" && v.trim());
    let key = name ? String(name).replace(/[^A-Za-z0-9_-]+/g, "-") : `item-${index}`;
    if (used.has(key)) key = `${key}-${index}`;
    used.add(key);
    return key;
  });
}

function withKeys(value: unknown, listName: string | null): unknown {
  if (Array.isArray(value)) {
    const objects = value.every(isObject);
    const keys = objects ? keysFor(value) : [];
    return value.map((item, i) => {
      const inner = withKeys(item, null);
      if (!objects) return inner;
      const record = inner as Record<string, unknown>;
      const named = itemTypeName(listName, record);
      return { _key: record._key ?? keys[i], ...(named && !record._type ? { _type: named } : {}), ...record };
    });
  }
  if (isObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) out[key] = withKeys(inner, key);
    // A reference is an object with _ref; Sanity wants it typed.
    if (typeof out._ref === "string" && !out._type) return { _type: "reference", ...out };
    // An uploaded picture (the Studio's contentImage), its crop and its hotspot, typed as the Studio stores them.
    if (isUploadedImage(out)) {
      const typed = (value: unknown, type: string) => (isObject(value) && !value._type ? { _type: type, ...value } : value);
      return {
        ...(out._type ? {} : { _type: "contentImage" }),
        ...out,
        ...(out.crop ? { crop: typed(out.crop, "sanity.imageCrop") } : {}),
        ...(out.hotspot ? { hotspot: typed(out.hotspot, "sanity.imageHotspot") } : {}),
      };
    }
    return out;
  }
  return value;
}

function isUploadedImage(value: Record<string, unknown>): boolean {
  const asset = value.asset;
  return isObject(asset) && typeof asset._ref === "string" && asset._ref.startsWith("image-");
}

/** The list-item type the Studio needs where one list holds several kinds of items. */
function itemTypeName(listName: string | null, item: Record<string, unknown>): string | undefined {
  if (listName === "steps" && typeof item.type === "string") return STEP_TYPE_NAMES[item.type];
  if (listName === "questions") return typeof item._ref === "string" ? "reference" : "funnelQuestion";
  return undefined;
}

/** A document from the files, as it is stored in Sanity. */
export function toSanityDocument(doc: Document): Document {
  const { $schema: _schema, ...rest } = doc as Document & { $schema?: string };
  return withKeys(rest, null) as Document;
}

/**
 * Lists whose items' `_type` is part of the content, by document type: the app's schema
 * tells the items apart by it (an offer's sections: `{"_type": "hero", ...}`), so the files
 * hold it and pull keeps it. Everywhere else inside a document `_type` is the Studio's.
 */
const TYPED_LISTS: Readonly<Record<string, readonly string[]>> = {
  offer: ["sections"],
};

function withoutCmsFields(value: unknown, depth: number, keepType = false): unknown {
  if (Array.isArray(value)) return value.map((item) => withoutCmsFields(item, depth + 1, keepType));
  if (isObject(value)) {
    const typedLists = depth === 0 && typeof value._type === "string" ? (TYPED_LISTS[value._type] ?? []) : [];
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      if (SYSTEM_FIELDS.has(key) || key === "_key") continue;
      // Inside a document _type is only the Studio's bookkeeping (a reference is known by its
      // _ref), except on the items of a typed list.
      if (key === "_type" && depth > 0 && !keepType) continue;
      out[key] =
        Array.isArray(inner) && typedLists.includes(key) ? inner.map((item) => withoutCmsFields(item, depth + 2, true)) : withoutCmsFields(inner, depth + 1);
    }
    return out;
  }
  return value;
}

/** A document from Sanity, as the files hold it. */
export function fromSanityDocument(doc: Record<string, unknown>): Document {
  return withoutCmsFields(doc, 0) as Document;
}

/** The document as pushed, for comparing with what Sanity holds (system fields left out). */
export function comparable(doc: Record<string, unknown>): Json {
  const strip = (value: unknown): Json => {
    if (Array.isArray(value)) return value.map(strip);
    if (isObject(value)) {
      const out: Record<string, Json> = {};
      for (const key of Object.keys(value).sort()) if (!SYSTEM_FIELDS.has(key) && value[key] !== undefined) out[key] = strip(value[key]);
      return out;
    }
    return value as Json;
  };
  return strip(doc);
}

export function sameDocument(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  return JSON.stringify(comparable(a)) === JSON.stringify(comparable(b));
}

/**
 * `value` with its object keys in the order `template` has them (new keys last), so a
 * pulled document keeps the field order of the file it came from.
 */
export function orderLike(value: unknown, template: unknown): unknown {
  if (Array.isArray(value)) return value.map((item, i) => orderLike(item, Array.isArray(template) ? template[i] : undefined));
  if (!isObject(value)) return value;
  const order = isObject(template) ? Object.keys(template) : [];
  const keys = [...order.filter((k) => k in value), ...Object.keys(value).filter((k) => !order.includes(k))];
  return Object.fromEntries(keys.map((k) => [k, orderLike(value[k], isObject(template) ? template[k] : undefined)]));
}
