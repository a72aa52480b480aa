/**
 * Where content comes from. With SANITY_PROJECT_ID set: Sanity, through @sanity/client
 * (the token never leaves the server). Otherwise: the embedded dataset in content/*.ndjson
 * and funnels/*.json, queried with groq-js. Both answer the same GROQ.
 */
import { createClient, type SanityClient } from "@sanity/client";
import { evaluate, parse } from "groq-js";
import { env } from "~/utils/env.server";
import { readEmbeddedDataset, type Document } from "./embedded-dataset";

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

function createSource(): ContentSource {
  if (env.sanity) {
    const { projectId, dataset, apiVersion, token, apiHost, useCdn } = env.sanity;
    return sanitySource(
      createClient({
        projectId,
        dataset,
        apiVersion,
        token,
        // The CDN serves published content only; a token means we may read more, so go direct.
        useCdn: useCdn && !token,
        ...(apiHost ? { apiHost, useProjectHostname: false } : {}),
      }),
    );
  }
  // In production the dataset is read once; in development each query sees file edits.
  let cached: Document[] | undefined;
  return embeddedSource(() => (env.nodeEnv === "production" ? (cached ??= readEmbeddedDataset()) : readEmbeddedDataset()));
}

export const contentSource: ContentSource = createSource();
