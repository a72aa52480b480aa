/**
 * The variants stored with each analytics event: the running experiments the visitor is
 * assigned to when it happens ({"<experimentId>": "<variant key>"}), so every number in an
 * experiment's report is read from the event log. A stopped experiment's variants are no
 * longer stored: its results stop where it stopped.
 */
import { getExperiments } from "~/content/content.server";
import { db } from "~/utils/db.server";
import { logger } from "~/utils/logger.server";
import { query, queryRows, statement } from "~/utils/sql.server";

async function runningIds(): Promise<ReadonlySet<string>> {
  return new Set((await getExperiments()).filter((e) => e.status === "running").map((e) => e.experimentId));
}

function asText(pairs: { experimentId: string; variant: string }[], running: ReadonlySet<string>): string | null {
  const kept = pairs.filter((p) => running.has(p.experimentId)).sort((a, b) => a.experimentId.localeCompare(b.experimentId));
  return kept.length ? JSON.stringify(Object.fromEntries(kept.map((p) => [p.experimentId, p.variant]))) : null;
}

const variantsOf = statement((visitorId: string) =>
  query.selectFrom("ExperimentAssignment").select(["experimentId", "variant"]).where("visitorId", "=", visitorId),
);

/**
 * One visitor's variants as an event stores them; null when no running experiment has them (no
 * query when none runs). A failed lookup is logged and the event is written without them.
 */
export async function eventVariants(visitorId: string): Promise<string | null> {
  try {
    const running = await runningIds();
    if (running.size === 0) return null;
    // Hot-path SQL: every recorded event asks while an experiment runs.
    const rows = await queryRows(variantsOf, visitorId);
    return asText(rows, running);
  } catch (error) {
    logger.error({ err: error }, "[experiments] could not read a visitor's variants for an event");
    return null;
  }
}

/** The same for a batch of events (event-batch.server.ts), in one query. */
export async function eventVariantsOfMany(visitorIds: readonly string[]): Promise<ReadonlyMap<string, string | null>> {
  let rows: { visitorId: string; experimentId: string; variant: string }[];
  let running: ReadonlySet<string>;
  try {
    running = await runningIds();
    if (running.size === 0 || visitorIds.length === 0) return new Map();
    rows = await db.experimentAssignment.findMany({
      where: { visitorId: { in: [...new Set(visitorIds)] }, experimentId: { in: [...running] } },
      select: { visitorId: true, experimentId: true, variant: true },
    });
  } catch (error) {
    logger.error({ err: error }, "[experiments] could not read visitors' variants for queued events");
    return new Map();
  }
  const byVisitor = new Map<string, { experimentId: string; variant: string }[]>();
  for (const row of rows) byVisitor.set(row.visitorId, [...(byVisitor.get(row.visitorId) ?? []), row]);
  return new Map([...byVisitor].map(([visitorId, pairs]) => [visitorId, asText(pairs, running)]));
}
