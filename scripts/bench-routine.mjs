// The routine section of `npm run bench`: 1,000 distinct members finish today's routine at
// the same moment (POST /plan/:id, intent=finish), on three set-ups, each on a fresh database
// with servers of its own:
//   (a) one process on SQLite   (b) WEB_CONCURRENCY=2 on SQLite   (c) WEB_CONCURRENCY=2 on PostgreSQL
// Each burst is reported as a share of the floor: the same burst, from the same client, against
// a bare node:http server doing no work, measured just before it. Then the same 1,000 again
// (all duplicates) and once more with 50 in flight; every finish must be stored exactly once.
// BENCH_ROUTINE=a,c runs some of them. A benchmark, not a test: it reports, it does not fail.
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { createCookie } from "@remix-run/node";
import { startThrowawayPostgres } from "./postgres.mjs";
import { ENTITLEMENT_INSERT, STATE_INSERT, planRows } from "./seed-entitlement.mjs";

const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 1000);
/** Members who warm the route up first; their completions are deleted before the measured bursts. */
const WARM_UP = 200;
const PLAN = "clear-healthy-skin";
const STEPS = 6;

const SETUPS = [
  { key: "a", name: "(a) one process, SQLite", workers: 1, database: "sqlite" },
  { key: "b", name: "(b) WEB_CONCURRENCY=2, SQLite", workers: 2, database: "sqlite" },
  { key: "c", name: "(c) WEB_CONCURRENCY=2, PostgreSQL", workers: 2, database: "postgresql" },
];

/** One statement runner for either database, for seeding and counting. */
export async function openDatabase(setup, dataDir, postgresUrl) {
  if (setup.database === "sqlite") {
    const db = new Database(path.join(dataDir, "glow-coach.db"), { timeout: 10_000 });
    const stored = (value) => (value instanceof Date ? value.toISOString().replace("Z", "+00:00") : typeof value === "boolean" ? Number(value) : value);
    return {
      async insertMany(sql, rows) {
        const statement = db.prepare(sql);
        db.transaction(() => rows.forEach((row) => statement.run(...row.map(stored))))();
      },
      async get(sql, ...params) {
        return db.prepare(sql).get(...params);
      },
      async run(sql, ...params) {
        db.prepare(sql).run(...params);
      },
      async close() {
        db.close();
      },
    };
  }
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  const numbered = (sql) => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
  };
  const value = (v) => (v instanceof Date ? v.toISOString() : v);
  return {
    async insertMany(sql, rows) {
      await client.query("BEGIN");
      for (const row of rows) await client.query(numbered(sql), row.map(value));
      await client.query("COMMIT");
    },
    async get(sql, ...params) {
      const row = (await client.query(numbered(sql), params)).rows[0];
      return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)]));
    },
    async run(sql, ...params) {
      await client.query(numbered(sql), params);
    },
    async close() {
      await client.end();
    },
  };
}

/** Members with a session and the plan, written straight into the database; `steps` of today's six done. */
export async function seedMembers(db, sessionSecret, count, steps, label) {
  const now = new Date();
  const today = now.toISOString().slice(0, 10); // members without a zone live in UTC
  const members = [];
  const users = [];
  const sessions = [];
  const done = [];
  const entitlements = [];
  const states = [];
  for (let i = 0; i < count; i++) {
    const id = crypto.randomUUID();
    const sessionId = crypto.randomBytes(24).toString("base64url");
    users.push([id, `${label}-${i}-${id.slice(0, 8)}@glowcoach.test`, "user", "UTC", now, now, today]);
    sessions.push([sessionId, id, new Date(now.getTime() + 30 * 86_400_000), now]);
    const bought = planRows(id, PLAN, { at: now });
    entitlements.push(bought.entitlement);
    states.push(bought.state);
    for (let n = 1; n <= steps; n++) done.push([id, PLAN, today, n, now]);
    members.push({ id, sessionId });
  }
  // Verified members whose day is held (they did today's steps, so the day's zone is fixed).
  await db.insertMany(`INSERT INTO "User" ("id","email","role","timeZone","createdAt","emailVerifiedAt","lastActedOn") VALUES (?,?,?,?,?,?,?)`, users);
  await db.insertMany(`INSERT INTO "Session" ("id","userId","expiresAt","createdAt") VALUES (?,?,?,?)`, sessions);
  // Each has bought the plan (the routine is for members who paid for it).
  await db.insertMany(ENTITLEMENT_INSERT, entitlements);
  await db.insertMany(STATE_INSERT, states);
  if (done.length) await db.insertMany(`INSERT INTO "PlanStepCompletion" ("userId","planId","date","step","createdAt") VALUES (?,?,?,?,?)`, done);
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

/** CPU time (user + system) a process and its children have used, in ms (Linux /proc). */
function cpuMs(pid) {
  if (!pid) return null;
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    let ms = ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in 1/100 s ticks
    for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
      const children = fs.readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim();
      for (const child of children ? children.split(" ") : []) ms += cpuMs(Number(child)) ?? 0;
    }
    return ms;
  } catch {
    return null;
  }
}

/** Sends one finish per member, `inFlight` at a time (all at once when inFlight >= members). */
export async function finishAll(base, members, inFlight, pids = []) {
  const cpuBefore = pids.map(cpuMs);
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
  const cpu = pids.map((pid, i) => {
    const after = cpuMs(pid);
    return after === null || cpuBefore[i] === null ? null : (after - cpuBefore[i]) / members.length;
  });
  return { wall, cpu, statuses, p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies.at(-1) };
}

/**
 * The floor for the same burst: a bare node:http server that reads each form and answers
 * 303 → /home, doing no work at all, measured with the same client. What no server on this
 * machine can beat, so the finish route's burst is reported against it: the fastest of three
 * tries just before the burst (a slow try, when something else ran, would flatter the share).
 */
async function bareFloor(members) {
  const bare = http.createServer((request, response) => {
    request.resume();
    request.on("end", () => response.writeHead(303, { Location: "/home" }).end());
  });
  await new Promise((resolve) => bare.listen({ port: 0, host: "127.0.0.1", backlog: 4096 }, resolve)); // as server.mjs
  const tries = [];
  for (let i = 0; i < 3; i++) tries.push(await finishAll(`http://127.0.0.1:${bare.address().port}`, members, members.length));
  bare.close();
  // The first try is how the floor was measured before (one try); the best is the floor.
  return { ...tries.reduce((a, b) => (b.wall < a.wall ? b : a)), firstWall: tries[0].wall };
}

async function startApp({ port, dataDir, sessionSecret, workers, databaseUrl }) {
  const server = spawn(process.execPath, ["scripts/start.mjs"], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      APP_ENV: "local",
      SESSION_SECRET: sessionSecret,
      REQUEST_LIMIT_PER_MINUTE: "1000000",
      WEB_CONCURRENCY: String(workers),
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (server.exitCode !== null) throw new Error("the app did not start");
    if (
      await fetch(`${base}/`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (i > 600) throw new Error("the app did not answer");
    await new Promise((r) => setTimeout(r, 250));
  }
  // Every worker listens before the burst (each prints its ready line; wait for the count).
  await new Promise((r) => setTimeout(r, workers > 1 ? 1500 : 0));
  return {
    base,
    pid: server.pid,
    stop: () =>
      new Promise((resolve) => {
        if (server.exitCode !== null) return resolve();
        server.once("exit", resolve);
        server.kill("SIGTERM");
      }),
  };
}

async function runSetup(setup, { port, postgres }) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "glow-bench-routine-"));
  const sessionSecret = crypto.randomBytes(32).toString("hex");
  let databaseUrl;
  if (setup.database === "postgresql") {
    const name = `bench_${setup.key}_${crypto.randomBytes(3).toString("hex")}`;
    const admin = new pg.Client({ connectionString: postgres.adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    await admin.end();
    databaseUrl = postgres.url.replace(/\/[^/]*$/, `/${name}`);
  }
  const app = await startApp({ port, dataDir, sessionSecret, workers: setup.workers, databaseUrl });
  try {
    return await measure(setup, app, { dataDir, sessionSecret, databaseUrl, postgres });
  } finally {
    await app.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function measure(setup, app, { dataDir, sessionSecret, databaseUrl, postgres }) {
  const db = await openDatabase(setup, dataDir, databaseUrl);
  const { members, today } = await seedMembers(db, sessionSecret, MEMBERS, STEPS, `bench-${setup.key}`);
  const { members: warmUp } = await seedMembers(db, sessionSecret, WARM_UP, STEPS, `warm-${setup.key}`);
  // Warm-up on the same route, as a server that has been running meets a burst: the warm-up
  // members finish (all at once, then again 50 at a time), and their rows are deleted after.
  for (let i = 0; i < 20; i++) await fetch(`${app.base}/plan/${PLAN}`, { headers: { Cookie: members[i].cookie } }).then((r) => r.arrayBuffer());
  await finishAll(app.base, warmUp, WARM_UP);
  await finishAll(app.base, warmUp, 50);
  await db.run(`DELETE FROM "PlanCompletion" WHERE "userId" IN (${warmUp.map(() => "?").join(",")})`, ...warmUp.map((m) => m.id));

  const pids = [app.pid, postgres?.postmasterPid()].filter(Boolean);
  const floor = await bareFloor(members);
  const rounds = [
    ["bare node:http answering 303 (no work: the floor)", floor],
    ["all 1,000 at once (first finish)", await finishAll(app.base, members, members.length, pids)],
    ["all 1,000 at once again (duplicates)", await finishAll(app.base, members, members.length, pids)],
  ];
  const count = `SELECT COUNT(*) AS "rows", COUNT(DISTINCT "userId") AS "members" FROM "PlanCompletion" WHERE "planId" = ? AND "date" = ?`;
  const afterBursts = await db.get(count, PLAN, today);
  // The same requests with 50 in flight: the latency one request sees under steady load.
  const shuffled = [...members].sort(() => Math.random() - 0.5);
  rounds.push(["50 in flight (duplicates)", await finishAll(app.base, shuffled, 50, pids)]);
  const final = await db.get(count, PLAN, today);
  await db.close();

  const ms = (value) => (value === null || value === undefined ? "n/a" : value.toFixed(2));
  console.log(`\n### ${setup.name}\n`);
  console.log(
    `| round | wall ms | p50 ms | p99 ms | max ms | app CPU ms / request | ${setup.database === "postgresql" ? "PostgreSQL CPU ms / request | " : ""}answers |`,
  );
  console.log(`|---|---:|---:|---:|---:|---:|${setup.database === "postgresql" ? "---:|" : ""}---|`);
  for (const [name, r] of rounds) {
    const answers = [...r.statuses].map(([k, v]) => `${v}× ${k}`).join(", ");
    const database = setup.database === "postgresql" ? ` ${ms(r.cpu[1])} |` : "";
    console.log(
      `| ${name} | ${r.wall.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.max.toFixed(1)} | ${ms(r.cpu[0])} |${database} ${answers} |`,
    );
  }
  const burst = rounds[1][1];
  const allOk = rounds.slice(1).every(([, r]) => r.statuses.size === 1 && r.statuses.get("303 /home") === members.length);
  const exactlyOnce = afterBursts.rows === members.length && afterBursts.members === members.length && final.rows === members.length;
  const share = (floor.wall / burst.wall) * 100;
  const shareOfFirstTry = (floor.firstWall / burst.wall) * 100;
  console.log(
    `\nRows for today: ${final.rows} for ${final.members} members (expected ${members.length} each): ${exactlyOnce ? "each recorded exactly once" : "MISMATCH"}`,
  );
  console.log(`Every request answered 303 → /home: ${allOk ? "yes" : "NO"}`);
  console.log(
    `First burst: ${burst.wall.toFixed(0)} ms against the floor's ${floor.wall.toFixed(0)} ms (best of three; first try ${floor.firstWall.toFixed(0)} ms): **${share.toFixed(1)}% of the bare server's rate** (${shareOfFirstTry.toFixed(1)}% of its first try's) (p99 ${burst.p99.toFixed(0)} ms, floor p99 ${floor.p99.toFixed(0)} ms)`,
  );
  return { setup, share, shareOfFirstTry, exactlyOnce, allOk };
}

export async function benchRoutine({ port }) {
  const chosen = (process.env.BENCH_ROUTINE ?? "a,b,c").split(",").map((s) => s.trim());
  // BENCH_REPEAT=3 runs each set-up three times (fresh databases) and reports the median.
  const repeat = Math.max(1, Number(process.env.BENCH_REPEAT ?? 1));
  const setups = SETUPS.filter((s) => chosen.includes(s.key)).flatMap((s) => Array.from({ length: repeat }, () => s));
  console.log(`\n## Finish today's routine: ${MEMBERS} distinct members at once, POST /plan/${PLAN} (intent=finish)`);
  console.log(`node ${process.version}, ${os.cpus().length} cores; every set-up starts from a fresh database`);
  let postgres;
  if (setups.some((s) => s.database === "postgresql")) {
    // Durability as the SQLite file's (synchronous=NORMAL): a crash of the app or the database
    // loses nothing; a power cut may lose the last commits, never corrupts.
    postgres = await startThrowawayPostgres({ settings: { synchronous_commit: "off" } });
    postgres.postmasterPid = () => Number(fs.readFileSync(path.join(postgres.dir, "data", "postmaster.pid"), "utf8").split("\n")[0]);
  }
  const results = [];
  try {
    for (const setup of setups) results.push(await runSetup(setup, { port, postgres }));
  } finally {
    await postgres?.stop();
  }
  console.log(
    `\n| set-up | share of the floor's rate${repeat > 1 ? ` (median of ${repeat}; each run)` : ""} | share of the floor's first try (the earlier method) | rows exactly once | all 303 |`,
  );
  console.log(`|---|---|---:|---|---|`);
  const medians = [];
  for (const setup of SETUPS) {
    const runs = results.filter((r) => r.setup === setup);
    if (!runs.length) continue;
    const shares = runs.map((r) => r.share).sort((a, b) => a - b);
    const median = shares[Math.floor(shares.length / 2)];
    medians.push({ setup, median });
    const each = runs.length > 1 ? ` (${runs.map((r) => r.share.toFixed(1)).join(", ")})` : "";
    const firstTries = runs.map((r) => r.shareOfFirstTry).sort((a, b) => a - b);
    console.log(
      `| ${setup.name} | **${median.toFixed(1)}%**${each} | ${firstTries[Math.floor(firstTries.length / 2)].toFixed(1)}% | ${runs.every((r) => r.exactlyOnce) ? "yes" : "NO"} | ${runs.every((r) => r.allOk) ? "yes" : "NO"} |`,
    );
  }
  const best = medians.reduce((a, b) => (b.median > a.median ? b : a), medians[0]);
  if (best) console.log(`\nBest: ${best.setup.name}, ${best.median.toFixed(1)}% (target ≥ 30%): ${best.median >= 30 ? "met" : "NOT met"}`);
}
