import path from "node:path";
import { defineConfig } from "vitest/config";

/**
 * The server tests (tests/server): what needs a running, built server but no browser — the
 * request gate and limits by raw HTTP, start-up, workers, crash safety, the fuzz run, logs,
 * readiness and backups. Each file starts the production server it needs (its own data folder,
 * port and environment) and talks to it with `fetch`; no Chromium. `npm run test:server`.
 */
export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  test: {
    include: ["tests/server/**/*.test.ts"],
    environment: "node",
    globalSetup: ["tests/server/global-setup.ts"],
    // Two files at a time on these 2-core machines: each file's server is a process of its own.
    maxWorkers: 2,
    // Tests assert results, never speed: the longest (a SIGKILL sweep, 10,000 fuzz requests)
    // set their own limits; a busy machine may take several times an idle one's time.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // The servers' databases are their own SQLite files, never a DATABASE_URL the shell holds.
    env: { DATABASE_URL: "" },
  },
});
