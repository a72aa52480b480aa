// What start-up (npm start, npm run serve, npm run dev, npm test, db:backup) checks before
// anything else, stopping with the fix instead of failing later in a confusing way:
//  - Node.js 22.12 or newer: on older versions the SQLite driver (better-sqlite3 13, a
//    Node-API binary for Node 22+) crashes the process as it loads, without a word.
//  - better-sqlite3 loads and answers. A copy built for another Node.js (node_modules
//    installed under another version, or a stray build/Release from a source build) fails
//    only when the database is first used: pages that need no database would render while
//    every write fails.
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const require = createRequire(import.meta.url);

export const MINIMUM_NODE = [22, 12];

/** null when `version` (such as "v24.1.0") is supported, else what to tell the person. */
export function nodeVersionProblem(version = process.version) {
  const [major, minor] = version.replace(/^v/, "").split(".").map(Number);
  if (major > MINIMUM_NODE[0] || (major === MINIMUM_NODE[0] && minor >= MINIMUM_NODE[1])) return null;
  return (
    `Glow Coach needs Node.js 22.12 or newer (24 recommended, see .nvmrc); this is Node.js ${version}.\n` +
    "Install Node.js 24 (with nvm: `nvm install`; or from npm: `npm install --prefix ~/node24 node@24`, then put ~/node24/node_modules/.bin first on PATH), then run `npm ci` again."
  );
}

/** null when better-sqlite3 loads and answers a query, else what to tell the person. */
export function nativeModuleProblem() {
  try {
    const Database = require("better-sqlite3");
    const db = new Database(":memory:");
    try {
      db.prepare("SELECT 1").get();
    } finally {
      db.close();
    }
    return null;
  } catch (error) {
    const reason = String(error?.message ?? error)
      .split("\n")
      .join(" ")
      .replace(/\s+/g, " ")
      .trim();
    return (
      `better-sqlite3 cannot be loaded by this Node.js (${process.version}): it was installed or built for another version.\n` +
      "Fix: run `npm rebuild` with this Node.js (or `rm -rf node_modules && npm ci`), then start again.\n" +
      `(${reason})`
    );
  }
}

/** The first problem, checking the Node version before loading anything native. */
export function runtimeProblem() {
  return nodeVersionProblem() ?? nativeModuleProblem();
}

/** Stops the process with the message when this runtime cannot run the app. */
export function exitOnRuntimeProblem() {
  const problem = runtimeProblem();
  if (!problem) return;
  console.error(problem);
  process.exit(1);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) exitOnRuntimeProblem();
