import path from "node:path";
import { defineConfig } from "vitest/config";

// Unit tests run without the Remix plugin: they test pure modules and server functions.
export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  test: {
    include: ["tests/unit/**/*.test.ts"],
    environment: "node",
    globalSetup: ["tests/unit/global-setup.ts"],
    // Each worker has its own data folder and database (tests/unit/worker-data.ts).
    setupFiles: ["tests/unit/worker-data.ts"],
    maxWorkers: 2,
    // Tests assert results, never speed (benchmarks measure speed): a machine busy with other
    // work may take several times longer than an idle one, which must not fail the suite.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // A SQLite file in the data folder, whatever DATABASE_URL the shell holds; PostgreSQL only
    // when asked for by TEST_DATABASE_URL (a throwaway server: the suite empties and copies it).
    env: { APP_ENV: "local", DATA_DIR: "test-results/unit-data", TEST_CLOCK: "1", ADMIN_EMAILS: "boss@glowcoach.test", DATABASE_URL: "" },
  },
});
