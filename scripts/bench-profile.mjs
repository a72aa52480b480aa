// Where the CPU goes per finish: one server process under the routine benchmark's burst,
// profiled with V8's sampling profiler (`node --cpu-prof`), summed by where the code comes
// from. `node scripts/bench-profile.mjs` (after `npm run build`) on SQLite, or
// `node scripts/bench-profile.mjs postgresql` on a throwaway PostgreSQL. PROFILE_MEMBERS
// (default 1000) members finish at once, then the same again (duplicates), after a warm-up
// burst. Prints ms of CPU per request by part.
import { execFileSync, spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { finishAll, openDatabase, seedMembers } from "./bench-routine.mjs";
import { startThrowawayPostgres } from "./postgres.mjs";
import { part } from "./profile-parts.mjs";
import { serverReady } from "./server-ready.mjs";

const root = path.resolve(import.meta.dirname, "..");
process.chdir(root);
const MEMBERS = Number(process.env.PROFILE_MEMBERS ?? 1000);
const TOP = Number(process.env.PROFILE_TOP ?? 15);
const PORT = Number(process.env.BENCH_PORT ?? 3300) + 5;
const base = `http://127.0.0.1:${PORT}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "glow-profile-"));
const profileDir = path.join(dataDir, "profile");
const sessionSecret = crypto.randomBytes(32).toString("hex");
const database = process.argv[2] === "postgresql" ? "postgresql" : "sqlite";
const postgres = database === "postgresql" ? await startThrowawayPostgres({ settings: { synchronous_commit: "off" } }) : undefined;
const env = {
  ...process.env,
  NODE_ENV: "production",
  APP_ENV: "local",
  PORT: String(PORT),
  HOST: "127.0.0.1",
  DATA_DIR: dataDir,
  DATABASE_URL: postgres?.url ?? "",
  SESSION_SECRET: sessionSecret,
  REQUEST_LIMIT_PER_MINUTE: "1000000",
};

execFileSync("npx", ["prisma", "migrate", "deploy"], { env, stdio: "ignore" });
const server = spawn(process.execPath, ["--cpu-prof", `--cpu-prof-dir=${profileDir}`, "server.mjs"], { env, stdio: ["ignore", "ignore", "inherit"] });
await serverReady(base);
const db = await openDatabase({ database }, dataDir, postgres?.url);
const { members } = await seedMembers(db, sessionSecret, MEMBERS, 6, "profile");
const { members: warmUp } = await seedMembers(db, sessionSecret, MEMBERS, 0, "profile-warm");
await db.close();
await finishAll(base, warmUp, MEMBERS);
// V8 stamps samples with the system's monotonic clock, the one process.hrtime reads.
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);
const windowStart = monotonicUs();
await finishAll(base, members, MEMBERS);
await finishAll(base, members, MEMBERS);
const windowEnd = monotonicUs();
server.kill("SIGINT");
await new Promise((r) => server.once("exit", r));
await postgres?.stop();

// Only samples taken during the two measured bursts count.
const file = fs.readdirSync(profileDir).find((name) => name.endsWith(".cpuprofile"));
const profile = JSON.parse(fs.readFileSync(path.join(profileDir, file), "utf8"));
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const byPart = new Map();
const byFunction = new Map();
let time = profile.startTime;
if (profile.startTime > windowStart || profile.endTime < windowEnd)
  throw new Error("the profile's clock is not the monotonic clock; cannot find the bursts in it");
let total = 0;
for (let i = 0; i < profile.samples.length; i++) {
  time += profile.timeDeltas[i];
  if (time < windowStart || time > windowEnd) continue;
  const node = nodes.get(profile.samples[i]);
  const name = part(node);
  byPart.set(name, (byPart.get(name) ?? 0) + profile.timeDeltas[i]);
  const where = `${node.callFrame.functionName || "(anonymous)"} ${node.callFrame.url.split("/").slice(-2).join("/")}:${node.callFrame.lineNumber + 1}`;
  byFunction.set(where, (byFunction.get(where) ?? 0) + profile.timeDeltas[i]);
  total += profile.timeDeltas[i];
}
// PROFILE_KEEP=file: the profile is kept there (open it in Chrome's DevTools or speedscope).
if (process.env.PROFILE_KEEP) fs.copyFileSync(path.join(profileDir, file), process.env.PROFILE_KEEP);
fs.rmSync(dataDir, { recursive: true, force: true });
const requests = MEMBERS * 2;
console.log(
  `\nCPU per request, ${requests} finishes (${MEMBERS} first, ${MEMBERS} duplicates), one process on ${database === "postgresql" ? "PostgreSQL" : "SQLite"}, node ${process.version}\n`,
);
console.log("| part | ms per request | share |");
console.log("|---|---:|---:|");
for (const [name, us] of [...byPart].sort((a, b) => b[1] - a[1]))
  console.log(`| ${name} | ${(us / 1000 / requests).toFixed(3)} | ${((us / total) * 100).toFixed(1)}% |`);
console.log(`| all | ${(total / 1000 / requests).toFixed(3)} | |`);
console.log(`\nThe ${TOP} functions with the most CPU of their own:\n`);
for (const [name, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, TOP))
  console.log(`- ${name}: ${(us / 1000 / requests).toFixed(3)} ms per request`);
