import path from "node:path";
import { defineConfig } from "vitest/config";

/**
 * Test files that need modules of their own: they set the environment before importing the app
 * (env.server.ts reads it once; a file that switches a setting with reloadEnv() instead shares
 * modules) or replace an app module with vi.mock. They run in the "fresh" project, each in a
 * new worker thread; every other file runs in the "shared" project, which shares one module
 * graph per worker, so the app, zod, Prisma and the content dataset load once per worker
 * instead of once per file (the unit suite took 69 s, 53 s of it loading modules).
 */
export const FRESH_MODULE_FILES = ["tests/unit/content-version.test.ts", "tests/unit/payments-fulfilment.test.ts"];

/**
 * The unit files that prove what differs on PostgreSQL: each tests an app module that writes
 * its own SQL (app/utils/sql.server.ts), a transaction, a lock or a race (one purchase, one
 * completion, one reminder, a limit counted exactly). With TEST_DATABASE_URL set (the PostgreSQL
 * stage of .ci/run) only these run; the rest is the same on both databases and ran on SQLite.
 * tests/unit/unit-suite-config.test.ts fails when a file testing such a module is missing here.
 */
export const POSTGRES_FILES = [
  "tests/unit/account-states.test.ts",
  "tests/unit/ad-conversions.test.ts",
  "tests/unit/admin-members.test.ts",
  "tests/unit/content-version.test.ts",
  "tests/unit/experiments-assignment.test.ts",
  "tests/unit/hot-path-sql.test.ts",
  "tests/unit/login-tokens.test.ts",
  "tests/unit/member-data-version.test.ts",
  "tests/unit/members-completions.test.ts",
  "tests/unit/members-home-streak.test.ts",
  "tests/unit/members-player.test.ts",
  "tests/unit/one-tap-stripe.test.ts",
  "tests/unit/one-tap.test.ts",
  "tests/unit/operations.test.ts",
  "tests/unit/pages-and-analytics.test.ts",
  "tests/unit/payments-fulfilment.test.ts",
  "tests/unit/payments-local-checkout.test.ts",
  "tests/unit/payments-webhooks.test.ts",
  "tests/unit/plan-rules.test.ts",
  "tests/unit/recovery.test.ts",
  "tests/unit/recovery-stripe.test.ts",
  "tests/unit/reminders-queue.test.ts",
  "tests/unit/request-limits.test.ts",
  "tests/unit/sql-tables.test.ts",
  "tests/unit/stored-page-reads.test.ts",
  "tests/unit/stored-pages.test.ts",
];

const onPostgres = /^postgres(ql)?:\/\//.test(process.env.TEST_DATABASE_URL ?? "");

/**
 * payments-fulfilment loads a second app instance (vi.resetModules) on PostgreSQL only; on
 * SQLite it runs every completion on one instance, so there it shares modules like any file.
 */
const FRESH_ON_POSTGRES_ONLY = ["tests/unit/payments-fulfilment.test.ts"];
const freshFiles = FRESH_MODULE_FILES.filter((file) => onPostgres || !FRESH_ON_POSTGRES_ONLY.includes(file));

type Project = "shared" | "fresh";

/** The files one project runs: on PostgreSQL, only those of POSTGRES_FILES. */
function projectFiles(project: Project): { include: string[]; exclude: string[] } {
  if (onPostgres) {
    const files = POSTGRES_FILES.filter((file) => freshFiles.includes(file) === (project === "fresh"));
    return { include: files, exclude: [] };
  }
  return project === "shared" ? { include: ["tests/unit/**/*.test.ts"], exclude: freshFiles } : { include: freshFiles, exclude: [] };
}

/** Workers of the shared project (processes); the fresh project's one thread is numbered after them. */
const SHARED_WORKERS = 2;

function unitProject(project: Project) {
  return {
    resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
    test: {
      name: project,
      ...projectFiles(project),
      environment: "node",
      // Processes sharing modules, or a thread per file: vitest isolates by pool, not by project.
      pool: project === "shared" ? ("forks" as const) : ("threads" as const),
      isolate: project === "fresh",
      // Each worker has its own data folder and database (tests/unit/worker-data.ts).
      setupFiles: ["tests/unit/worker-data.ts"],
      // Tests assert results, never speed (benchmarks measure speed): a machine busy with other
      // work may take several times longer than an idle one, which must not fail the suite.
      testTimeout: 30_000,
      hookTimeout: 60_000,
      // A SQLite file in the data folder, whatever DATABASE_URL the shell holds; PostgreSQL only
      // when asked for by TEST_DATABASE_URL (a throwaway server: the suite empties and copies it).
      env: {
        APP_ENV: "local",
        DATA_DIR: "test-results/unit-data",
        TEST_CLOCK: "1",
        ADMIN_EMAILS: "boss@glowcoach.test",
        DATABASE_URL: "",
        UNIT_WORKERS_BEFORE: String(project === "shared" ? 0 : SHARED_WORKERS),
      },
    },
  };
}

/**
 * The unit suite, one run (`npm run test:unit`): both projects at once, the shared one in two
 * processes and the fresh one in a thread beside them, so the fresh files fill the
 * cores while the shared ones run, and the suite starts vitest and migrates its database once.
 * Unit tests run without the Remix plugin: they test pure modules and server functions.
 */
export default defineConfig({
  test: {
    // Once for both projects: the migrated database each worker copies.
    globalSetup: ["tests/unit/global-setup.ts"],
    poolOptions: { forks: { isolate: false, maxForks: SHARED_WORKERS, minForks: 1 }, threads: { isolate: true, maxThreads: 1, minThreads: 1 } },
    projects: [unitProject("shared"), unitProject("fresh")],
  },
});
