// The routine section of `npm run bench`: 1,000 distinct members finish today's routine at
// the same moment (POST /plan/:id, intent=finish) on the production server and SQLite.
// Checks that every finish is recorded exactly once (then sends all 1,000 again: still one
// row each), and reports latency. A benchmark, not a test: it reports, it does not fail.
import crypto from "node:crypto";
import path from "node:path";
import fs from "node:fs";
import http from "node:http";
import Database from "better-sqlite3";
import { createCookie } from "@remix-run/node";
import { grantPlan } from "./seed-entitlement.mjs";

const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 1000);
const PLAN = "clear-healthy-skin";
const STEPS = 6;

const stored = (date) => date.toISOString().replace("Z", "+00:00");

/** Members with a session, the plan, and today's six steps done, written straight into the database. */
async function seedMembers(dataDir, sessionSecret) {
  const db = new Database(path.join(dataDir, "glow-coach.db"), { timeout: 10_000 });
  const now = new Date();
  const today = now.toISOString().slice(0, 10); // members without a zone live in UTC
  // Verified members whose day is held (they did today's steps, so the day's zone is fixed).
  const user = db.prepare(`INSERT INTO "User" ("id","email","role","timeZone","createdAt","emailVerifiedAt","lastActedOn") VALUES (?,?,?,?,?,?,?)`);
  const session = db.prepare(`INSERT INTO "Session" ("id","userId","expiresAt","createdAt") VALUES (?,?,?,?)`);
  const step = db.prepare(`INSERT INTO "PlanStepCompletion" ("userId","planId","date","step","createdAt") VALUES (?,?,?,?,?)`);
  const members = [];
  db.transaction(() => {
    for (let i = 0; i < MEMBERS; i++) {
      const id = crypto.randomUUID();
      const sessionId = crypto.randomBytes(24).toString("base64url");
      user.run(id, `bench-${i}-${id.slice(0, 8)}@glowcoach.test`, "user", "UTC", stored(now), stored(now), today);
      session.run(sessionId, id, stored(new Date(now.getTime() + 30 * 86_400_000)), stored(now));
      grantPlan(db, id, PLAN, { at: now });
      for (let n = 1; n <= STEPS; n++) step.run(id, PLAN, today, n, stored(now));
      members.push({ id, sessionId });
    }
  })();
  db.close();
  const cookie = createCookie("gc_session", { secrets: [sessionSecret] });
  for (const member of members) member.cookie = (await cookie.serialize(member.sessionId)).split(";")[0];
  return { members, today };
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function post(agent, url, cookie) {
  return new Promise((resolve, reject) => {
    const body = "intent=finish&step=6";
    const request = http.request(url, {
      method: "POST",
      agent,
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": Buffer.byteLength(body), Cookie: cookie },
    });
    request.on("response", (response) => {
      response.resume();
      response.on("end", () => resolve({ status: response.statusCode, location: response.headers.location ?? "" }));
    });
    request.on("error", reject);
    request.end(body);
  });
}

/** CPU time (user + system) the server process has used, in ms (Linux /proc; null elsewhere). */
function serverCpuMs(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in 1/100 s ticks
  } catch {
    return null;
  }
}

/** Sends one finish per member, `inFlight` at a time (all at once when inFlight >= members). */
async function finishAll(base, members, inFlight, pid) {
  const cpuBefore = serverCpuMs(pid);
  const agent = new http.Agent({ keepAlive: inFlight < 1000, maxSockets: inFlight });
  const url = `${base}/plan/${PLAN}`;
  const latencies = [];
  const statuses = new Map();
  let next = 0;
  async function worker() {
    while (next < members.length) {
      const member = members[next++];
      const started = performance.now();
      const { status, location } = await post(agent, url, member.cookie);
      latencies.push(performance.now() - started);
      const key = `${status} ${location}`;
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
    }
  }
  const wallStarted = performance.now();
  await Promise.all(Array.from({ length: Math.min(inFlight, members.length) }, worker));
  const wall = performance.now() - wallStarted;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const cpuAfter = serverCpuMs(pid);
  const cpuPerRequest = cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / members.length;
  return { wall, cpuPerRequest, statuses, p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies.at(-1) };
}

/**
 * The floor for the same burst: a bare node:http server that reads each form and answers
 * 303 → /home, doing no work at all, measured with the same client. What no server on this
 * machine can beat, so the finish route's burst is reported against it.
 */
async function bareFloor(members) {
  const bare = http.createServer((request, response) => {
    request.resume();
    request.on("end", () => response.writeHead(303, { Location: "/home" }).end());
  });
  await new Promise((resolve) => bare.listen({ port: 0, host: "127.0.0.1", backlog: 4096 }, resolve)); // as server.mjs
  const result = await finishAll(`http://127.0.0.1:${bare.address().port}`, members, members.length, null);
  bare.close();
  return result;
}

function countRows(dataDir, today) {
  const db = new Database(path.join(dataDir, "glow-coach.db"), { readonly: true });
  const row = db.prepare(`SELECT COUNT(*) AS rows, COUNT(DISTINCT "userId") AS members FROM "PlanCompletion" WHERE "planId" = ? AND "date" = ?`).get(PLAN, today);
  db.close();
  return row;
}

export async function benchRoutine({ base, dataDir, sessionSecret, serverPid }) {
  const { members, today } = await seedMembers(dataDir, sessionSecret);
  // Warm-up on other members' behalf would record rows; warm the route with a GET instead.
  for (let i = 0; i < 20; i++) await fetch(`${base}/plan/${PLAN}`, { headers: { Cookie: members[i].cookie } }).then((r) => r.arrayBuffer());

  const floor = await bareFloor(members);
  const rounds = [
    ["bare node:http answering 303 (no work: the floor)", floor],
    ["all 1,000 at once (first finish)", await finishAll(base, members, members.length, serverPid)],
    ["all 1,000 at once again (duplicates)", await finishAll(base, members, members.length, serverPid)],
  ];
  const afterBursts = countRows(dataDir, today);
  // The same requests with 50 in flight: the latency one request sees under steady load.
  const shuffled = [...members].sort(() => Math.random() - 0.5);
  rounds.push(["50 in flight (duplicates)", await finishAll(base, shuffled, 50, serverPid)]);
  const final = countRows(dataDir, today);

  console.log(`\n## Finish today's routine: ${members.length} distinct members, POST /plan/${PLAN} (intent=finish)\n`);
  console.log("| round | wall ms | p50 ms | p99 ms | max ms | server CPU ms / request | answers |");
  console.log("|---|---:|---:|---:|---:|---:|---|");
  for (const [name, r] of rounds) {
    const answers = [...r.statuses].map(([k, v]) => `${v}× ${k}`).join(", ");
    console.log(`| ${name} | ${r.wall.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.max.toFixed(1)} | ${r.cpuPerRequest?.toFixed(2) ?? "n/a"} | ${answers} |`);
  }
  const ours = rounds.slice(1);
  const allOk = ours.every(([, r]) => r.statuses.size === 1 && r.statuses.get("303 /home") === members.length);
  const exactlyOnce = afterBursts.rows === members.length && afterBursts.members === members.length && final.rows === members.length;
  console.log(`\nRows for today: ${final.rows} for ${final.members} members (expected ${members.length} each): ${exactlyOnce ? "each recorded exactly once" : "MISMATCH"}`);
  console.log(`Every request answered 303 → /home: ${allOk ? "yes" : "NO"}`);
  const p99 = rounds[1][1].p99;
  console.log(`p99 of the 1,000-at-once burst: ${p99.toFixed(1)} ms (target ≤ 50 ms): ${p99 <= 50 ? "met" : "NOT met"}`);
  console.log(`The same burst against the bare server: p99 ${floor.p99.toFixed(1)} ms, ${floor.wall.toFixed(0)} ms to answer all (ours: ${(floor.wall / rounds[1][1].wall * 100).toFixed(1)}% of the bare server's rate)`);
}
