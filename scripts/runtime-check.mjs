// What start-up (npm start, npm run serve, npm run dev, npm test, db:backup) checks before
// anything else, stopping with the fix instead of failing later in a confusing way:
//  - a Node.js that package.json's `engines` names (22.12+, 24 or 26: the LTS lines CI runs,
//    ADR 30). The check reads `engines` itself, so the two never disagree. Older versions crash
//    as the SQLite driver (better-sqlite3 13, a Node-API binary for Node 22+) loads, without a
//    word; odd-numbered and not yet released lines are untested.
//  - better-sqlite3 loads and answers. A copy built for another Node.js (node_modules
//    installed under another version, or a stray build/Release from a source build) fails
//    only when the database is first used: pages that need no database would render while
//    every write fails.
import fs from "node:fs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const require = createRequire(import.meta.url);

/** package.json's `engines.node`, such as "^22.12.0 || ^24.0.0 || ^26.0.0". */
export const SUPPORTED_NODE = JSON.parse(fs.readFileSync(new URL("../package.json", import.meta.url), "utf8")).engines.node;

const parts = (version) => version.replace(/^[v^]/, "").split(".").map(Number);

/** Whether `version` satisfies `range`: caret ranges ("^22.12.0") joined by "||", all `engines` uses. */
export function satisfiesCaretRanges(version, range) {
  const [major, minor, patch] = parts(version);
  return range.split("||").some((each) => {
    const caret = each.trim();
    if (!/^\^\d+\.\d+\.\d+$/.test(caret)) throw new Error(`engines.node: expected caret ranges such as ^24.0.0, got "${caret}"`);
    const [wantMajor, wantMinor, wantPatch] = parts(caret);
    return major === wantMajor && (minor > wantMinor || (minor === wantMinor && patch >= wantPatch));
  });
}

/** How people read the supported versions: "22 (22.12 or newer), 24 or 26". */
function supportedInWords(range) {
  const words = range.split("||").map((each) => {
    const [major, minor, patch] = parts(each.trim());
    return minor || patch ? `${major} (${major}.${minor}${patch ? `.${patch}` : ""} or newer)` : String(major);
  });
  return words.length > 1 ? `${words.slice(0, -1).join(", ")} or ${words.at(-1)}` : words[0];
}

/** null when `version` (such as "v24.1.0") is supported, else what to tell the person. */
export function nodeVersionProblem(version = process.version, range = SUPPORTED_NODE) {
  if (satisfiesCaretRanges(version, range)) return null;
  return (
    `Glow Coach runs on Node.js ${supportedInWords(range)} (24 recommended, see .nvmrc); this is Node.js ${version}.\n` +
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
