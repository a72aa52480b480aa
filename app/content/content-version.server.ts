/**
 * One content version for every instance. The Sanity webhook reaches one instance; it moves
 * the version in the database, and every instance (itself included) compares the stored
 * version with the one its caches were filled under, once a second, clearing its content and
 * page caches when they differ. So a publish is seen everywhere within about a second, and a
 * webhook that arrives while an instance is down still reaches it when it comes back.
 * See docs/decisions/0016-instances-share-one-truth.md.
 */
import { logger } from "~/utils/logger.server";
import { queryRows, sql } from "~/utils/sql.server";
import { invalidateContent } from "./content.server";

const POLL_MS = 1000;

/** The version this instance's caches belong to; null until first read. */
let seenVersion: number | null = null;

/** How to empty each cache filled from content (pages, renders): registered by the cache itself. */
const cacheClearers = new Set<() => void>();

/** `clear` empties a cache filled from content; called on every content change, on every instance. */
export function onContentChange(clear: () => void): void {
  cacheClearers.add(clear);
}

function clearCaches(): void {
  invalidateContent();
  for (const clear of cacheClearers) clear();
}

/** The stored version (0 before the first change ever). */
export async function storedContentVersion(): Promise<number> {
  const rows = await queryRows<{ version: number }>(sql`SELECT "version" FROM "ContentVersion" WHERE "id" = 1`);
  return rows[0]?.version ?? 0;
}

/** Content changed: one up for every instance, and this instance's caches cleared at once. */
export async function publishContentChange(at: Date): Promise<number> {
  const rows = await queryRows<{ version: number }>(sql`
    INSERT INTO "ContentVersion" ("id", "version", "changedAt") VALUES (1, 1, ${at})
    ON CONFLICT ("id") DO UPDATE SET "version" = "ContentVersion"."version" + 1, "changedAt" = ${at}
    RETURNING "version"`);
  clearCaches();
  seenVersion = rows[0].version;
  return seenVersion;
}

/** Compares the stored version with this instance's; clears the caches when it moved. */
export async function checkContentVersion(): Promise<boolean> {
  const version = await storedContentVersion();
  const moved = seenVersion !== null && version !== seenVersion;
  if (moved) clearCaches();
  seenVersion = version;
  return moved;
}

let timer: NodeJS.Timeout | undefined;

/** Starts the once-a-second check (app/server.ts); it never keeps the process alive. */
export function watchContentVersion(): void {
  if (timer) return;
  let running = false;
  const check = () => {
    if (running) return;
    running = true;
    checkContentVersion()
      .catch((error) => logger.error({ err: error }, "[content] could not read the content version"))
      .finally(() => (running = false));
  };
  check();
  timer = setInterval(check, POLL_MS);
  timer.unref();
}

export function stopWatchingContentVersion(): void {
  clearInterval(timer);
  timer = undefined;
}
