// Each vitest worker gets a data folder of its own, with a copy of the migrated database
// (tests/unit/global-setup.ts): a SQLite file, or its own PostgreSQL database with
// TEST_DATABASE_URL. So test files run in parallel without sharing a database, a dev mailbox
// or a test clock. Runs before each test file imports the app.
import fs from "node:fs";
import path from "node:path";
import { isPostgres, UNIT_DATA_DIR, workerDatabaseUrl } from "./global-setup";

// The fresh project's thread is numbered after the shared project's processes (vitest.config.ts):
// each pool counts its workers from 1.
const worker = String(Number(process.env.UNIT_WORKERS_BEFORE ?? 0) + Number(process.env.VITEST_POOL_ID ?? 1));
const dir = path.join(UNIT_DATA_DIR, `worker-${worker}`);
const postgresUrl = process.env.TEST_DATABASE_URL;
if (isPostgres(postgresUrl)) {
  fs.mkdirSync(dir, { recursive: true });
  process.env.DATABASE_URL = workerDatabaseUrl(postgresUrl, worker);
} else if (!fs.existsSync(path.join(dir, "glow-coach.db"))) {
  fs.mkdirSync(dir, { recursive: true });
  fs.copyFileSync(path.join(UNIT_DATA_DIR, "glow-coach.db"), path.join(dir, "glow-coach.db"));
}
process.env.DATA_DIR = dir;
