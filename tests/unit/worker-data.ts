// Each vitest worker gets a data folder of its own, with a copy of the migrated database
// (tests/unit/global-setup.ts), so test files run in parallel without sharing a SQLite
// file, a dev mailbox or a test clock. Runs before each test file imports the app.
import fs from "node:fs";
import path from "node:path";
import { UNIT_DATA_DIR } from "./global-setup";

const dir = path.join(UNIT_DATA_DIR, `worker-${process.env.VITEST_POOL_ID ?? "1"}`);
if (!fs.existsSync(path.join(dir, "glow-coach.db"))) {
  fs.mkdirSync(dir, { recursive: true });
  fs.copyFileSync(path.join(UNIT_DATA_DIR, "glow-coach.db"), path.join(dir, "glow-coach.db"));
}
process.env.DATA_DIR = dir;
