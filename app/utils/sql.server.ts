/**
 * Hot-path SQL: the few statements run on nearly every request (the session lookup, the
 * request limiter, the routine's reads and writes, the event log, the content version), sent
 * straight to the database driver and prepared once per connection. Through Prisma the same
 * statement cost 0.15-0.3 ms of CPU each (its query compiler and client runtime run per call,
 * and the SQLite adapter prepares every statement anew); here it is a few microseconds plus the
 * driver's own work (docs/decisions/0017-hot-path-sql.md). Everything else uses Prisma.
 *
 * Statements are built with Kysely against the tables of the Prisma schema (./sql-tables.ts),
 * so a table or column that does not exist, or a value of the wrong type, fails typecheck
 * (docs/decisions/0041-typed-sql.md). Each is built once, from its arguments, and compiled on
 * first use for this process's database; a run only binds values (building and compiling with
 * Kysely costs tens of microseconds, more than the rest of a hot-path call). Values are
 * always parameters. Values and rows are mapped the way Prisma stores them, so both can read
 * each other's rows: DateTime columns as Date, Boolean as boolean, integers as number.
 *
 *   const stepsOf = statement((userId: string) => query.selectFrom("PlanStepCompletion").select("step").where("userId", "=", userId));
 *   const rows = await queryRows(stepsOf, user.id);
 *
 * The few statements that must run inside a Prisma transaction are built the same way and run
 * through it (executeWithin).
 */
import { setTimeout as sleep } from "node:timers/promises";
import Database from "better-sqlite3";
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type Compilable,
} from "kysely";
import pg from "pg";
import { db, postgresPool, provider, sqliteFile, type DbTransaction } from "./db.server";
import { env } from "./env.server";
import type { Tables } from "./sql-tables";
import { describeStatement, noteStatement, type Statement as StatementShape } from "./statements.server";

/**
 * Builds statements for this process's database (its placeholders and dialect); it connects to
 * nothing: queryRows and execute run what it builds.
 */
export const query = new Kysely<Tables>({
  dialect:
    provider === "postgresql"
      ? {
          createAdapter: () => new PostgresAdapter(),
          createDriver: () => new DummyDriver(),
          createIntrospector: (kysely) => new PostgresIntrospector(kysely),
          createQueryCompiler: () => new PostgresQueryCompiler(),
        }
      : {
          createAdapter: () => new SqliteAdapter(),
          createDriver: () => new DummyDriver(),
          createIntrospector: (kysely) => new SqliteIntrospector(kysely),
          createQueryCompiler: () => new SqliteQueryCompiler(),
        },
});

/**
 * A statement and how to run it: `build` turns its arguments into a query, using each argument
 * as a value as it is (no arithmetic, no `??`: the caller works values out), because it is
 * called once, with stand-ins, to learn where each argument goes (plain parameters, no
 * defaults: their count is the function's `length`).
 */
export type Statement<Args extends unknown[], Row> = { readonly build: (...args: Args) => Compilable<Row> };

/** A statement's SQL, and per parameter the argument it takes (>= 0) or, at -1, a value of its own. */
type Compiled = { sql: string; argumentAt: number[]; fixed: unknown[]; writes: boolean; described: StatementShape };

export function statement<Args extends unknown[], Row>(build: (...args: Args) => Compilable<Row>): Statement<Args, Row> {
  return { build };
}

/** The stand-in for an argument while a statement is compiled. */
class Argument {
  constructor(readonly index: number) {}
}

/** Any statement, whatever its arguments and rows. */
type SomeStatement = { readonly build: (...args: never) => Compilable<unknown> };

const compiledStatements = new WeakMap<SomeStatement, Compiled>();

function compiled(statement: SomeStatement): Compiled {
  let entry = compiledStatements.get(statement);
  if (entry) return entry;
  const standIns = Array.from({ length: statement.build.length }, (_, i) => new Argument(i));
  const { sql, parameters, query: node } = (statement.build as (...args: Argument[]) => Compilable<unknown>)(...standIns).compile();
  const unused = standIns.find((argument) => !parameters.includes(argument));
  // An argument used in a computation, not as a value, would be bound wrongly: refused at once.
  if (unused) throw new Error(`The statement's argument ${unused.index + 1} is not one of its values: ${sql}`);
  entry = {
    sql,
    argumentAt: parameters.map((value) => (value instanceof Argument ? value.index : -1)),
    fixed: parameters.map((value) => (value instanceof Argument ? undefined : value)),
    writes: node.kind !== "SelectQueryNode",
    described: { ...describeStatement(sql), write: node.kind !== "SelectQueryNode" },
  };
  compiledStatements.set(statement, entry);
  return entry;
}

function bound({ argumentAt, fixed }: Compiled, args: unknown[]): unknown[] {
  return argumentAt.map((at, i) => (at < 0 ? fixed[i] : args[at]));
}

type Engine = {
  queryRows(statement: Compiled, values: unknown[]): Promise<Record<string, unknown>[]>;
  execute(statement: Compiled, values: unknown[]): Promise<number>;
  close(): Promise<void>;
};

/** Rows of a SELECT, or of a write with RETURNING. */
export async function queryRows<Args extends unknown[], Row>(statement: Statement<Args, Row>, ...args: Args): Promise<Row[]> {
  const entry = compiledForRun(statement);
  return (await engine().queryRows(entry, bound(entry, args))) as Row[];
}

/** Runs a write; answers the number of rows it changed. */
export async function execute<Args extends unknown[]>(statement: Statement<Args, unknown>, ...args: Args): Promise<number> {
  const entry = compiledForRun(statement);
  return engine().execute(entry, bound(entry, args));
}

/**
 * Runs a write inside a Prisma transaction (or on Prisma's own connection): for the statements
 * that must hold a lock or write together with the ORM's writes of the same transaction.
 * Prisma's driver adapter notes the write (db.server.ts).
 */
export async function executeWithin<Args extends unknown[]>(
  client: Pick<DbTransaction, "$executeRawUnsafe">,
  statement: Statement<Args, unknown>,
  ...args: Args
): Promise<number> {
  const entry = compiled(statement);
  return client.$executeRawUnsafe(entry.sql, ...bound(entry, args));
}

/** Rows of a SELECT run on Prisma's own connection (the health check asks Prisma itself). */
export async function queryRowsWithin<Args extends unknown[], Row>(
  client: Pick<DbTransaction, "$queryRawUnsafe">,
  statement: Statement<Args, Row>,
  ...args: Args
): Promise<Row[]> {
  const entry = compiled(statement);
  return client.$queryRawUnsafe<Row[]>(entry.sql, ...bound(entry, args));
}

/** Tells the statement's writes and tables to whoever listens (the page record: statements.server.ts). */
function compiledForRun(statement: SomeStatement): Compiled {
  const entry = compiled(statement);
  noteStatement(entry.described);
  return entry;
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
  const prepared = new WeakMap<Compiled, SqlitePrepared>();
  const begin = database.prepare("BEGIN IMMEDIATE");
  const commit = database.prepare("COMMIT");

  function prepare(compiled: Compiled): SqlitePrepared {
    let entry = prepared.get(compiled);
    if (!entry) {
      const statement = database.prepare(compiled.sql);
      const converters: [string, Convert][] = [];
      if (statement.reader) {
        for (const column of statement.columns()) {
          const type = column.type?.toUpperCase();
          if (type === "DATETIME") converters.push([column.name, toDate]);
          else if (type === "BOOLEAN") converters.push([column.name, toBoolean]);
        }
      }
      entry = { statement, reader: statement.reader, writes: !statement.readonly, converters };
      prepared.set(compiled, entry);
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

  async function statementResult(compiled: Compiled, values: unknown[]) {
    const entry = prepare(compiled);
    const params = values.map(sqliteValue);
    const result = entry.writes ? await write(entry, params) : await whenUnlocked(() => run(entry, params));
    return { entry, result };
  }

  return {
    async queryRows(compiled, values) {
      const { entry, result } = await statementResult(compiled, values);
      const rows = result as Record<string, unknown>[];
      if (entry.converters.length) for (const row of rows) for (const [name, convert] of entry.converters) row[name] = convert(row[name]);
      return rows;
    },
    async execute(compiled, values) {
      const { entry, result } = await statementResult(compiled, values);
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
  const names = new WeakMap<Compiled, string>();
  let count = 0;

  function nameOf(compiled: Compiled): string {
    let name = names.get(compiled);
    if (!name) {
      name = `glow_hot_${++count}`;
      names.set(compiled, name);
    }
    return name;
  }

  async function run(compiled: Compiled, values: unknown[]) {
    return pool.query({ name: nameOf(compiled), text: compiled.sql, values: values.map(postgresValue), types: postgresTypes as pg.CustomTypesConfig });
  }

  return {
    async queryRows(compiled, values) {
      return (await run(compiled, values)).rows;
    },
    async execute(compiled, values) {
      return (await run(compiled, values)).rowCount ?? 0;
    },
    async close() {},
  };
}
