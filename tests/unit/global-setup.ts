// A fresh, migrated database for unit tests that touch Prisma: a SQLite file in the unit data
// folder, or, with TEST_DATABASE_URL=postgresql://… (the PostgreSQL stage of .ci/run), that
// database emptied first. A DATABASE_URL in the shell is never used (vitest.config.ts).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import pg from "pg";

export const UNIT_DATA_DIR = "test-results/unit-data";

export default async function setup() {
  fs.rmSync(UNIT_DATA_DIR, { recursive: true, force: true });
  fs.mkdirSync(UNIT_DATA_DIR, { recursive: true });
  const url = process.env.TEST_DATABASE_URL ?? "";
  if (url && /^postgres(ql)?:\/\//.test(url)) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`DROP SCHEMA public CASCADE; CREATE SCHEMA public`);
    await client.end();
  }
  execFileSync("npx", ["prisma", "migrate", "deploy"], { env: { ...process.env, DATA_DIR: UNIT_DATA_DIR, DATABASE_URL: url }, stdio: "ignore" });
}
