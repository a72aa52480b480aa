import path from "node:path";
import { defineConfig } from "vitest/config";

// Unit tests run without the Remix plugin: they test pure modules and server functions.
export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  test: {
    include: ["tests/unit/**/*.test.ts"],
    environment: "node",
    globalSetup: ["tests/unit/global-setup.ts"],
    // One database file: test files run one at a time so they don't contend for it.
    fileParallelism: false,
    // The SQLite file in the data folder, whatever DATABASE_URL the shell holds; PostgreSQL only
    // when asked for by TEST_DATABASE_URL (a throwaway database: the suite empties it).
    env: { APP_ENV: "local", DATA_DIR: "test-results/unit-data", TEST_CLOCK: "1", ADMIN_EMAILS: "boss@glowcoach.test", DATABASE_URL: process.env.TEST_DATABASE_URL ?? "" },
  },
});
