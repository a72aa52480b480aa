// `npm run bench`: server throughput, measured in one run on this machine.
// `npm run bench -- --only=funnel`, `--only=routine` or `--only=lighthouse` runs one section.
//
// GET /quiz/3 (a visitor with two answers saved) on the production server, against a
// bare node:http server returning the very same HTML bytes. autocannon, 50
// connections, 10 s each, after a short warm-up. Prints a Markdown table for
// docs/benchmarks.md. A benchmark, not a test: it reports, it does not fail the build.
import { execFileSync, spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { benchLighthouse } from "./bench-lighthouse.mjs";
import { benchRoutine } from "./bench-routine.mjs";

const root = path.resolve(import.meta.dirname, "..");
process.chdir(root);
const PORT = Number(process.env.BENCH_PORT ?? 3300);
const BARE_PORT = PORT + 1;
const CONNECTIONS = 50;
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const base = `http://127.0.0.1:${PORT}`;

if (!fs.existsSync("build/server/index.js")) execFileSync("npm", ["run", "build"], { stdio: "inherit" });

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "glow-bench-"));
const only = process.argv.find((a) => a.startsWith("--only="))?.slice("--only=".length);
// A known secret, so the routine section can sign session cookies for the members it creates.
const SESSION_SECRET = crypto.randomBytes(32).toString("hex");
const server = spawn(process.execPath, ["scripts/start.mjs"], {
  env: { ...process.env, PORT: String(PORT), HOST: "127.0.0.1", DATA_DIR: dataDir, APP_ENV: "local", LOG_REQUESTS: "0", SESSION_SECRET, REQUEST_LIMIT_PER_MINUTE: "1000000" },
  stdio: ["ignore", "ignore", "inherit"],
});
const stop = () => server.kill("SIGTERM");
process.on("exit", stop);

async function waitForServer() {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${base}/`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("the server did not start");
}

/** A cookie jar of one: keeps the latest value of each cookie. */
const jar = new Map();
function remember(response) {
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(";");
    const at = pair.indexOf("=");
    jar.set(pair.slice(0, at), pair.slice(at + 1));
  }
}
const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");

async function post(pathname, body) {
  const response = await fetch(`${base}${pathname}`, {
    method: "POST",
    body,
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookieHeader() },
  });
  remember(response);
  if (response.status !== 303) throw new Error(`POST ${pathname}: ${response.status}`);
}

function run(url, headers, extra = {}) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers, ...extra }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/** Every request a different query string: the page cache never answers, React renders each time. */
let n = 0;
const uncached = { requests: [{ setupRequest: (req) => ({ ...req, path: `/quiz/3?render=${n++}` }) }] };

function warmUp(url, headers) {
  return new Promise((resolve, reject) => autocannon({ url, connections: 10, duration: 2, headers }, (e) => (e ? reject(e) : resolve())));
}

await waitForServer();

if (!only || only === "funnel") {
  await post("/quiz", "");
  await post("/quiz/1", "skinType=dry");
  await post("/quiz/2", "mainConcern=acne&mainConcern=redness");
  const headers = { cookie: cookieHeader() };
  const page = await fetch(`${base}/quiz/3`, { headers, redirect: "manual" });
  if (page.status !== 200) throw new Error(`GET /quiz/3: ${page.status}`);
  const html = Buffer.from(await page.arrayBuffer());
  if (!html.includes("Step 3 of 12")) throw new Error("GET /quiz/3 did not render step 3");

  const bare = http.createServer((req, res) => {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Length": html.length });
    res.end(html);
  });
  await new Promise((r) => bare.listen(BARE_PORT, "127.0.0.1", r));

  await warmUp(`http://127.0.0.1:${BARE_PORT}/quiz/3`, headers);
  const bareResult = await run(`http://127.0.0.1:${BARE_PORT}/quiz/3`, headers);
  await warmUp(`${base}/quiz/3`, headers);
  const ours = await run(`${base}/quiz/3`, headers);
  const rendered = await run(`${base}/quiz/3`, headers, uncached);
  bare.close();

  const rows = [
    ["bare node:http, same bytes", bareResult],
    ["Glow Coach GET /quiz/3", ours],
    ["Glow Coach GET /quiz/3?render=n (page cache bypassed)", rendered],
  ];
  const ratio = ours.requests.average / bareResult.requests.average;
  const errors = ours.errors + ours.non2xx;

  console.log(`\n${CONNECTIONS} connections, ${DURATION} s each, ${html.length} bytes of HTML, node ${process.version}, ${os.cpus().length} cores\n`);
  console.log("| server | req/s (mean) | p50 ms | p99 ms | non-2xx + errors |");
  console.log("|---|---:|---:|---:|---:|");
  for (const [name, r] of rows) {
    console.log(`| ${name} | ${r.requests.average.toFixed(0)} | ${r.latency.p50} | ${r.latency.p99} | ${r.non2xx + r.errors} |`);
  }
  console.log(`\nThroughput ratio (ours / bare): ${(ratio * 100).toFixed(1)}% (target ≥ 30%)`);
  console.log(`p99 latency: ${ours.latency.p99} ms (target ≤ 50 ms)`);
  console.log(`Full render on every request: ${((rendered.requests.average / bareResult.requests.average) * 100).toFixed(1)}% of bare, p99 ${rendered.latency.p99} ms`);
  console.log(ratio >= 0.3 && ours.latency.p99 <= 50 && errors === 0 ? "Targets met." : "Targets NOT met.");
}

if (!only || only === "routine") {
  await benchRoutine({ base, dataDir, sessionSecret: SESSION_SECRET, serverPid: server.pid });
}

if (!only || only === "lighthouse") {
  await benchLighthouse({ base });
}

stop();
fs.rmSync(dataDir, { recursive: true, force: true });
