// `npm start`: builds if needed, applies database migrations, then serves the
// production build with embedded defaults (no environment variables required), in one
// process or WEB_CONCURRENCY worker processes (scripts/serve.mjs).
import { execFileSync } from "node:child_process";
import path from "node:path";
import { buildIfStale } from "./build-if-stale.mjs";
import { exitOnRuntimeProblem } from "./runtime-check.mjs";

process.env.NODE_ENV = "production";
// Embedded defaults unless the operator says this is a real deployment.
process.env.APP_ENV ??= "local";

const root = path.resolve(import.meta.dirname, "..");
process.chdir(root);

// Before migrations: they use the same driver, and would fail with only "External error id#0".
exitOnRuntimeProblem();

buildIfStale();

// The migrations of the database DATABASE_URL names (prisma.config.ts picks SQLite's or
// PostgreSQL's), once, before any worker starts.
try {
  execFileSync("npx", ["prisma", "migrate", "deploy"], { stdio: ["ignore", "ignore", "inherit"] });
} catch {
  // Prisma takes the SQLite file for itself while migrating: a running app makes it fail
  // with only "SocketTimeout" (the database is busy).
  console.error(
    "\nnpm start: the database migrations failed (above). If the app is already running on this database, stop it first: migrations need the database to themselves.",
  );
  process.exit(1);
}

await import("./serve.mjs");
