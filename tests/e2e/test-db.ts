/**
 * The e2e server's database, for seeding and checking what was stored: the SQLite file in
 * the e2e data folder, or the PostgreSQL database in E2E_DATABASE_URL (the PostgreSQL stage
 * of .ci/run). Statements use `?` placeholders and quoted identifiers, valid on both.
 * Rows come back alike from both: booleans as booleans, numbers as numbers, DateTime columns
 * as the ISO text the app's SQLite adapter stores ("2026-11-23T10:00:00.000+00:00").
 */
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";

export const E2E_DB = path.resolve("test-results/e2e-data/glow-coach.db");
/** PostgreSQL instead of the SQLite file, when set (playwright.config.ts passes it to the app). */
export const E2E_DATABASE_URL = process.env.E2E_DATABASE_URL || undefined;

/** DateTime as the app's Prisma adapter stores it in SQLite. */
export const stored = (date: Date) => date.toISOString().replace("Z", "+00:00");

type Row = Record<string, unknown>;

function sqliteParam(value: unknown): unknown {
  if (value instanceof Date) return stored(value);
  if (typeof value === "boolean") return value ? 1 : 0;
  return value ?? null;
}

function sqlite(file: string, text: string, params: unknown[], write: boolean): Row[] | number {
  const db = new Database(file, { fileMustExist: true, timeout: 10_000 });
  try {
    const statement = db.prepare(text);
    const values = params.map(sqliteParam);
    if (write && !statement.reader) return statement.run(...values).changes;
    const booleans = statement
      .columns()
      .filter((c) => c.type?.toUpperCase() === "BOOLEAN")
      .map((c) => c.name);
    const rows = statement.all(...values) as Row[];
    for (const row of rows) for (const name of booleans) if (row[name] !== null) row[name] = row[name] === 1;
    return rows;
  } finally {
    db.close();
  }
}

const postgresTypes = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    // timestamp(3) holds UTC: give it back as SQLite's stored text.
    if (oid === 1114) return (text: string) => stored(new Date(`${text.replace(" ", "T")}Z`));
    if (oid === 20) return Number;
    return pg.types.getTypeParser(oid, format);
  },
};

let pool: pg.Pool | undefined;
async function postgres(text: string, params: unknown[], write: boolean): Promise<Row[] | number> {
  pool ??= new pg.Pool({ connectionString: E2E_DATABASE_URL, max: 2, allowExitOnIdle: true });
  let n = 0;
  const numbered = text.replace(/\?/g, () => `$${++n}`);
  const values = params.map((value) => (value instanceof Date ? value.toISOString() : (value ?? null)));
  const result = await pool.query({ text: numbered, values, types: postgresTypes as pg.CustomTypesConfig });
  return write ? (result.rowCount ?? 0) : result.rows;
}

/** Rows of a SELECT. */
export async function rows<T = Row>(text: string, ...params: unknown[]): Promise<T[]> {
  return (E2E_DATABASE_URL ? await postgres(text, params, false) : sqlite(E2E_DB, text, params, false)) as T[];
}

/** Runs a write; answers the number of rows changed. */
export async function run(text: string, ...params: unknown[]): Promise<number> {
  return (E2E_DATABASE_URL ? await postgres(text, params, true) : sqlite(E2E_DB, text, params, true)) as number;
}

/**
 * The database of the e2e server, or (with `dataDir`) the SQLite file of a server a spec
 * started with a data folder of its own.
 */
export function databaseOf(dataDir?: string): { rows: typeof rows; run: typeof run } {
  if (!dataDir) return { rows, run };
  const file = path.join(dataDir, "glow-coach.db");
  return {
    rows: async <T = Row>(text: string, ...params: unknown[]) => sqlite(file, text, params, false) as T[],
    run: async (text: string, ...params: unknown[]) => sqlite(file, text, params, true) as number,
  };
}
