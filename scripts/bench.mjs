// `npm run bench`: server throughput, measured in one run on this machine.
// `npm run bench -- --only=funnel`, `--only=routine`, `--only=load`, `--only=quiz` or `--only=lighthouse`
// runs one section.
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
import Database from "better-sqlite3";
import { grantPlan } from "./seed-entitlement.mjs";
import { benchLighthouse } from "./bench-lighthouse.mjs";
import { benchLoad } from "./bench-load.mjs";
import { benchQuiz } from "./bench-quiz.mjs";
import { benchRoutine } from "./bench-routine.mjs";
import { codeInMailbox, cookiesAfter } from "./bench-cookies.mjs";

const root = path.resolve(import.meta.dirname, "..");
process.chdir(root);
const PORT = Number(process.env.BENCH_PORT ?? 3300);
const BARE_PORT = PORT + 1;
const CONNECTIONS = 50;
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const base = `http://127.0.0.1:${PORT}`;

if (!fs.existsSync("build/server/index.js")) execFileSync("npm", ["run", "build"], { stdio: "inherit" });

const only = process.argv.find((a) => a.startsWith("--only="))?.slice("--only=".length);

// The routine section starts servers of its own, one set-up after another (bench-routine.mjs).
if (only === "routine") {
  await benchRoutine({ port: PORT });
  process.exit(0);
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "glow-bench-"));
const SESSION_SECRET = crypto.randomBytes(32).toString("hex");
// BENCH_CPU_PROF=dir: the server writes a V8 CPU profile there when it stops (node --cpu-prof).
const profileArgs = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
const server = spawn(process.execPath, [...profileArgs, "scripts/start.mjs"], {
  env: {
    ...process.env,
    PORT: String(PORT),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    APP_ENV: "local",
    LOG_REQUESTS: "0",
    SESSION_SECRET,
    // The load section gives each simulated member its own address and day (see bench-load.mjs).
    REQUEST_LIMIT_PER_MINUTE: "1000000",
    TRUST_PROXY: "1",
    TEST_CLOCK: "1",
  },
  stdio: ["ignore", "ignore", "inherit"],
});
const stop = () => server.kill("SIGTERM");
process.on("exit", stop);

async function waitForServer() {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${base}/`)).ok) return;
    } catch {
      // Not listening yet: try again.
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("the server did not start");
}

function run(url, headers, extra = {}) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers, ...extra }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/** Every request a different query string: the page cache never answers, React renders each time. */
let n = 0;
const uncached = {
  requests: [{ setupRequest: (req) => ({ ...req, path: `/quiz/3?render=${n++}` }) }],
};

function warmUp(url, headers) {
  return new Promise((resolve, reject) => autocannon({ url, connections: 10, duration: 2, headers }, (e) => (e ? reject(e) : resolve())));
}

await waitForServer();

/** GET `pathname` on our server against a bare node:http server answering with the same bytes. */
async function againstBare(pathname, headers, mustShow) {
  const page = await fetch(`${base}${pathname}`, {
    headers,
    redirect: "manual",
  });
  if (page.status !== 200) throw new Error(`GET ${pathname}: ${page.status}`);
  const html = Buffer.from(await page.arrayBuffer());
  if (!html.includes(mustShow)) throw new Error(`GET ${pathname} did not show "${mustShow}"`);
  const bare = http.createServer((_req, res) => {
    res.writeHead(200, {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Length": html.length,
    });
    res.end(html);
  });
  await new Promise((r) => bare.listen(BARE_PORT, "127.0.0.1", r));
  await warmUp(`http://127.0.0.1:${BARE_PORT}${pathname}`, headers);
  const bareResult = await run(`http://127.0.0.1:${BARE_PORT}${pathname}`, headers);
  bare.close();
  await warmUp(`${base}${pathname}`, headers);
  const ours = await run(`${base}${pathname}`, headers);
  return { bytes: html.length, bareResult, ours };
}

if (!only || only === "funnel") {
  const quizPosts = [
    ["/quiz", ""],
    ["/quiz/1", "skinType=dry"],
    ["/quiz/2", "mainConcern=acne&mainConcern=redness"],
  ];
  const visitor = { cookie: await cookiesAfter(base, quizPosts) };
  const quiz = await againstBare("/quiz/3", visitor, "Step 3 of 12");
  const rendered = await run(`${base}/quiz/3`, visitor, uncached);
  const offer = await againstBare("/subscribe", visitor, "Unlock My Clear Skin Plan");
  // A visitor who takes the quiz, signs up and confirms the address with the e-mail's code:
  // /home as a signed-in member (rendered per member, never cached).
  const memberEmail = `bench-home-${Date.now()}@glowcoach.test`;
  const member = {
    cookie: await cookiesAfter(base, [
      ...quizPosts,
      [
        "/registration",
        new URLSearchParams({
          name: "Bench Member",
          email: memberEmail,
          password: "bench-password-1",
          confirmPassword: "bench-password-1",
        }).toString(),
      ],
      ["/login/check-email", () => new URLSearchParams({ code: codeInMailbox(dataDir, memberEmail) }).toString()],
    ]),
  };
  // The member owns the skincare plan (as after a purchase): /home shows it, /plan/:id plays it.
  const writer = new Database(path.join(dataDir, "glow-coach.db"), { timeout: 10_000 });
  grantPlan(writer, writer.prepare(`SELECT "id" FROM "User" WHERE "email" = ?`).get(memberEmail).id, "clear-healthy-skin");
  writer.close();
  const home = await againstBare("/home", member, "Current Streak");
  const planPath = "/plan/clear-healthy-skin";
  const player = await againstBare(planPath, member, "Routine progress");
  const profile = await againstBare("/profile", member, memberEmail);

  const pages = [
    ["GET /quiz/3 (answers cookie)", quiz],
    ["GET /subscribe (same visitor)", offer],
    ["GET /home (signed-in member)", home],
    [`GET ${planPath} (signed-in member)`, player],
    ["GET /profile (signed-in member)", profile],
  ];
  const row = (name, r) => `| ${name} | ${r.requests.average.toFixed(0)} | ${r.latency.p50} | ${r.latency.p99} | ${r.non2xx + r.errors} |`;
  console.log(`\n${CONNECTIONS} connections, ${DURATION} s each, node ${process.version}, ${os.cpus().length} cores\n`);
  console.log("| server | req/s (mean) | p50 ms | p99 ms | non-2xx + errors |");
  console.log("|---|---:|---:|---:|---:|");
  for (const [name, { bytes, bareResult, ours }] of pages) {
    console.log(row(`bare node:http, the same ${bytes} bytes as ${name.split(" ")[1]}`, bareResult));
    console.log(row(`Glow Coach ${name}`, ours));
  }
  console.log(row("Glow Coach GET /quiz/3?render=n (page cache bypassed)", rendered));
  console.log("");
  for (const [name, { bareResult, ours }] of pages) {
    const ratio = ours.requests.average / bareResult.requests.average;
    const met = ratio >= 0.3 && ours.latency.p99 <= 50 && ours.errors + ours.non2xx === 0;
    console.log(`${name}: ${(ratio * 100).toFixed(1)}% of bare (target ≥ 30%), p99 ${ours.latency.p99} ms (target ≤ 50 ms): ${met ? "met" : "NOT met"}`);
  }
  console.log(
    `Full render on every request: ${((rendered.requests.average / quiz.bareResult.requests.average) * 100).toFixed(
      1,
    )}% of bare, p99 ${rendered.latency.p99} ms`,
  );
}

if (!only) {
  // Its own servers: this one pauses meanwhile.
  await benchRoutine({ port: PORT + 2 });
}

if (!only || only === "load") {
  await benchLoad({ base, dataDir });
}

if (!only || only === "quiz") {
  await benchQuiz({ base });
}

if (!only || only === "lighthouse") {
  await benchLighthouse({ base, dataDir });
}

stop();
fs.rmSync(dataDir, { recursive: true, force: true });
