/**
 * One content version for every instance. The Sanity webhook reaches one instance; it moves
 * the version in the database, and every instance (itself included) compares the stored
 * version with the one its caches were filled under, once a second, clearing its content and
 * page caches when they differ. So a publish is seen everywhere within about a second, and a
 * webhook that arrives while an instance is down still reaches it when it comes back.
 * See docs/decisions/0016-instances-share-one-truth.md.
 */
import { logger } from "~/utils/logger.server";
import { query, queryRows, statement } from "~/utils/sql.server";
import { invalidateContent } from "./content.server";

const POLL_MS = 1000;

/** The version this instance's caches belong to; null until first read. */
let seenVersion: number | null = null;

/** Content and every page cache built from it (they register with onContentChange). */
function clearCaches(): void {
  invalidateContent();
}

const readVersion = statement(() => query.selectFrom("ContentVersion").select("version").where("id", "=", 1));

/** One up (1 the first time); answers the new version. */
const raiseVersion = statement((at: Date) =>
  query
    .insertInto("ContentVersion")
    .values({ id: 1, version: 1, changedAt: at })
    .onConflict((oc) => oc.column("id").doUpdateSet((eb) => ({ version: eb("ContentVersion.version", "+", 1), changedAt: at })))
    .returning("version"),
);

/** The stored version (0 before the first change ever). */
export async function storedContentVersion(): Promise<number> {
  const rows = await queryRows(readVersion);
  return rows[0]?.version ?? 0;
}

/** Content changed: one up for every instance, and this instance's caches cleared at once. */
export async function publishContentChange(at: Date): Promise<number> {
  const rows = await queryRows(raiseVersion, at);
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
