/**
 * Every funnel in the embedded content dataset (funnels/*.json), for specs that must visit
 * each funnel and each of its steps: a funnel added to the dataset is covered without
 * editing the specs.
 */
import { readEmbeddedDataset } from "../../app/content/embedded-dataset.server";
import type { Step } from "../../app/funnels/schema";

export type FunnelOutline = { id: string; route: string; steps: { id: string; type: Step["type"] }[] };

export function funnelsInDataset(): FunnelOutline[] {
  return readEmbeddedDataset()
    .filter((doc) => doc._type === "funnel")
    .map((doc) => ({
      id: String(doc.id),
      route: String(doc.route),
      steps: (doc.steps as { id: string; type: Step["type"] }[]).map(({ id, type }) => ({ id, type })),
    }));
}

/** The step of `funnel` a pathname shows ("/quiz" is its first step), or undefined outside the funnel. */
export function stepAt(funnel: FunnelOutline, pathname: string): FunnelOutline["steps"][number] | undefined {
  if (pathname === funnel.route) return funnel.steps[0];
  if (!pathname.startsWith(`${funnel.route}/`)) return undefined;
  const id = decodeURIComponent(pathname.slice(funnel.route.length + 1));
  return funnel.steps.find((step) => step.id === id);
}
