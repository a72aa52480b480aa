/**
 * Hot-path SQL: the few statements run on nearly every request (the session lookup, the
 * request limiter, the routine's reads and writes, the event log, the content version), sent
 * straight to the database driver and prepared once per connection. Through Prisma the same
 * statement cost 0.15-0.3 ms of CPU each (its query compiler and client runtime run per call,
 * and the SQLite adapter prepares every statement anew); here it is a few microseconds plus the
 * driver's own work (docs/decisions/0017-hot-path-sql.md). Everything else uses Prisma.
 *
 * Statements are written once for both databases: quoted identifiers, `?`-free tagged templates
 * (values are always parameters), ON CONFLICT, RETURNING, and nothing provider-specific.
 * Values and rows are mapped the way Prisma stores them, so both can read each other's rows:
 * DateTime columns as Date, Boolean as boolean, integers as number.
 *
 *   const rows = await queryRows<{ step: number }>(sql`SELECT "step" FROM "PlanStepCompletion" WHERE "userId" = ${id}`);
 */
import { setTimeout as sleep } from "node:timers/promises";
import Database from "better-sqlite3";
import pg from "pg";
import { db, postgresPool, provider, sqliteFile } from "./db.server";
import { env } from "./env.server";
import { describeStatement, noteStatement, type Statement } from "./statements.server";

export type Sql = { strings: TemplateStringsArray; values: unknown[] };

/** A statement with its values as parameters. The template's text is the statement's identity. */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): Sql {
  return { strings, values };
}

type Engine = {
  queryRows(statement: Sql): Promise<Record<string, unknown>[]>;
  execute(statement: Sql): Promise<number>;
  close(): Promise<void>;
};

/** Rows of a SELECT, or of a write with RETURNING. */
export async function queryRows<T>(statement: Sql): Promise<T[]> {
  noteStatement(described(statement));
  return (await engine().queryRows(statement)) as T[];
}

/** Runs a write; answers the number of rows it changed. */
export async function execute(statement: Sql): Promise<number> {
  noteStatement(described(statement));
  return engine().execute(statement);
}

const descriptions = new WeakMap<TemplateStringsArray, Statement>();

/** What the statement writes and reads, worked out once per template (statements.server.ts). */
function described({ strings }: Sql): Statement {
  let statement = descriptions.get(strings);
  if (!statement) {
    statement = describeStatement(strings.join("?"));
    descriptions.set(strings, statement);
  }
  return statement;
}

/** At shutdown, after the last request: closes Prisma, this module's connection and the pool. */
export async function closeDatabase(): Promise<void> {
  await current?.close();
  current = undefined;
  await db.$disconnect();
  await postgresPool?.end();
}

let current: Engine | undefined;
function engine(): Engine {
  return (current ??= provider === "postgresql" ? postgresEngine(postgresPool!) : sqliteEngine(sqliteFile(env.databaseUrl)));
}

// SQLite ---------------------------------------------------------------------------------

type Convert = (value: unknown) => unknown;
type SqlitePrepared = { statement: Database.Statement; reader: boolean; writes: boolean; converters: [string, Convert][] };

const toDate: Convert = (value) => (value === null ? null : new Date(typeof value === "string" ? value : Number(value)));
const toBoolean: Convert = (value) => (value === null ? null : value === 1 || value === 1n || value === true);

function sqliteValue(value: unknown): unknown {
  if (value === undefined) return null;
  // As Prisma's better-sqlite3 adapter stores DateTime (ISO 8601, "+00:00").
  if (value instanceof Date) return value.toISOString().replace("Z", "+00:00");
  if (typeof value === "boolean") return value ? 1 : 0;
  return value;
}

/**
 * A connection of its own beside Prisma's, on the same file.
 *
 * Group commit: writes asked for in the same turn of the event loop are committed together,
 * in one transaction run whole within one tick. A commit is the expensive part of a small
 * write (its pages appended to the WAL, and every thousand pages a checkpoint that waits for
 * the disk), and better-sqlite3 waits synchronously, so 1,000 members finishing at once
 * would otherwise block the process for most of a second on commits alone. Each write's
 * promise settles after the commit that made it durable, so a request never answers before
 * its write is stored; a statement that fails (a constraint) fails alone. Reads run at once.
 *
 * Locks: its transactions never span an await, so it never holds a lock anyone in this
 * process waits on. When another connection is writing, it waits for the lock briefly
 * (BUSY_WAIT_MS, blocking: another worker process's commit takes well under that unless that
 * process was descheduled mid-write), then yields and tries again a moment later, up to
 * LOCK_WAIT_MS: a Prisma transaction in this same process holds the lock across awaits and
 * can only finish if this one yields.
 */
const BUSY_WAIT_MS = 20;
const LOCK_WAIT_MS = 15_000;

type PendingWrite = { prepared: SqlitePrepared; params: unknown[]; resolve: (result: unknown) => void; reject: (error: unknown) => void };

function sqliteEngine(file: string): Engine {
  const database = new Database(file, { timeout: BUSY_WAIT_MS });
  database.pragma("journal_mode = WAL");
  database.pragma("synchronous = NORMAL");
  const prepared = new WeakMap<TemplateStringsArray, SqlitePrepared>();
  const begin = database.prepare("BEGIN IMMEDIATE");
  const commit = database.prepare("COMMIT");

  function prepare(strings: TemplateStringsArray): SqlitePrepared {
    let entry = prepared.get(strings);
    if (!entry) {
      const statement = database.prepare(strings.join("?"));
      const converters: [string, Convert][] = [];
      if (statement.reader) {
        for (const column of statement.columns()) {
          const type = column.type?.toUpperCase();
          if (type === "DATETIME") converters.push([column.name, toDate]);
          else if (type === "BOOLEAN") converters.push([column.name, toBoolean]);
        }
      }
      entry = { statement, reader: statement.reader, writes: !statement.readonly, converters };
      prepared.set(strings, entry);
    }
    return entry;
  }

  function run({ statement, reader }: SqlitePrepared, params: unknown[]): unknown {
    return reader ? statement.all(...params) : statement.run(...params);
  }

  let queue: PendingWrite[] = [];
  let flushing = false;

  /** Commits every queued write in one transaction; writes queued meanwhile go in the next. */
  async function flush(): Promise<void> {
    flushing = true;
    try {
      while (queue.length) {
        const batch = queue;
        queue = [];
        try {
          await whenUnlocked(() => begin.run());
        } catch (error) {
          for (const write of batch) write.reject(error);
          continue;
        }
        const results: { ok: boolean; value: unknown }[] = [];
        for (const write of batch) {
          if (!database.inTransaction) {
            // An error ended the transaction (not a constraint: those fail alone): nothing after it ran.
            results.push({ ok: false, value: new Error("The write was not run: the transaction it belonged to failed.") });
            continue;
          }
          try {
            results.push({ ok: true, value: run(write.prepared, write.params) });
          } catch (error) {
            results.push({ ok: false, value: error });
          }
        }
        try {
          if (database.inTransaction) commit.run();
        } catch (error) {
          if (database.inTransaction) database.exec("ROLLBACK");
          for (const write of batch) write.reject(error);
          continue;
        }
        batch.forEach((write, i) => (results[i].ok ? write.resolve(results[i].value) : write.reject(results[i].value)));
      }
    } finally {
      flushing = false;
    }
  }

  function write(entry: SqlitePrepared, params: unknown[]): Promise<unknown> {
    return new Promise((resolve, reject) => {
      queue.push({ prepared: entry, params, resolve, reject });
      // The first write of a turn schedules the commit; the turn's other writes join it.
      if (queue.length === 1 && !flushing) setImmediate(() => void flush());
    });
  }

  async function statementResult(strings: TemplateStringsArray, values: unknown[]) {
    const entry = prepare(strings);
    const params = values.map(sqliteValue);
    const result = entry.writes ? await write(entry, params) : await whenUnlocked(() => run(entry, params));
    return { entry, result };
  }

  return {
    async queryRows({ strings, values }) {
      const { entry, result } = await statementResult(strings, values);
      const rows = result as Record<string, unknown>[];
      if (entry.converters.length) for (const row of rows) for (const [name, convert] of entry.converters) row[name] = convert(row[name]);
      return rows;
    },
    async execute({ strings, values }) {
      const { entry, result } = await statementResult(strings, values);
      return entry.reader ? (result as unknown[]).length : (result as Database.RunResult).changes;
    },
    async close() {
      while (queue.length || flushing) await sleep(1);
      database.close();
    },
  };
}

/** Runs `work`; while the database is locked by another writer, tries again shortly after. */
async function whenUnlocked<T>(work: () => T): Promise<T> {
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      return work();
    } catch (error) {
      const code = (error as { code?: string }).code ?? "";
      if (!code.startsWith("SQLITE_BUSY") || Date.now() - started > LOCK_WAIT_MS) throw error;
      // Let this process's own transaction (if it holds the lock) move on, then look again.
      await sleep(Math.min(8, 2 ** attempt));
    }
  }
}

// PostgreSQL -----------------------------------------------------------------------------

const TIMESTAMP_OID = 1114;
const INT8_OID = 20;

/** Prisma stores DateTime as `timestamp(3)` in UTC; pg would read it as local time. */
const parseUtcTimestamp = (text: string) => new Date(`${text.replace(" ", "T")}Z`);

const postgresTypes = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === TIMESTAMP_OID) return parseUtcTimestamp;
    // COUNT(*) and other bigints: counts here are far below 2^53.
    if (oid === INT8_OID) return Number;
    return pg.types.getTypeParser(oid, format);
  },
};

function postgresValue(value: unknown): unknown {
  if (value === undefined) return null;
  // timestamp without time zone ignores the "Z": the UTC wall time is stored, as Prisma does.
  if (value instanceof Date) return value.toISOString();
  return value;
}

/**
 * Named statements on the pool Prisma uses: PostgreSQL parses and plans each once per
 * connection, then only binds values.
 */
function postgresEngine(pool: pg.Pool): Engine {
  const named = new WeakMap<TemplateStringsArray, { name: string; text: string }>();
  let count = 0;

  function prepare(strings: TemplateStringsArray) {
    let entry = named.get(strings);
    if (!entry) {
      entry = { name: `glow_hot_${++count}`, text: strings.reduce((text, part, i) => `${text}$${i}${part}`) };
      named.set(strings, entry);
    }
    return entry;
  }

  async function run({ strings, values }: Sql) {
    const { name, text } = prepare(strings);
    return pool.query({ name, text, values: values.map(postgresValue), types: postgresTypes as pg.CustomTypesConfig });
  }

  return {
    async queryRows(statement) {
      return (await run(statement)).rows;
    },
    async execute(statement) {
      return (await run(statement)).rowCount ?? 0;
    },
    async close() {},
  };
}
