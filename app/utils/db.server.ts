/**
 * The Prisma client, one per process, on SQLite through better-sqlite3.
 */
import fs from "node:fs";
import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "~/generated/prisma/client";
import { env } from "./env.server";
import { logger } from "./logger.server";

function createClient(): PrismaClient {
  const file = env.databaseUrl.slice("file:".length);
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  // better-sqlite3 waits up to `timeout` ms for a lock instead of failing at once.
  const client = new PrismaClient({ adapter: new PrismaBetterSQLite3({ url: env.databaseUrl, timeout: 5000 }) });
  // WAL lets readers and the writer work side by side; the setting is kept in the file.
  void client
    .$queryRawUnsafe("PRAGMA journal_mode = WAL")
    // In WAL mode NORMAL syncs at checkpoints, not on every commit: a crash of the app loses
    // nothing and the file never corrupts; only a power cut may drop the last commits.
    // Every write (a routine finished) otherwise waits for a disk flush (docs/decisions/0007).
    .then(() => client.$executeRawUnsafe("PRAGMA synchronous = NORMAL"))
    .catch((error) => {
      logger.error({ err: error }, "[db] could not switch SQLite to WAL mode");
    });
  return client;
}

// In development the module is re-evaluated on every change; keep one client.
const globalForDb = globalThis as unknown as { __glowDb?: PrismaClient };
export const db: PrismaClient = globalForDb.__glowDb ?? createClient();
if (env.nodeEnv !== "production") globalForDb.__glowDb = db;

/** Closes the database connection when the server stops. */
export async function closeDatabase(): Promise<void> {
  await db.$disconnect();
}
