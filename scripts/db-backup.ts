/**
 * `npm run db:backup -- FILE`: a consistent copy of the app's SQLite database, taken with
 * SQLite's online backup API while the app keeps running (it reads and writes as usual).
 *
 * The whole database is copied in one backup step, so the copy is one snapshot: a write
 * committed before the backup started is in it, one committed later is not, and nothing
 * is half there. The copy is written beside FILE, switched out of WAL mode (one
 * self-contained file), checked with integrity_check and only then renamed to FILE, so
 * FILE is either a whole, checked backup or absent. Restoring is in docs/operators.md
 * ("Backups").
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { resolveDatabaseUrl } from "../app/utils/database-url.server";
import { runtimeProblem } from "./runtime-check.mjs";

function fail(message: string, code = 1): never {
  console.error(`db:backup: ${message}`);
  process.exit(code);
}

const args = process.argv.slice(2);
if (args.length !== 1 || args[0].startsWith("-")) fail("usage: npm run db:backup -- FILE (the new backup file)", 2);
const destination = path.resolve(args[0]);

const problem = runtimeProblem();
if (problem) fail(problem);

// The same database the app opens: DATABASE_URL, else <DATA_DIR>/glow-coach.db.
const url = resolveDatabaseUrl(process.env);
if (!url.startsWith("file:"))
  fail(`DATABASE_URL is not a SQLite file (${url.split(":")[0]}:…); back up other databases with their own tools (pg_dump for PostgreSQL).`);
const source = path.resolve(url.slice("file:".length));
if (!fs.existsSync(source)) fail(`no database at ${source}: set DATA_DIR or DATABASE_URL as for the app.`);
if (fs.existsSync(destination)) fail(`${destination} already exists: choose a new file name.`);
if (!fs.existsSync(path.dirname(destination))) fail(`the folder ${path.dirname(destination)} does not exist.`);

const partial = `${destination}.partial-${process.pid}`;
const started = performance.now();
try {
  // Readable by this user only: the database holds session ids, which sign people in.
  fs.writeFileSync(partial, "", { mode: 0o600, flag: "wx" });
  const live = new Database(source, { fileMustExist: true, timeout: 10_000 });
  try {
    // After the first step has measured the database, copy every page in the next one: a
    // backup done in several steps starts over whenever the app writes in between.
    await live.backup(partial, { progress: () => 0x7fffffff });
  } finally {
    live.close();
  }
  const copy = new Database(partial);
  let integrity: unknown;
  try {
    copy.pragma("journal_mode = DELETE");
    integrity = copy.pragma("integrity_check", { simple: true });
  } finally {
    copy.close();
  }
  if (integrity !== "ok") throw new Error(`the copy failed integrity_check: ${String(integrity)}`);
  const fd = fs.openSync(partial, "r");
  fs.fsyncSync(fd);
  fs.closeSync(fd);
  fs.renameSync(partial, destination);
} catch (error) {
  fs.rmSync(partial, { force: true });
  fs.rmSync(`${partial}-journal`, { force: true });
  fail(error instanceof Error ? error.message : String(error));
}

const megabytes = (fs.statSync(destination).size / 1024 / 1024).toFixed(1);
console.log(`db:backup: ${source} → ${destination} (${megabytes} MB, integrity_check ok, ${Math.round(performance.now() - started)} ms)`);
