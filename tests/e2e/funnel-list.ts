/**
 * Every funnel in the embedded content dataset (funnels/*.json), for specs that must visit
 * each funnel and each of its steps: a funnel added to the dataset is covered without
 * editing the specs.
 */
import { readEmbeddedDataset } from "../../app/content/embedded-dataset.server";
import type { Step } from "../../app/content-model/funnel";

export type FunnelOutline = {
  id: string;
  route: string;
  steps: { id: string; type: Step["type"]; template: string }[];
  /** The addresses outside the funnel its steps lead to (another funnel, an offer page). */
  leavesFor: string[];
};

/** What a step's texts are written into, and the only things about it that change its markup. */
const TEXT_ONLY = new Set(["id", "label", "progress", "title", "next", "questions", "type", "layout"]);

/**
 * A step's template: its type, layout, each question's kind of choice and which optional parts
 * it has (a subtitle, a skip link, badges…), never its words. Steps with the same template
 * render the same markup with other texts, so one accessibility scan speaks for all of them.
 */
function templateOf(step: Record<string, unknown>): string {
  const questions = Array.isArray(step.questions) ? (step.questions as Record<string, unknown>[]) : [];
  const choices = questions.map((q) => String(q.select ?? "shared question"));
  const parts = Object.keys(step)
    .filter((key) => !TEXT_ONLY.has(key))
    .sort();
  return JSON.stringify([step.type, step.layout ?? null, choices, parts]);
}

export function funnelsInDataset(): FunnelOutline[] {
  return readEmbeddedDataset()
    .filter((doc) => doc._type === "funnel")
    .map((doc) => ({
      id: String(doc.id),
      route: String(doc.route),
      steps: (doc.steps as ({ id: string; type: Step["type"] } & Record<string, unknown>)[]).map((step) => ({
        id: step.id,
        type: step.type,
        template: templateOf(step),
      })),
      leavesFor: [...new Set([...JSON.stringify(doc.steps).matchAll(/"href":"([^"]+)"/g)].map((m) => m[1]))],
    }));
}

/** The step of `funnel` a pathname shows ("/quiz" is its first step), or undefined outside the funnel. */
export function stepAt(funnel: FunnelOutline, pathname: string): FunnelOutline["steps"][number] | undefined {
  if (pathname === funnel.route) return funnel.steps[0];
  if (!pathname.startsWith(`${funnel.route}/`)) return undefined;
  const id = decodeURIComponent(pathname.slice(funnel.route.length + 1));
  return funnel.steps.find((step) => step.id === id);
}
