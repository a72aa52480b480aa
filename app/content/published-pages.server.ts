/**
 * Which addresses have had a content page (an offer page or a quiz), so that one taken down
 * answers 410 Gone ("it was here, it has ended") while an address that never had a page
 * answers 404. The app notes every page it finds published, once per content version per
 * process, in the database (PublishedPage), shared by every instance and kept across
 * restarts and deploys. Drafts shown in preview are never noted: they were not published.
 * An address published and taken down between two content versions the app never read
 * answers 404: the app cannot know it was ever live.
 */
import { db, isUniqueViolation } from "~/utils/db.server";
import { now } from "~/utils/clock.server";
import { logger } from "~/utils/logger.server";
import { contentGeneration, getContentPages } from "./content.server";
import { inPreview } from "./preview.server";

/** Paths this process knows are recorded (they stay recorded: rows are never deleted). */
const recorded = new Set<string>();
let notedGeneration = -1;
let noting: Promise<void> | null = null;

/** Notes the content pages published now; cheap after the first call for a content version. */
export async function notePublishedPages(): Promise<void> {
  if (inPreview()) return;
  const generation = contentGeneration();
  if (generation === notedGeneration) return;
  noting ??= (async () => {
    const fresh = (await getContentPages()).filter((page) => !recorded.has(page.path));
    if (fresh.length) {
      const stored = await db.publishedPage.findMany({ where: { path: { in: fresh.map((p) => p.path) } }, select: { path: true } });
      for (const { path } of stored) recorded.add(path);
      for (const page of fresh.filter((p) => !recorded.has(p.path))) {
        try {
          await db.publishedPage.create({ data: { path: page.path, kind: page.kind, firstSeenAt: now() } });
        } catch (error) {
          // Another instance noted it a moment ago.
          if (!isUniqueViolation(error)) throw error;
        }
        recorded.add(page.path);
      }
    }
    notedGeneration = generation;
  })().finally(() => {
    noting = null;
  });
  return noting;
}

/** notePublishedPages() for a request that does not wait for it: a failure is logged, and tried again next time. */
export function notePublishedPagesInBackground(): void {
  notePublishedPages().catch((error) => logger.error({ err: error }, "[content] could not note the published pages"));
}

/**
 * For an address where nothing lives now: "gone" when a published content page lived there,
 * "never" otherwise. The pages published now are noted first, so a page taken down since
 * the last content version is known.
 */
export async function addressHistory(path: string): Promise<"gone" | "never"> {
  await notePublishedPages();
  if (recorded.has(path)) return "gone";
  return (await db.publishedPage.findUnique({ where: { path }, select: { path: true } })) ? "gone" : "never";
}
