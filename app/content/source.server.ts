/**
 * Where content comes from. With SANITY_PROJECT_ID set: Sanity, through @sanity/client
 * (the token never leaves the server). Otherwise: the embedded dataset in content/*.ndjson
 * and funnels/*.json, queried with groq-js. Both answer the same GROQ.
 */
import fs from "node:fs";
import path from "node:path";
import { createClient, type SanityClient } from "@sanity/client";
import { evaluate, parse } from "groq-js";
import { env } from "~/utils/env.server";

export type ContentSource = {
  name: "embedded" | "sanity";
  fetch(query: string, params: Record<string, unknown>): Promise<unknown>;
};

export type Document = { _id: string; _type: string; [key: string]: unknown };

/** Reads the embedded dataset: every NDJSON line in content/, plus each funnel JSON file as a document. */
export function readEmbeddedDataset(root: string = process.cwd()): Document[] {
  const documents: Document[] = [];
  const contentDir = path.join(root, "content");
  for (const name of fs.readdirSync(contentDir).filter((n) => n.endsWith(".ndjson")).sort()) {
    const lines = fs.readFileSync(path.join(contentDir, name), "utf8").split("\n");
    lines.forEach((line, i) => {
      if (!line.trim()) return;
      try {
        documents.push(JSON.parse(line));
      } catch (error) {
        throw new Error(`content/${name}:${i + 1}: not valid JSON (${(error as Error).message})`);
      }
    });
  }
  const funnelDir = path.join(root, "funnels");
  for (const name of fs.readdirSync(funnelDir).filter((n) => n.endsWith(".json") && !n.endsWith(".schema.json")).sort()) {
    let funnel: Record<string, unknown>;
    try {
      funnel = JSON.parse(fs.readFileSync(path.join(funnelDir, name), "utf8"));
    } catch (error) {
      throw new Error(`funnels/${name}: not valid JSON (${(error as Error).message})`);
    }
    const { $schema: _schema, ...rest } = funnel;
    documents.push({ ...rest, _id: `funnel-${String(funnel.id)}`, _type: "funnel" });
  }
  return documents;
}

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
