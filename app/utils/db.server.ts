/**
 * The Prisma client, one per process: SQLite through better-sqlite3 (a `file:` DATABASE_URL,
 * the embedded default) or PostgreSQL through pg (`postgres://`, `postgresql://`). Both clients
 * are generated from one data model (prisma/schema.prisma), so code is written once against
 * the SQLite client's types, which the PostgreSQL client's accept too.
 */
import fs from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlDriverAdapter, SqlDriverAdapterFactory, SqlQuery, Transaction } from "@prisma/driver-adapter-utils";
import pg from "pg";
import { PrismaClient } from "~/generated/prisma/client";
import { PrismaClient as PostgresPrismaClient } from "~/generated/prisma-postgresql/client";
import { databaseProvider, type DatabaseProvider } from "./database-url.server";
import { env } from "./env.server";
import { logger } from "./logger.server";
import { describeStatement, noteStatement, type Statement } from "./statements.server";

export const provider: DatabaseProvider = databaseProvider(env.databaseUrl) ?? "sqlite";

/** The SQLite file a `file:` URL names. */
export function sqliteFile(url: string): string {
  return path.resolve(url.slice("file:".length));
}

/** Prisma's statements, described once per text (a few hundred at most). */
const descriptions = new Map<string, Statement>();
function described(text: string): Statement {
  let statement = descriptions.get(text);
  if (!statement) {
    statement = describeStatement(text, { prisma: true });
    if (descriptions.size < 2000) descriptions.set(text, statement);
  }
  return statement;
}

/** Tells every statement (statements.server.ts): a page whose render wrote is never served again from memory. */
function noteWrites<Q extends Pick<SqlDriverAdapter, "queryRaw" | "executeRaw">>(queryable: Q): Q {
  const queryRaw = queryable.queryRaw.bind(queryable);
  const executeRaw = queryable.executeRaw.bind(queryable);
  queryable.queryRaw = (query: SqlQuery) => {
    noteStatement(described(query.sql));
    return queryRaw(query);
  };
  queryable.executeRaw = (query: SqlQuery) => {
    // executeRaw answers no rows: whatever it runs, it is taken for a write.
    noteStatement({ ...described(query.sql), write: true });
    return executeRaw(query);
  };
  return queryable;
}

/**
 * The driver adapter with statements told (statements.server.ts): every statement
 * Prisma sends passes through queryRaw or executeRaw, of the connection or of a transaction.
 */
function recordingWrites(factory: SqlDriverAdapterFactory): SqlDriverAdapterFactory {
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    async connect() {
      const adapter = noteWrites(await factory.connect());
      const startTransaction = adapter.startTransaction.bind(adapter);
      adapter.startTransaction = async (...args): Promise<Transaction> => noteWrites(await startTransaction(...args));
      return adapter;
    },
  };
}

function createSqliteClient(): PrismaClient {
  fs.mkdirSync(path.dirname(sqliteFile(env.databaseUrl)), { recursive: true });
  // better-sqlite3 waits up to `timeout` ms for a lock instead of failing at once.
  const client = new PrismaClient({ adapter: recordingWrites(new PrismaBetterSQLite3({ url: env.databaseUrl, timeout: 5000 })) });
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

/**
 * PostgreSQL connections, shared by Prisma and the hot-path statements (sql.server.ts).
 * DATABASE_POOL_SIZE connections per process (default 10).
 */
export function createPostgresPool(): pg.Pool {
  const pool = new pg.Pool({ connectionString: env.databaseUrl, max: env.databasePoolSize });
  // An idle connection the server dropped (restart, failover) is replaced on next use.
  pool.on("error", (error) => logger.error({ err: error }, "[db] idle PostgreSQL connection failed"));
  return pool;
}

function createPostgresClient(pool: pg.Pool): PrismaClient {
  // Same API: the PostgreSQL client's input types are a superset of the SQLite client's.
  return new PostgresPrismaClient({ adapter: recordingWrites(new PrismaPg(pool)) }) as unknown as PrismaClient;
}

// In development the module is re-evaluated on every change; keep one client.
const globalForDb = globalThis as unknown as { __glowDb?: PrismaClient; __glowPool?: pg.Pool };
export const postgresPool: pg.Pool | undefined = provider === "postgresql" ? (globalForDb.__glowPool ?? createPostgresPool()) : undefined;
export const db: PrismaClient = globalForDb.__glowDb ?? (postgresPool ? createPostgresClient(postgresPool) : createSqliteClient());
if (env.nodeEnv !== "production") {
  globalForDb.__glowDb = db;
  globalForDb.__glowPool = postgresPool;
}

/** An open transaction's client (`db.$transaction(async (tx) => ...)`), for writes that must be stored together. */
export type DbTransaction = Parameters<Parameters<typeof db.$transaction>[0]>[0];

/** Prisma's code for a unique constraint that refused a row. */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === "P2002";
}

/** SQLite only: another process (a second worker on the same file) held the write lock past the driver's wait. */
function isLockedByAnotherProcess(error: unknown): boolean {
  const cause = (error as { meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } } } | null)?.meta?.driverAdapterError?.cause;
  return typeof cause?.originalCode === "string" && cause.originalCode.startsWith("SQLITE_BUSY");
}

/** How long a transaction is tried again while another process holds SQLite's write lock. */
export const LOCKED_RETRY_MS = 15_000;

/**
 * Runs `work` (a whole transaction, rolled back when it failed) again while SQLite answers that
 * another process holds the write lock: workers sharing one file take turns, and a burst on a
 * busy machine can outlast the driver's own wait. Waits without blocking between tries, up to
 * LOCKED_RETRY_MS in all, then lets the error through. PostgreSQL waits for row locks itself.
 */
export async function againWhenLocked<T>(work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!isLockedByAnotherProcess(error) || Date.now() - started > LOCKED_RETRY_MS) throw error;
      await sleep(Math.min(250, 10 * 2 ** attempt));
    }
  }
}

/**
 * Runs `work` (a transaction that finds a row, else creates it) once more when a concurrent one
 * created the row first: the unique constraint refused the second insert, and on PostgreSQL
 * the failed statement ended the transaction, so the whole of it is run again and finds the row.
 */
export async function againIfCreatedMeanwhile<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return work();
  }
}
