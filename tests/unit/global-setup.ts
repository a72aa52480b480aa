// A fresh, migrated SQLite database for unit tests that touch Prisma.
import { execFileSync } from "node:child_process";
import fs from "node:fs";

export const UNIT_DATA_DIR = "test-results/unit-data";

export default function setup() {
  fs.rmSync(UNIT_DATA_DIR, { recursive: true, force: true });
  fs.mkdirSync(UNIT_DATA_DIR, { recursive: true });
  execFileSync("npx", ["prisma", "migrate", "deploy"], { env: { ...process.env, DATA_DIR: UNIT_DATA_DIR }, stdio: "ignore" });
}
