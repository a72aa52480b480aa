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
import { codeInMailbox, cookiesAfter, cookiesAfterVisit } from "./bench-cookies.mjs";
import { serverReady } from "./server-ready.mjs";

const root = path.resolve(import.meta.dirname, "..");
process.chdir(root);
const PORT = Number(process.env.BENCH_PORT ?? 3300);
const BARE_PORT = PORT + 1;
const CONNECTIONS = 50;
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);

if (!fs.existsSync("build/server/index.js")) execFileSync("npm", ["run", "build"], { stdio: "inherit" });

const only = process.argv.find((a) => a.startsWith("--only="))?.slice("--only=".length);

// The routine section starts servers of its own, one set-up after another (bench-routine.mjs).
if (only === "routine") {
  await benchRoutine({ port: PORT });
  process.exit(0);
}

// BENCH_CPU_PROF=dir: the server writes a V8 CPU profile there when it stops (node --cpu-prof).
const profileArgs = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
const servers = [];
process.on("exit", () => servers.forEach((s) => s.kill("SIGTERM")));

/** The production server of the checkout in `dir` on `port`, on a fresh data folder. */
async function startServer(dir, port) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "glow-bench-"));
  const server = spawn(process.execPath, [...profileArgs, "scripts/start.mjs"], {
    cwd: dir,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      APP_ENV: "local",
      LOG_REQUESTS: "0",
      SESSION_SECRET: crypto.randomBytes(32).toString("hex"),
      // The load section gives each simulated member its own address and day (see bench-load.mjs).
      REQUEST_LIMIT_PER_MINUTE: "1000000",
      TRUST_PROXY: "1",
      TEST_CLOCK: "1",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  servers.push(server);
  const base = `http://127.0.0.1:${port}`;
  await serverReady(base, `the server in ${dir}`);
  return { base, dataDir, stop: () => server.kill("SIGTERM") };
}

const main = await startServer(root, PORT);
const { base, dataDir } = main;
// BENCH_BEFORE=dir: another checkout (built) measured in the same run, page by page, between
// the bare server and this one: before and after a change, in the same conditions.
const before = process.env.BENCH_BEFORE ? await startServer(path.resolve(process.env.BENCH_BEFORE), PORT + 3) : undefined;

function run(url, headers, extra = {}) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers, ...extra }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/** Every request a different query string: no stored page ever answers, React renders each time. */
let n = 0;
const uncached = {
  requests: [{ setupRequest: (req) => ({ ...req, path: `/quiz/3?render=${n++}` }) }],
};

function warmUp(url, headers) {
  return new Promise((resolve, reject) => autocannon({ url, connections: 10, duration: 2, headers }, (e) => (e ? reject(e) : resolve())));
}

async function pageBytes(serverBase, pathname, headers, mustShow) {
  const page = await fetch(`${serverBase}${pathname}`, { headers, redirect: "manual" });
  if (page.status !== 200) throw new Error(`GET ${serverBase}${pathname}: ${page.status}`);
  const html = Buffer.from(await page.arrayBuffer());
  if (!html.includes(mustShow)) throw new Error(`GET ${serverBase}${pathname} did not show "${mustShow}"`);
  return html;
}

/** GET `pathname` on each server (`who`: its cookies) after a bare node:http server answering with our page's bytes. */
async function againstBare(pathname, who, mustShow) {
  const html = await pageBytes(base, pathname, who.ours, mustShow);
  const bare = http.createServer((_req, res) => {
    res.writeHead(200, {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Length": html.length,
    });
    res.end(html);
  });
  await new Promise((r) => bare.listen(BARE_PORT, "127.0.0.1", r));
  await warmUp(`http://127.0.0.1:${BARE_PORT}${pathname}`, who.ours);
  const bareResult = await run(`http://127.0.0.1:${BARE_PORT}${pathname}`, who.ours);
  bare.close();
  let beforeResult;
  if (before) {
    await pageBytes(before.base, pathname, who.before, mustShow);
    await warmUp(`${before.base}${pathname}`, who.before);
    beforeResult = await run(`${before.base}${pathname}`, who.before);
  }
  await warmUp(`${base}${pathname}`, who.ours);
  const ours = await run(`${base}${pathname}`, who.ours);
  return { bytes: html.length, bareResult, beforeResult, ours };
}

/** A visitor who answered two skin-quiz questions and opened the offer once (its countdown started). */
async function visitorOf(server) {
  const quizPosts = [
    ["/quiz", ""],
    ["/quiz/1", "skinType=dry"],
    ["/quiz/2", "mainConcern=acne&mainConcern=redness"],
  ];
  return { cookie: await cookiesAfterVisit(server.base, "/subscribe", await cookiesAfter(server.base, quizPosts)) };
}

/**
 * A visitor who takes the quiz, signs up, confirms the address with the e-mail's code and has
 * seen the welcome toast once (it is cleared after one page), then owns the skincare plan (an
 * entitlement written as a purchase would): /home shows it, /plan/:id plays it.
 */
async function memberOf(server, memberEmail) {
  const cookie = await cookiesAfter(server.base, [
    ["/quiz", ""],
    ["/quiz/1", "skinType=dry"],
    ["/quiz/2", "mainConcern=acne&mainConcern=redness"],
    [
      "/registration",
      new URLSearchParams({ name: "Bench Member", email: memberEmail, password: "bench-password-1", confirmPassword: "bench-password-1" }).toString(),
    ],
    ["/login/check-email", () => new URLSearchParams({ code: codeInMailbox(server.dataDir, memberEmail) }).toString()],
  ]);
  const member = { cookie: await cookiesAfterVisit(server.base, "/home", cookie) };
  const writer = new Database(path.join(server.dataDir, "glow-coach.db"), { timeout: 10_000 });
  grantPlan(writer, writer.prepare(`SELECT "id" FROM "User" WHERE "email" = ?`).get(memberEmail).id, "clear-healthy-skin");
  writer.close();
  return member;
}

if (!only || only === "funnel") {
  const memberEmail = `bench-home-${Date.now()}@glowcoach.test`;
  const visitor = { ours: await visitorOf(main), before: before ? await visitorOf(before) : undefined };
  const member = { ours: await memberOf(main, memberEmail), before: before ? await memberOf(before, memberEmail) : undefined };
  const quiz = await againstBare("/quiz/3", visitor, "Step 3 of 12");
  const offer = await againstBare("/subscribe", visitor, "Unlock My Clear Skin Plan");
  const home = await againstBare("/home", member, "Current Streak");
  const planPath = "/plan/clear-healthy-skin";
  const player = await againstBare(planPath, member, "Routine progress");
  const profile = await againstBare("/profile", member, memberEmail);
  const renderedBefore = before ? await run(`${before.base}/quiz/3`, visitor.before, uncached) : undefined;
  const rendered = await run(`${base}/quiz/3`, visitor.ours, uncached);

  const pages = [
    ["GET /quiz/3 (answers cookie)", quiz],
    ["GET /subscribe (same visitor)", offer],
    ["GET /home (signed-in member)", home],
    [`GET ${planPath} (signed-in member)`, player],
    ["GET /profile (signed-in member)", profile],
  ];
  const row = (name, r) => `| ${name} | ${r.requests.average.toFixed(0)} | ${r.latency.p50} | ${r.latency.p99} | ${r.non2xx + r.errors} |`;
  console.log(
    `\n${CONNECTIONS} connections, ${DURATION} s each, node ${process.version}, ${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}\n`,
  );
  console.log("| server | req/s (mean) | p50 ms | p99 ms | non-2xx + errors |");
  console.log("|---|---:|---:|---:|---:|");
  for (const [name, { bytes, bareResult, beforeResult, ours }] of pages) {
    console.log(row(`bare node:http, the same ${bytes} bytes as ${name.split(" ")[1]}`, bareResult));
    if (beforeResult) console.log(row(`before (${process.env.BENCH_BEFORE}) ${name}`, beforeResult));
    console.log(row(`Glow Coach ${name}`, ours));
  }
  if (renderedBefore) console.log(row("before: GET /quiz/3?render=n (nothing stored answers)", renderedBefore));
  console.log(row("Glow Coach GET /quiz/3?render=n (nothing stored answers)", rendered));
  console.log("");
  for (const [name, { bareResult, beforeResult, ours }] of pages) {
    const ratio = ours.requests.average / bareResult.requests.average;
    const met = ratio >= 0.3 && ours.latency.p99 <= 50 && ours.errors + ours.non2xx === 0;
    const was = beforeResult
      ? ` (before: ${((beforeResult.requests.average / bareResult.requests.average) * 100).toFixed(1)}%, p99 ${beforeResult.latency.p99} ms)`
      : "";
    console.log(`${name}: ${(ratio * 100).toFixed(1)}% of bare (target ≥ 30%), p99 ${ours.latency.p99} ms (target ≤ 50 ms): ${met ? "met" : "NOT met"}${was}`);
  }
  const share = (r) => `${((r.requests.average / quiz.bareResult.requests.average) * 100).toFixed(1)}% of bare, p99 ${r.latency.p99} ms`;
  console.log(`Full render on every request: ${share(rendered)}${renderedBefore ? ` (before: ${share(renderedBefore)})` : ""}`);
  before?.stop();
  if (before) fs.rmSync(before.dataDir, { recursive: true, force: true });
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

main.stop();
fs.rmSync(dataDir, { recursive: true, force: true });
