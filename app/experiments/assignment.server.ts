/**
 * Which variant of an experiment a visitor sees, decided once.
 *
 * A new visitor's variant is a weighted draw made from a hash of the experiment id and their
 * visitor id (the signed gc_vid cookie), so it is the same on every instance without asking
 * anyone. It is stored at once (ExperimentAssignment) and the stored row wins from then on:
 * later changes to the weights move nobody already assigned. A signed-in member's rows are
 * linked to their account (here, on sign-in and on purchase), and on a browser that has no
 * row yet a member gets their account's variant: the same price on the phone they bought on
 * and the laptop they sign in on later.
 *
 * Assigning a visitor records `experiment_viewed` once: the experiment's visitors in the
 * admin are those events.
 */
import { createHash } from "node:crypto";
import { recordEvent } from "~/analytics/events.server";
import { now } from "~/utils/clock.server";
import { logger } from "~/utils/logger.server";
import { execute, query, queryRows, statement } from "~/utils/sql.server";

/** Who is looking: this browser, and the member when signed in. */
export type Viewer = { visitorId: string; userId?: string | null };

/** Experiment id → the key of the viewer's variant. */
export type Assignments = Readonly<Record<string, string>>;

type Weighted = { key: string; weight: number };
type Assignable = { experimentId: string; variants: readonly Weighted[] };

/** A number in [0, 1), always the same for the same experiment and visitor. */
export function bucketOf(experimentId: string, visitorId: string): number {
  const digest = createHash("sha256").update(`${experimentId}\u0000${visitorId}`).digest();
  return digest.readUIntBE(0, 6) / 2 ** 48;
}

/** The variant whose share of the total weight holds `bucket` (variants in their order). */
export function pickVariant(variants: readonly Weighted[], bucket: number): string {
  const total = variants.reduce((sum, v) => sum + v.weight, 0);
  let point = bucket * total;
  for (const variant of variants) {
    if (point < variant.weight) return variant.key;
    point -= variant.weight;
  }
  return variants[variants.length - 1].key;
}

type Row = { experimentId: string; visitorId: string; variant: string; userId: string | null; assignedAt: Date };

const assignmentRows = () => query.selectFrom("ExperimentAssignment").select(["experimentId", "visitorId", "variant", "userId", "assignedAt"]);
const rowsOfBrowser = statement((visitorId: string) => assignmentRows().where("visitorId", "=", visitorId));
const rowsOfBrowserOrMember = statement((visitorId: string, userId: string) =>
  assignmentRows().where((eb) => eb.or([eb("visitorId", "=", visitorId), eb("userId", "=", userId)])),
);

/** Stores an assignment unless this browser has one in the experiment already (answers 0 then). */
const insertAssignment = statement((experimentId: string, visitorId: string, variant: string, userId: string | null, assignedAt: Date) =>
  query
    .insertInto("ExperimentAssignment")
    .values({ experimentId, visitorId, variant, userId, assignedAt })
    .onConflict((oc) => oc.columns(["experimentId", "visitorId"]).doNothing()),
);

const linkBrowser = statement((visitorId: string, userId: string) =>
  query.updateTable("ExperimentAssignment").set({ userId }).where("visitorId", "=", visitorId).where("userId", "is", null),
);

/** This browser's rows, and the member's from any browser. Hot-path SQL: offer pages and funnel steps with experiments read it. */
function rowsOf(viewer: Viewer): Promise<Row[]> {
  return viewer.userId ? queryRows(rowsOfBrowserOrMember, viewer.visitorId, viewer.userId) : queryRows(rowsOfBrowser, viewer.visitorId);
}

/**
 * The viewer's variant in each experiment, assigning them where they have none yet: this
 * browser's stored variant; else the member's earliest, from another browser; else the
 * weighted draw. A new assignment is stored and recorded as `experiment_viewed`; this
 * browser's assignments not yet linked to the signed-in member are linked.
 */
export async function assignVariants(experiments: readonly Assignable[], viewer: Viewer): Promise<Assignments> {
  if (experiments.length === 0) return {};
  const rows = await rowsOf(viewer);
  const assignments: Record<string, string> = {};
  for (const experiment of experiments) {
    const { experimentId, variants } = experiment;
    const own = rows.find((r) => r.experimentId === experimentId && r.visitorId === viewer.visitorId);
    if (own) {
      assignments[experimentId] = own.variant;
      continue;
    }
    const account = rows
      .filter((r) => r.experimentId === experimentId && viewer.userId && r.userId === viewer.userId)
      .sort((a, b) => new Date(a.assignedAt).getTime() - new Date(b.assignedAt).getTime())
      .find((r) => variants.some((v) => v.key === r.variant));
    const variant = account?.variant ?? pickVariant(variants, bucketOf(experimentId, viewer.visitorId));
    const inserted = await execute(insertAssignment, experimentId, viewer.visitorId, variant, viewer.userId ?? null, now());
    if (inserted === 1) {
      assignments[experimentId] = variant;
      await recordEvent({
        visitorId: viewer.visitorId,
        name: "experiment_viewed",
        userId: viewer.userId ?? undefined,
        props: { experiment: experimentId, variant },
      });
    } else {
      // Another request of this browser assigned it a moment ago: theirs stands.
      assignments[experimentId] = (await storedAssignments(viewer.visitorId))[experimentId] ?? variant;
    }
  }
  if (viewer.userId && rows.some((r) => r.visitorId === viewer.visitorId && r.userId === null)) await linkToAccount(viewer.visitorId, viewer.userId);
  return assignments;
}

/** This browser's stored variants (nothing is assigned): for the page cache, which must change nothing. */
export async function storedAssignments(visitorId: string): Promise<Assignments> {
  const rows = await rowsOf({ visitorId });
  return Object.fromEntries(rows.map((r) => [r.experimentId, r.variant]));
}

/**
 * Links this browser's assignments to a member (sign-in, purchase), so the member sees the
 * same variants on every device. Assignments already linked to someone stay theirs. Never
 * fails a sign-in or a purchase: a failed write is logged (the next page they open signed in
 * links them).
 */
export async function linkToAccount(visitorId: string, userId: string): Promise<void> {
  try {
    await execute(linkBrowser, visitorId, userId);
  } catch (error) {
    logger.error({ err: error }, "[experiments] could not link a browser's assignments to its member");
  }
}
