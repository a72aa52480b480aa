// better-sqlite3 is the one native module the server loads. A copy built for another Node.js
// (node_modules installed under another version, or a stray build/Release from a source
// build) fails only when the database is first used: pages that need no database would
// render while every write fails. Start-up checks it first and stops with the fix.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** null when better-sqlite3 loads and answers a query, else what to tell the operator. */
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
    const reason = String(error?.message ?? error).split("\n").join(" ").replace(/\s+/g, " ").trim();
    return (
      `better-sqlite3 cannot be loaded by this Node.js (${process.version}): it was installed or built for another version.\n` +
      `Fix: run \`npm rebuild\` with this Node.js (or \`rm -rf node_modules && npm ci\`), then start again.\n` +
      `(${reason})`
    );
  }
}

/** Stops the process with the message when the native module cannot be used. */
export function exitOnNativeModuleProblem() {
  const problem = nativeModuleProblem();
  if (!problem) return;
  console.error(problem);
  process.exit(1);
}
