// Where the CPU of one page request goes, page by page: one production server under
// `node --cpu-prof`, each page requested PROFILE_REQUESTS times one after another (after a
// warm-up) by a visitor who took two quiz steps and a signed-in member who owns a plan, as
// `npm run bench -- --only=funnel` does. Samples are summed per page by where the code comes
// from (scripts/profile-parts.mjs). `node scripts/bench-page-profile.mjs [checkout]` (built;
// default: this one). BENCH_PORT + 6 is its port.
//
// Also printed per page: the server process's own CPU time per request (Linux, /proc), which a
// busy machine does not inflate the way it stretches sampled time. PROFILE_CONNECTIONS=50 sends
// each page's requests from that many connections at once, without gzip, as
// `npm run bench -- --only=funnel` does; PROFILE_CPU_ONLY=1 attaches no profiler (process CPU
// time only); PROFILE_PAGES=render keeps the pages whose name contains it.
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import Database from "better-sqlite3";
import { codeInMailbox, cookiesAfter, cookiesAfterVisit } from "./bench-cookies.mjs";
import { part } from "./profile-parts.mjs";
import { grantPlan } from "./seed-entitlement.mjs";
import { serverReady } from "./server-ready.mjs";

const checkout = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, ".."));
const REQUESTS = Number(process.env.PROFILE_REQUESTS ?? 300);
const TOP = Number(process.env.PROFILE_TOP ?? 6);
const PORT = Number(process.env.BENCH_PORT ?? 3300) + 6;
const CONNECTIONS = Number(process.env.PROFILE_CONNECTIONS ?? 0);
const CPU_ONLY = process.env.PROFILE_CPU_ONLY === "1";
const base = `http://127.0.0.1:${PORT}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "glow-page-profile-"));
const profileDir = path.join(dataDir, "profile");
const server = spawn(process.execPath, [...(CPU_ONLY ? [] : ["--cpu-prof", `--cpu-prof-dir=${profileDir}`]), "scripts/start.mjs"], {
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
// A failed request stops this script: the server must not outlive it.
process.on("exit", () => server.kill("SIGKILL"));
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
/** The server process's CPU time so far (user + system), in ms; null where /proc is missing. */
const serverCpuMs = () => {
  try {
    const fields = fs.readFileSync(`/proc/${server.pid}/stat`, "utf8").split(") ")[1].split(" ");
    // utime + stime, in clock ticks of 10 ms (USER_HZ is 100 on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
};
/** `REQUESTS` requests to one page from CONNECTIONS connections (autocannon, no gzip, as the bench); answers how many were 200. */
const fromConnections = (pathOf, cookie) =>
  new Promise((resolve, reject) =>
    autocannon(
      {
        url: `${base}${pathOf()}`,
        connections: CONNECTIONS,
        amount: REQUESTS,
        headers: { cookie },
        requests: [{ setupRequest: (req) => ({ ...req, path: pathOf() }) }],
      },
      (error, result) => (error ? reject(error) : resolve(result["2xx"])),
    ),
  );
// V8 stamps samples with the system's monotonic clock, the one process.hrtime reads.
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);
const windows = [];
const cpuPerRequest = [];
for (const [name, pathOf, cookie] of pages.filter(([name]) => name.includes(process.env.PROFILE_PAGES ?? ""))) {
  for (let i = 0; i < 50; i++) await get(pathOf(), cookie);
  let stored = 0;
  const cpuBefore = serverCpuMs();
  const start = monotonicUs();
  if (CONNECTIONS) {
    const ok = await fromConnections(pathOf, cookie);
    if (ok !== REQUESTS) throw new Error(`${name}: ${REQUESTS - ok} of ${REQUESTS} requests were not 200`);
  } else for (let i = 0; i < REQUESTS; i++) if (await get(pathOf(), cookie)) stored++;
  windows.push({ name, start, end: monotonicUs(), stored: CONNECTIONS ? "?" : stored });
  const cpuAfter = serverCpuMs();
  if (cpuBefore !== null) cpuPerRequest.push(`- ${name}: ${((cpuAfter - cpuBefore) / REQUESTS).toFixed(3)} ms`);
}
server.kill("SIGINT");
await new Promise((r) => server.once("exit", r));

const how = CONNECTIONS ? `${CONNECTIONS} connections, no gzip` : "one after another";
console.log(`\nServer process CPU time per request (${REQUESTS} per page, ${how}, after 50), ${checkout}${CPU_ONLY ? "" : ", profiler attached"}\n`);
console.log(cpuPerRequest.join("\n"));
if (CPU_ONLY) {
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
}
const file = fs.readdirSync(profileDir).find((name) => name.endsWith(".cpuprofile"));
const profile = JSON.parse(fs.readFileSync(path.join(profileDir, file), "utf8"));
fs.rmSync(dataDir, { recursive: true, force: true });
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
console.log(`\nCPU of one request per page, sampled (${REQUESTS} ${how}, after 50), ${checkout}, node ${process.version}\n`);
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
