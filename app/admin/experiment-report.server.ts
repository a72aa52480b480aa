/**
 * /admin/experiments' data: every experiment (running first, then stopped, then results whose
 * document was deleted) with its report (./experiment-report.ts). Reads the events that carry each
 * experiment's variants and the routine completions of its buyers.
 */
import { flushEvents } from "~/analytics/event-batch.server";
import { getExperiments } from "~/content/content.server";
import { db } from "~/utils/db.server";
import { experimentReport, type ExperimentEvent, type ExperimentReport, type ReportedExperiment } from "./experiment-report";

function parseObject(text: string | null): Record<string, unknown> {
  try {
    const value = JSON.parse(text ?? "{}");
    return value && typeof value === "object" && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

/** The events recorded while visitors were in one of the experiment's variants. */
async function eventsOf(experimentId: string): Promise<ExperimentEvent[]> {
  const rows = await db.analyticsEvent.findMany({
    // A first cut in SQL (the JSON text holds `"<id>":`), then the exact match on the parsed value.
    where: { variants: { contains: `"${experimentId}":` } },
    select: { visitorId: true, name: true, funnel: true, props: true, userId: true, variants: true, createdAt: true },
  });
  return rows.flatMap((row) => {
    const variants = parseObject(row.variants);
    if (typeof variants[experimentId] !== "string") return [];
    return [{ ...row, props: parseObject(row.props), variants: variants as Record<string, string> }];
  });
}

/** Experiments whose visitors are stored but whose document is gone: shown by id, with the variants seen. */
async function deletedExperiments(known: ReadonlySet<string>): Promise<ReportedExperiment[]> {
  const seen = await db.experimentAssignment.groupBy({ by: ["experimentId", "variant"], orderBy: [{ experimentId: "asc" }, { variant: "asc" }] });
  const byId = new Map<string, string[]>();
  for (const row of seen) if (!known.has(row.experimentId)) byId.set(row.experimentId, [...(byId.get(row.experimentId) ?? []), row.variant]);
  return [...byId].map(([experimentId, keys]) => ({
    experimentId,
    name: `${experimentId} (document deleted)`,
    status: "stopped",
    kind: "offer",
    variants: keys.map((key) => ({ key, name: key, weight: 1 })),
  }));
}

export async function experimentReports(at: Date): Promise<ExperimentReport[]> {
  // Views still queued in this process count too.
  await flushEvents();
  const documents = [...(await getExperiments())].sort(
    (a, b) => Number(b.status === "running") - Number(a.status === "running") || a.name.localeCompare(b.name),
  );
  const described: ReportedExperiment[] = documents.map((d) => ({
    experimentId: d.experimentId,
    name: d.name,
    status: d.status,
    kind: d.kind,
    offer: d.offer,
    funnel: d.funnel,
    step: d.step,
    hypothesis: d.hypothesis,
    variants: d.variants.map((v) => ({ key: v.key, name: v.name, weight: v.weight })),
  }));
  const experiments = [...described, ...(await deletedExperiments(new Set(documents.map((d) => d.experimentId))))];
  return Promise.all(
    experiments.map(async (experiment) => {
      const events = await eventsOf(experiment.experimentId);
      const buyers = [...new Set(events.flatMap((e) => (e.name === "purchase" && e.userId ? [e.userId] : [])))];
      const completions = buyers.length ? await db.planCompletion.findMany({ where: { userId: { in: buyers } }, select: { userId: true, date: true } }) : [];
      return experimentReport(experiment, events, completions, at);
    }),
  );
}
