// Builds the production app (and Prisma's clients) when the build is missing or older than
// any of its sources. `npm start` and the e2e servers use it, so a server started later in a
// test run never rebuilds under the servers already running.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

function newestMtime(entry) {
  if (!fs.existsSync(entry)) return 0;
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...fs.readdirSync(entry).map((name) => newestMtime(path.join(entry, name))));
}

/** Run from the repository's root. */
export function buildIfStale() {
  if (!fs.existsSync("app/generated/prisma/client.ts") || !fs.existsSync("app/generated/prisma-postgresql/client.ts")) {
    execFileSync(process.execPath, ["scripts/db.mjs", "generate"], { stdio: "inherit" });
  }
  const builtAt = newestMtime("build/server/index.js");
  const sources = ["app", "public", "vite.config.ts", "package-lock.json", "prisma/schema.prisma"];
  if (builtAt === 0 || sources.some((source) => newestMtime(source) > builtAt)) {
    console.log("Building the app…");
    execFileSync("npx", ["remix", "vite:build"], { stdio: "inherit" });
  }
}
