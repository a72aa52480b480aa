/**
 * Where content comes from. With SANITY_PROJECT_ID set: Sanity, through @sanity/client
 * (the token never leaves the server). Otherwise: the embedded dataset in content/*.ndjson
 * and funnels/*.json, queried with groq-js. Both answer the same GROQ.
 */
import { createClient, type SanityClient } from "@sanity/client";
import { evaluate, parse } from "groq-js";
import { env, type Env } from "~/utils/env.server";
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

function sanityClient(sanity: NonNullable<Env["sanity"]>, drafts: boolean): SanityClient {
  const { projectId, dataset, apiVersion, token, apiHost, useCdn } = sanity;
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

/** Where content comes from under the settings in force. */
export type ContentSources = {
  /** Published content: Sanity when configured, else the embedded dataset. */
  published: ContentSource;
  /**
   * The client that reads drafts and the Studio's preview secrets (with the server-only token);
   * null when drafts cannot be read (no Sanity, no token).
   */
  previewClient: SanityClient | null;
  /** Drafts over published content, for preview. */
  drafts: ContentSource | null;
};

function sourcesFor(sanity: Env["sanity"]): ContentSources {
  const previewClient = sanity?.token ? sanityClient(sanity, true) : null;
  return {
    published: sanity ? sanitySource(sanityClient(sanity, false)) : embeddedContent,
    previewClient,
    drafts: previewClient ? sanitySource(previewClient) : null,
  };
}

/**
 * The sources, built once per configuration. A server's never changes (reloadEnv refuses in
 * production), so it builds them once; a unit test that switches Sanity on with reloadEnv()
 * (docs/decisions/0046) gets clients for the settings it made.
 */
let current: { sanity: Env["sanity"]; sources: ContentSources } | undefined;
export function contentSources(): ContentSources {
  if (!current || current.sanity !== env.sanity) current = { sanity: env.sanity, sources: sourcesFor(env.sanity) };
  return current.sources;
}
