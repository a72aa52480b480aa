// A fresh, migrated database for unit tests that touch Prisma: a SQLite file in the unit data
// folder, which each worker copies (tests/unit/worker-data.ts; migrated once per set of
// migrations and kept in test-results/unit-migrated), or, with
// TEST_DATABASE_URL=postgresql://… (the PostgreSQL stage of .ci/run), that database emptied
// and migrated, and one copy of it per worker. A DATABASE_URL in the shell is never used.
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";

export const UNIT_DATA_DIR = "test-results/unit-data";
/** Copies for the workers (vitest.config.ts: two processes and a thread; a spare). */
const POSTGRES_WORKERS = 4;

export function isPostgres(url: string | undefined): url is string {
  return !!url && /^postgres(ql)?:\/\//.test(url);
}

/** The database a worker uses: its own copy on PostgreSQL. */
export function workerDatabaseUrl(url: string, worker: string): string {
  const target = new URL(url);
  target.pathname = `${target.pathname}_worker_${worker}`;
  return target.toString();
}

async function run(url: string, statements: string[]) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

const SQLITE_MIGRATIONS = "prisma/migrations";

/**
 * The SQLite database `prisma migrate deploy` made from these migrations, kept from an earlier
 * run (the CLI takes about 2 s of CPU, before any test starts). Named by a hash of the
 * migration files, so a new or edited migration makes a new one.
 */
function migratedSqliteCopy(): string {
  const hash = crypto.createHash("sha256");
  for (const file of fs.readdirSync(SQLITE_MIGRATIONS, { recursive: true, encoding: "utf8" }).sort()) {
    const full = path.join(SQLITE_MIGRATIONS, file);
    if (fs.statSync(full).isFile()) hash.update(`${file}\0`).update(fs.readFileSync(full)).update("\0");
  }
  return path.join("test-results", "unit-migrated", `${hash.digest("hex").slice(0, 16)}.db`);
}

function migrate(url: string) {
  execFileSync("npx", ["prisma", "migrate", "deploy"], { env: { ...process.env, DATA_DIR: UNIT_DATA_DIR, DATABASE_URL: url }, stdio: "ignore" });
}

export default async function setup() {
  fs.rmSync(UNIT_DATA_DIR, { recursive: true, force: true });
  fs.mkdirSync(UNIT_DATA_DIR, { recursive: true });
  const url = process.env.TEST_DATABASE_URL ?? "";
  if (!isPostgres(url)) {
    const kept = migratedSqliteCopy();
    if (!fs.existsSync(kept)) {
      migrate(url);
      fs.rmSync(path.dirname(kept), { recursive: true, force: true });
      fs.mkdirSync(path.dirname(kept), { recursive: true });
      fs.copyFileSync(path.join(UNIT_DATA_DIR, "glow-coach.db"), kept);
    }
    fs.copyFileSync(kept, path.join(UNIT_DATA_DIR, "glow-coach.db"));
    return;
  }
  await run(url, ["DROP SCHEMA public CASCADE", "CREATE SCHEMA public"]);
  migrate(url);
  // A database per worker, copied from the migrated one (its template).
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  const copies = Array.from({ length: POSTGRES_WORKERS }, (_, i) => `${name}_worker_${i + 1}`);
  const admin = new URL(url);
  admin.pathname = "/postgres";
  await run(
    admin.toString(),
    copies.flatMap((copy) => [`DROP DATABASE IF EXISTS "${copy}"`, `CREATE DATABASE "${copy}" TEMPLATE "${name}"`]),
  );
}
