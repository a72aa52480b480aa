import { readEmbeddedDataset, type Document } from "~/content/embedded-dataset";
import { resolveFunnel } from "~/funnels/resolve";
import type { Funnel } from "~/funnels/schema";

let dataset: Document[] | undefined;

export function embeddedDataset(): Document[] {
  return (dataset ??= readEmbeddedDataset());
}

export function sharedQuestions(): Map<string, unknown> {
  return new Map(embeddedDataset().filter((d) => d._type === "question").map((d) => [d._id, d]));
}

export function funnelDocument(id: string): Record<string, unknown> {
  const doc = embeddedDataset().find((d) => d._type === "funnel" && d.id === id);
  if (!doc) throw new Error(`no funnel ${id}`);
  return structuredClone(doc);
}

export function loadFunnel(id: string): Funnel {
  const result = resolveFunnel(funnelDocument(id), sharedQuestions());
  if (!result.ok) throw new Error(result.problems.join("\n"));
  return result.funnel;
}
