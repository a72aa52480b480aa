// Where the CPU of one page request goes, page by page: one production server under
// `node --cpu-prof`, each page requested PROFILE_REQUESTS times one after another (after a
// warm-up) by a visitor who took two quiz steps and a signed-in member who owns a plan, as
// `npm run bench -- --only=funnel` does. Samples are summed per page by where the code comes
// from (scripts/profile-parts.mjs). `node scripts/bench-page-profile.mjs [checkout]` (built;
// default: this one). BENCH_PORT + 6 is its port.
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { codeInMailbox, cookiesAfter, cookiesAfterVisit } from "./bench-cookies.mjs";
import { part } from "./profile-parts.mjs";
import { grantPlan } from "./seed-entitlement.mjs";
import { serverReady } from "./server-ready.mjs";

const checkout = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, ".."));
const REQUESTS = Number(process.env.PROFILE_REQUESTS ?? 300);
const TOP = Number(process.env.PROFILE_TOP ?? 6);
const PORT = Number(process.env.BENCH_PORT ?? 3300) + 6;
const base = `http://127.0.0.1:${PORT}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "glow-page-profile-"));
const profileDir = path.join(dataDir, "profile");
const server = spawn(process.execPath, ["--cpu-prof", `--cpu-prof-dir=${profileDir}`, "scripts/start.mjs"], {
  cwd: checkout,
  env: {
    ...process.env,
    PORT: String(PORT),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    APP_ENV: "local",
    LOG_REQUESTS: "0",
    SESSION_SECRET: crypto.randomBytes(32).toString("hex"),
    REQUEST_LIMIT_PER_MINUTE: "1000000",
    TEST_CLOCK: "1",
  },
  stdio: ["ignore", "ignore", "inherit"],
});
await serverReady(base);

const quizPosts = [
  ["/quiz", ""],
  ["/quiz/1", "skinType=dry"],
  ["/quiz/2", "mainConcern=acne&mainConcern=redness"],
];
const visitor = await cookiesAfterVisit(base, "/subscribe", await cookiesAfter(base, quizPosts));
const email = `profile-${Date.now()}@glowcoach.test`;
const signedUp = await cookiesAfter(base, [
  ...quizPosts,
  ["/registration", new URLSearchParams({ name: "Profile Member", email, password: "bench-password-1", confirmPassword: "bench-password-1" }).toString()],
  ["/login/check-email", () => new URLSearchParams({ code: codeInMailbox(dataDir, email) }).toString()],
]);
const member = await cookiesAfterVisit(base, "/home", signedUp);
const writer = new Database(path.join(dataDir, "glow-coach.db"), { timeout: 10_000 });
grantPlan(writer, writer.prepare(`SELECT "id" FROM "User" WHERE "email" = ?`).get(email).id, "clear-healthy-skin");
writer.close();

let n = 0;
const pages = [
  ["GET /quiz/3", () => "/quiz/3", visitor],
  ["GET /quiz/3?render=n (nothing stored answers)", () => `/quiz/3?render=${n++}`, visitor],
  ["GET /subscribe", () => "/subscribe", visitor],
  ["GET /home", () => "/home", member],
  ["GET /plan/clear-healthy-skin", () => "/plan/clear-healthy-skin", member],
  ["GET /profile", () => "/profile", member],
];
const get = async (pathname, cookie) => {
  const response = await fetch(`${base}${pathname}`, { headers: { Cookie: cookie, "Accept-Encoding": "gzip" }, redirect: "manual" });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`GET ${pathname}: ${response.status}`);
  return response.headers.get("server-timing") === "stored-page";
};
// V8 stamps samples with the system's monotonic clock, the one process.hrtime reads.
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);
const windows = [];
for (const [name, pathOf, cookie] of pages) {
  for (let i = 0; i < 50; i++) await get(pathOf(), cookie);
  let stored = 0;
  const start = monotonicUs();
  for (let i = 0; i < REQUESTS; i++) if (await get(pathOf(), cookie)) stored++;
  windows.push({ name, start, end: monotonicUs(), stored });
}
server.kill("SIGINT");
await new Promise((r) => server.once("exit", r));

const file = fs.readdirSync(profileDir).find((name) => name.endsWith(".cpuprofile"));
const profile = JSON.parse(fs.readFileSync(path.join(profileDir, file), "utf8"));
fs.rmSync(dataDir, { recursive: true, force: true });
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
console.log(`\nCPU of one request per page (${REQUESTS} one after another, after 50), ${checkout}, node ${process.version}\n`);
for (const window of windows) {
  const byPart = new Map();
  const byFunction = new Map();
  let busy = 0;
  let time = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    time += profile.timeDeltas[i];
    if (time < window.start || time > window.end) continue;
    const node = nodes.get(profile.samples[i]);
    const name = part(node);
    if (name.startsWith("idle")) continue;
    busy += profile.timeDeltas[i];
    byPart.set(name, (byPart.get(name) ?? 0) + profile.timeDeltas[i]);
    const where = `${node.callFrame.functionName || "(anonymous)"} ${node.callFrame.url.split("/").slice(-2).join("/")}:${node.callFrame.lineNumber + 1}`;
    byFunction.set(where, (byFunction.get(where) ?? 0) + profile.timeDeltas[i]);
  }
  const ms = (us) => (us / 1000 / REQUESTS).toFixed(3);
  const parts = [...byPart]
    .sort((a, b) => b[1] - a[1])
    .filter(([, us]) => us / busy >= 0.03)
    .map(([name, us]) => `${name} ${ms(us)}`)
    .join("; ");
  console.log(`- **${window.name}**: ${ms(busy)} ms CPU per request (${window.stored}/${REQUESTS} from memory): ${parts}`);
  for (const [where, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`  - ${where}: ${ms(us)} ms`);
}
