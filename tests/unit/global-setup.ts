// A fresh, migrated database for unit tests that touch Prisma: a SQLite file in the unit data
// folder, which each worker copies (tests/unit/worker-data.ts), or, with
// TEST_DATABASE_URL=postgresql://… (the PostgreSQL stage of .ci/run), that database emptied
// and migrated, and one copy of it per worker. A DATABASE_URL in the shell is never used.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import pg from "pg";

export const UNIT_DATA_DIR = "test-results/unit-data";
/** Copies for the workers (vitest.config.ts runs at most 2; a few spare). */
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

export default async function setup() {
  fs.rmSync(UNIT_DATA_DIR, { recursive: true, force: true });
  fs.mkdirSync(UNIT_DATA_DIR, { recursive: true });
  const url = process.env.TEST_DATABASE_URL ?? "";
  if (isPostgres(url)) await run(url, ["DROP SCHEMA public CASCADE", "CREATE SCHEMA public"]);
  execFileSync("npx", ["prisma", "migrate", "deploy"], { env: { ...process.env, DATA_DIR: UNIT_DATA_DIR, DATABASE_URL: url }, stdio: "ignore" });
  if (isPostgres(url)) {
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
}
