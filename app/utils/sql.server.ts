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
  return (await engine().queryRows(statement)) as T[];
}

/** Runs a write; answers the number of rows it changed. */
export async function execute(statement: Sql): Promise<number> {
  return engine().execute(statement);
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
type SqlitePrepared = { statement: Database.Statement; reader: boolean; converters: [string, Convert][] };

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
 * A connection of its own beside Prisma's, on the same file. Its statements run whole within
 * one tick, so they never hold a lock anyone waits on across an await. When another
 * connection is writing, it waits for the lock briefly (BUSY_WAIT_MS, blocking: another
 * worker process's write takes microseconds, unless that process was descheduled mid-write),
 * then yields and tries again a moment later, up to LOCK_WAIT_MS: a Prisma transaction in
 * this same process holds the lock across awaits and can only finish if this one yields.
 */
const BUSY_WAIT_MS = 20;
const LOCK_WAIT_MS = 15_000;

function sqliteEngine(file: string): Engine {
  const database = new Database(file, { timeout: BUSY_WAIT_MS });
  database.pragma("journal_mode = WAL");
  database.pragma("synchronous = NORMAL");
  const prepared = new WeakMap<TemplateStringsArray, SqlitePrepared>();

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
      entry = { statement, reader: statement.reader, converters };
      prepared.set(strings, entry);
    }
    return entry;
  }

  return {
    async queryRows({ strings, values }) {
      const { statement, converters } = prepare(strings);
      const rows = (await whenUnlocked(() => statement.all(...values.map(sqliteValue)))) as Record<string, unknown>[];
      if (converters.length) for (const row of rows) for (const [name, convert] of converters) row[name] = convert(row[name]);
      return rows;
    },
    async execute({ strings, values }) {
      const { statement, reader } = prepare(strings);
      const params = values.map(sqliteValue);
      if (reader) return (await whenUnlocked(() => statement.all(...params))).length;
      return (await whenUnlocked(() => statement.run(...params))).changes;
    },
    async close() {
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
