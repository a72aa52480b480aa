/**
 * One migrated SQLite database for the servers the server tests start with app-server.ts:
 * `npm start` runs `prisma migrate deploy` (seconds of CPU) before every server, which is
 * most of a server's start-up. Migrated once here, copied into each server's data folder.
 * Starting with migrations is itself tested (startup.test.ts, the browser suite's server).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const TEMPLATE_DIR = path.resolve("test-results/server-migrated-data");
export const MIGRATED_DATABASE = path.join(TEMPLATE_DIR, "glow-coach.db");

/** For the global setup: a fresh database with every migration applied. */
export function migrateTemplateDatabase(): void {
  fs.rmSync(TEMPLATE_DIR, { recursive: true, force: true });
  execFileSync("npx", ["prisma", "migrate", "deploy"], {
    env: { ...process.env, DATA_DIR: TEMPLATE_DIR, DATABASE_URL: "" },
    stdio: ["ignore", "ignore", "inherit"],
  });
}
