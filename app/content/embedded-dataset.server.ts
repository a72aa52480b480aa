/**
 * The embedded content dataset on disk: content/*.ndjson (Sanity export format) plus
 * each funnels/*.json file as a "funnel" document. Reads files only, no configuration,
 * so scripts (the funnel linter, content push) can use it too.
 */
import fs from "node:fs";
import path from "node:path";

export type Document = { _id: string; _type: string; [key: string]: unknown };

/** Reads the embedded dataset: every NDJSON line in content/, plus each funnel JSON file as a document. */
export function readEmbeddedDataset(root: string = process.cwd()): Document[] {
  const documents: Document[] = [];
  const contentDir = path.join(root, "content");
  for (const name of fs
    .readdirSync(contentDir)
    .filter((n) => n.endsWith(".ndjson"))
    .sort()) {
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
  for (const name of fs
    .readdirSync(funnelDir)
    .filter((n) => n.endsWith(".json") && !n.endsWith(".schema.json"))
    .sort()) {
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
