// `npm run content:push` / `npm run content:pull` (scripts/content-sync.ts) against the
// Sanity project and dataset named by SANITY_PROJECT_ID, SANITY_DATASET and SANITY_API_TOKEN.
import { createClient } from "@sanity/client";
import { z } from "zod";
import { pullContent, pushContent, type ContentClient } from "./content-sync";

const Env = z.object({
  SANITY_PROJECT_ID: z.string({ error: "is required" }).regex(/^[a-z0-9-]+$/, "must be a Sanity project id"),
  SANITY_DATASET: z
    .string()
    .regex(/^[a-z0-9_-]+$/)
    .default("production"),
  SANITY_API_TOKEN: z.string({ error: "is required (a token with write access for push, read access for pull)" }).min(1),
  SANITY_API_VERSION: z.string().default("2025-02-19"),
  /** Tests only: a local server speaking the Sanity API. */
  SANITY_API_HOST: z.url().optional(),
});

const command = process.argv[2];
if (command !== "push" && command !== "pull") {
  console.error("usage: tsx scripts/content.ts push|pull");
  process.exit(2);
}
const parsed = Env.safeParse(Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== "")));
if (!parsed.success) {
  for (const issue of parsed.error.issues) console.error(`${issue.path.join(".")}: ${issue.message}`);
  process.exit(2);
}
const e = parsed.data;
const client = createClient({
  projectId: e.SANITY_PROJECT_ID,
  dataset: e.SANITY_DATASET,
  apiVersion: e.SANITY_API_VERSION,
  token: e.SANITY_API_TOKEN,
  useCdn: false,
  // Pull reads what is published, never drafts.
  perspective: "published",
  ...(e.SANITY_API_HOST ? { apiHost: e.SANITY_API_HOST, useProjectHostname: false } : {}),
}) as unknown as ContentClient;

const where = `${e.SANITY_PROJECT_ID}/${e.SANITY_DATASET}`;
try {
  if (command === "push") {
    const { written, unchanged } = await pushContent(client, process.cwd());
    for (const id of written) console.log(`wrote ${id}`);
    console.log(`content:push to ${where}: ${written.length} written, ${unchanged.length} unchanged`);
  } else {
    const { changedFiles, removedFiles, copiedAssets } = await pullContent(client, process.cwd());
    for (const file of changedFiles) console.log(`updated ${file}`);
    for (const file of removedFiles) console.log(`removed ${file}`);
    for (const file of copiedAssets) console.log(`copied ${file}`);
    console.log(
      `content:pull from ${where}: ${changedFiles.length} files updated, ${removedFiles.length} removed${copiedAssets.length ? `, ${copiedAssets.length} uploaded pictures and videos copied` : ""}`,
    );
  }
} catch (error) {
  // The API's answer (wrong token, unknown dataset) is the useful part; no stack trace.
  console.error(`content:${command} failed: ${(error as Error).message}`);
  process.exitCode = 1;
}
