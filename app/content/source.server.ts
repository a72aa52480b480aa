/**
 * Where content comes from. With SANITY_PROJECT_ID set: Sanity, through @sanity/client
 * (the token never leaves the server). Otherwise: the embedded dataset in content/*.ndjson
 * and funnels/*.json, queried with groq-js. Both answer the same GROQ.
 */
import { createClient, type SanityClient } from "@sanity/client";
import { evaluate, parse } from "groq-js";
import { env } from "~/utils/env.server";
import { readEmbeddedDataset, type Document } from "./embedded-dataset.server";

export type ContentSource = {
  name: "embedded" | "sanity";
  fetch(query: string, params: Record<string, unknown>): Promise<unknown>;
};

export function embeddedSource(load: () => Document[]): ContentSource {
  return {
    name: "embedded",
    async fetch(query, params) {
      const tree = parse(query, { params });
      const value = await evaluate(tree, { dataset: load(), params });
      return value.get();
    },
  };
}

export function sanitySource(client: SanityClient): ContentSource {
  return { name: "sanity", fetch: (query, params) => client.fetch(query, params) };
}

function sanityClient(drafts: boolean): SanityClient {
  const { projectId, dataset, apiVersion, token, apiHost, useCdn } = env.sanity!;
  return createClient({
    projectId,
    dataset,
    apiVersion,
    token,
    // Published content from the CDN; drafts only from the API, with the token.
    perspective: drafts ? "drafts" : "published",
    // The CDN serves published content only; a token means we may read more, so go direct.
    useCdn: !drafts && useCdn && !token,
    ...(apiHost ? { apiHost, useProjectHostname: false } : {}),
  });
}

// The dataset is read once, except under the dev server, where each query sees file edits.
let embeddedDocuments: Document[] | undefined;
export const embeddedContent: ContentSource = embeddedSource(() =>
  env.nodeEnv === "development" ? readEmbeddedDataset() : (embeddedDocuments ??= readEmbeddedDataset()),
);

/** Published content: Sanity when configured, else the embedded dataset. */
export const contentSource: ContentSource = env.sanity ? sanitySource(sanityClient(false)) : embeddedContent;

/**
 * The client that reads drafts and the Studio's preview secrets (with the server-only token);
 * null when drafts cannot be read (no Sanity, no token).
 */
export const previewClient: SanityClient | null = env.sanity?.token ? sanityClient(true) : null;

/** Drafts over published content, for preview. */
export const draftSource: ContentSource | null = previewClient ? sanitySource(previewClient) : null;
