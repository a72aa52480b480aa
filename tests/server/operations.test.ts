/**
 * What an operator relies on, against real server processes of their own (not the shared
 * e2e server): JSON logs without secrets, health endpoints, a clean stop on a programming
 * error, pruning at start-up, and an online backup under write load that restores.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import { createCookie } from "@remix-run/node";
import { afterEach, expect, test } from "vitest";
import { grantPlan } from "../../scripts/seed-entitlement.mjs";
import { SERVER_PORTS } from "./ports";

/** The first of this file's six ports. */
const PORT = SERVER_PORTS.operations;
const ROOT = path.resolve("test-results/operations");
const SESSION_SECRET = crypto.randomBytes(32).toString("hex");
// A lifetime plan: the test moves the clock a day per write, past any subscription period.
const PLAN = "crease-free";
const DAY = 86_400_000;
const run = promisify(execFile);

/** Every server a test started; one still running after the test (it failed) is killed. */
const started = new Set<ChildProcess>();
afterEach(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  started.clear();
});

function freshDataDir(name: string): string {
  const dir = path.join(ROOT, name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

function migrate(dataDir: string): void {
  execFileSync("npx", ["prisma", "migrate", "deploy"], { env: { ...process.env, DATA_DIR: dataDir }, stdio: "ignore" });
}

type App = {
  base: string;
  child: ChildProcess;
  /** Everything the process wrote so far (stdout and stderr, in arrival order). */
  output(): string;
  exited: Promise<number | null>;
  stop(): Promise<number | null>;
};

function startApp(options: { port: number; dataDir: string; env?: Record<string, string>; nodeOptions?: string }): App {
  let output = "";
  const child = spawn(process.execPath, ["server.mjs"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      APP_ENV: "local",
      HOST: "127.0.0.1",
      PORT: String(options.port),
      DATA_DIR: options.dataDir,
      SESSION_SECRET,
      LOG_FORMAT: "json",
      LOG_REQUESTS: "1",
      // The dev mailbox, not the e2e SMTP server.
      SMTP_URL: "",
      REQUEST_LIMIT_PER_MINUTE: "100000",
      ...options.env,
      ...(options.nodeOptions ? { NODE_OPTIONS: options.nodeOptions } : {}),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.add(child);
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    base: `http://127.0.0.1:${options.port}`,
    child,
    output: () => output,
    exited,
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch {
      // not there yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const up = (app: App) => waitFor(`${app.base}/healthz`, async () => ((await fetch(`${app.base}/healthz`)).ok ? true : undefined));

/** Every line of the output, parsed: the logs are one JSON object a line. */
function logLines(app: App): Record<string, unknown>[] {
  return app
    .output()
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`not a JSON log line: ${line}`);
      }
    });
}

const stored = (date: Date) => date.toISOString().replace("Z", "+00:00");

/**
 * Members with sessions, written the way sign-in writes them; returns their cookies. The
 * sessions last 1,000 years, so tests that move the clock forward keep them signed in.
 */
async function seedMembers(dbFile: string, count: number): Promise<{ userId: string; cookie: string }[]> {
  const db = new Database(dbFile, { timeout: 10_000 });
  const sessionCookie = createCookie("gc_session", { secrets: [SESSION_SECRET] });
  const members = [];
  try {
    const now = new Date();
    for (let i = 0; i < count; i++) {
      const userId = crypto.randomUUID();
      const sessionId = crypto.randomBytes(24).toString("base64url");
      db.prepare(`INSERT INTO "User" ("id","email","role","timeZone","createdAt","emailVerifiedAt") VALUES (?,?,?,?,?,?)`).run(
        userId,
        `ops-${i}-${userId.slice(0, 8)}@glowcoach.test`,
        "user",
        "UTC",
        stored(now),
        stored(now),
      );
      grantPlan(db, userId, PLAN);
      db.prepare(`INSERT INTO "Session" ("id","userId","expiresAt","createdAt") VALUES (?,?,?,?)`).run(
        sessionId,
        userId,
        stored(new Date(now.getTime() + 365_000 * DAY)),
        stored(now),
      );
      members.push({ userId, cookie: (await sessionCookie.serialize(sessionId)).split(";")[0] });
    }
  } finally {
    db.close();
  }
  return members;
}

test("logs are JSON lines with a request id, method, path, status and duration, and never a query string, sign-in link or code", async () => {
  const dataDir = freshDataDir("logs");
  migrate(dataDir);
  const app = startApp({ port: PORT, dataDir });
  try {
    await up(app);
    const quiz = await fetch(`${app.base}/quiz?utm_source=news&token=zz-query-secret`);
    expect(quiz.status).toBe(200);
    const quizId = quiz.headers.get("x-request-id");
    expect(quizId).toMatch(/^[0-9a-f-]{36}$/);
    const missing = await fetch(`${app.base}/no-such-page`);
    expect(missing.status).toBe(404);
    const missingId = missing.headers.get("x-request-id");

    // A sign-in link into the dev mailbox: the log says where to read it, and nothing more.
    const email = `logs-${crypto.randomBytes(4).toString("hex")}@glowcoach.test`;
    const login = await fetch(`${app.base}/login`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: app.base },
      body: new URLSearchParams({ intent: "email-link", email, redirectTo: "/home" }),
    });
    expect(login.status).toBeLessThan(400);
    const mailboxDir = path.join(dataDir, "mailbox");
    const file = await waitFor("the sign-in e-mail", async () => fs.readdirSync(mailboxDir).find((name) => name.endsWith(".json")));
    const message = JSON.parse(fs.readFileSync(path.join(mailboxDir, file), "utf8")) as { link: string; text: string };
    const token = new URL(message.link).searchParams.get("token")!;
    const code = /Or enter this code on the sign-in page:\s*([A-Z0-9]{6})\b/.exec(message.text)![1];
    for (let i = 0; i < 5; i++) {
      expect((await fetch(`${app.base}/healthz`)).status).toBe(200);
      expect((await fetch(`${app.base}/readyz`)).status).toBe(200);
    }

    const lines = await waitFor("the request lines", async () => {
      const parsed = logLines(app);
      return parsed.some((line) => line.reqId === missingId && line.status === 404) && parsed.some((line) => String(line.msg).includes("open /dev/mailbox"))
        ? parsed
        : undefined;
    });
    for (const line of lines) {
      expect(typeof line.level).toBe("string");
      expect(Number.isNaN(Date.parse(String(line.time)))).toBe(false);
    }
    const quizLine = lines.find((line) => line.reqId === quizId && "status" in line);
    expect(quizLine).toMatchObject({ level: "info", method: "GET", path: "/quiz", status: 200 });
    expect(typeof quizLine!.durationMs).toBe("number");
    // A line the app writes while handling a request carries that request's id.
    expect(lines.find((line) => line.msg === "[404] GET /no-such-page")).toMatchObject({ level: "warn", reqId: missingId });
    expect(lines.find((line) => String(line.msg).includes("open /dev/mailbox"))!.msg).toContain(email);

    const everything = app.output();
    expect(everything).not.toContain("zz-query-secret");
    expect(everything).not.toContain("utm_source");
    expect(everything).not.toContain(token);
    expect(everything).not.toContain(code);
    expect(everything).not.toContain("/magic?");
    // Health probes are not logged.
    expect(everything).not.toContain("/healthz");
    expect(everything).not.toContain("/readyz");
  } finally {
    expect(await app.stop()).toBe(0);
  }
});

test("/readyz is 503 while migrations are not applied (npm run serve skips them), 200 once they are; /healthz answers throughout", async () => {
  const dataDir = freshDataDir("readiness");
  const port = PORT + 1;
  const unmigrated = startApp({ port, dataDir });
  try {
    await up(unmigrated);
    const notReady = await fetch(`${unmigrated.base}/readyz`);
    expect(notReady.status).toBe(503);
    expect(notReady.headers.get("cache-control")).toBe("no-store");
    expect(await notReady.json()).toEqual({ status: "not ready", checks: { database: "ok", migrations: "failed", content: "ok" } });
    expect(await (await fetch(`${unmigrated.base}/healthz`)).json()).toEqual({ status: "ok" });
    const logged = await waitFor("the not-ready log line", async () => logLines(unmigrated).find((line) => line.msg === "[health] not ready"));
    expect(logged).toMatchObject({ level: "error", problems: { migrations: expect.stringContaining("run npm run db:migrate") } });
  } finally {
    expect(await unmigrated.stop()).toBe(0);
  }

  // SQLite migrations need the database to themselves: the app is stopped meanwhile.
  migrate(dataDir);
  const migrated = startApp({ port, dataDir });
  try {
    await up(migrated);
    const ready = await fetch(`${migrated.base}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.headers.get("set-cookie")).toBeNull();
    expect(await ready.json()).toEqual({ status: "ready", checks: { database: "ok", migrations: "ok", content: "ok" } });
    await waitFor("the ready log line", async () => (logLines(migrated).some((line) => line.msg === "[health] ready") ? true : undefined));
  } finally {
    await migrated.stop();
  }
});

for (const failure of ["rejection", "exception"] as const) {
  test(`an unhandled ${failure} is logged as fatal and stops the process with exit code 1`, async () => {
    const dataDir = freshDataDir(`failure-${failure}`);
    migrate(dataDir);
    const fixture = pathToFileURL(path.resolve("tests/server/fixtures/fail-on-signal.mjs")).href;
    const app = startApp({
      port: PORT + (failure === "rejection" ? 2 : 3),
      dataDir,
      env: { GLOW_TEST_FAILURE: failure },
      nodeOptions: `--import=${fixture}`,
    });
    try {
      await up(app);
      expect((await fetch(`${app.base}/quiz`)).status).toBe(200);
      app.child.kill("SIGUSR2");
      const code = await Promise.race([app.exited, new Promise((resolve) => setTimeout(() => resolve("still running"), 10_000))]);
      expect(code).toBe(1);
      const fatal = logLines(app).find((line) => line.level === "fatal");
      expect(fatal).toMatchObject({
        msg: failure === "rejection" ? "[server] unhandled promise rejection: stopping" : "[server] uncaught exception: stopping",
      });
      expect((fatal!.err as { message: string }).message).toBe(`boom from the test (${failure})`);
    } finally {
      await app.stop();
    }
  });
}

test("expired sessions, old sign-in links and old rate-limit hits and keys are pruned when the server starts", async () => {
  const dataDir = freshDataDir("pruning");
  migrate(dataDir);
  const dbFile = path.join(dataDir, "glow-coach.db");
  const [member] = await seedMembers(dbFile, 1);
  const db = new Database(dbFile, { timeout: 10_000 });
  const now = Date.now();
  try {
    db.prepare(`INSERT INTO "Session" ("id","userId","expiresAt","createdAt") VALUES (?,?,?,?)`).run(
      "expired-session",
      member.userId,
      stored(new Date(now - 1000)),
      stored(new Date(now - 31 * DAY)),
    );
    const token = db.prepare(`INSERT INTO "LoginToken" ("id","email","secretHash","codeHash","createdAt","expiresAt") VALUES (?,?,?,?,?,?)`);
    token.run("old-link", "a@glowcoach.test", "hash-old", "x", stored(new Date(now - 3 * DAY)), stored(new Date(now - 3 * DAY + 900_000)));
    token.run("fresh-link", "b@glowcoach.test", "hash-fresh", "x", stored(new Date(now)), stored(new Date(now + 900_000)));
    const hit = db.prepare(`INSERT INTO "RateLimitHit" ("key","createdAt") VALUES (?,?)`);
    hit.run("old-hit", stored(new Date(now - 2 * 3_600_000)));
    hit.run("fresh-hit", stored(new Date(now - 60_000)));
    const key = db.prepare(`INSERT INTO "RateLimitKey" ("key","updatedAt") VALUES (?,?)`);
    key.run("idle-key", stored(new Date(now - 2 * 3_600_000)));
    key.run("fresh-hit", stored(new Date(now - 60_000)));
  } finally {
    db.close();
  }

  const app = startApp({ port: PORT + 4, dataDir });
  try {
    await up(app);
    const line = await waitFor("the prune log line", async () => logLines(app).find((l) => l.msg === "[prune] removed expired data"));
    expect(line.pruned).toEqual({ sessions: 1, loginTokens: 1, rateLimitHits: 1, rateLimitKeys: 1, adConversions: 0 });
    const check = new Database(dbFile, { readonly: true });
    try {
      expect(check.prepare(`SELECT id FROM "Session" WHERE userId = ?`).all(member.userId)).toHaveLength(1);
      expect(check.prepare(`SELECT id FROM "LoginToken" ORDER BY id`).all()).toEqual([{ id: "fresh-link" }]);
      expect(check.prepare(`SELECT key FROM "RateLimitHit"`).all()).toEqual([{ key: "fresh-hit" }]);
      expect(check.prepare(`SELECT key FROM "RateLimitKey"`).all()).toEqual([{ key: "fresh-hit" }]);
    } finally {
      check.close();
    }
    // The member whose session is current is still signed in.
    const home = await fetch(`${app.base}/home`, { headers: { Cookie: member.cookie }, redirect: "manual" });
    expect(home.status).toBe(200);
  } finally {
    await app.stop();
  }
});

test("npm run db:backup copies the database while members write, and the copy restores with every acknowledged write", { timeout: 180_000 }, async () => {
  const dataDir = freshDataDir("backup-live");
  migrate(dataDir);
  const dbFile = path.join(dataDir, "glow-coach.db");
  // Each member may post 30 times a minute to the routine (the per-visitor limit): many
  // members, each within that, keep writes going for several seconds.
  const members = await seedMembers(dbFile, 100);
  // Some bulk, so the copy has pages to move while writes go on.
  const bulk = new Database(dbFile, { timeout: 10_000 });
  const insert = bulk.prepare(`INSERT INTO "AnalyticsEvent" ("id","visitorId","name","props","createdAt") VALUES (?,?,?,?,?)`);
  bulk.transaction(() => {
    for (let i = 0; i < 20_000; i++)
      insert.run(`bulk-${i}`, `visitor-${i % 500}`, "funnel_viewed", JSON.stringify({ filler: "x".repeat(120) }), stored(new Date()));
  })();
  bulk.close();

  const app = startApp({ port: PORT + 5, dataDir, env: { TEST_CLOCK: "1", LOG_REQUESTS: "0" } });
  // Acknowledged routine steps: "userId date step", with the time each answer arrived.
  const acked: { key: string; at: number }[] = [];
  let writing = true;
  let writeFailure: Error | undefined;
  const write = async (member: { userId: string; cookie: string }, worker: number) => {
    let budget = 29;
    for (let day = worker * 10; writing && budget > 0; day++) {
      for (let step = 1; step <= 6 && writing && budget-- > 0; step++) {
        const offset = day * DAY;
        const dateBefore = new Date(Date.now() + offset).toISOString().slice(0, 10);
        const answer = await fetch(`${app.base}/plan/${PLAN}`, {
          method: "POST",
          redirect: "manual",
          headers: { Cookie: member.cookie, "Content-Type": "application/x-www-form-urlencoded", Origin: app.base, "X-Test-Clock-Offset-Ms": String(offset) },
          body: new URLSearchParams({ intent: "complete-step", step: String(step), timeZone: "UTC" }),
        });
        const dateAfter = new Date(Date.now() + offset).toISOString().slice(0, 10);
        if (answer.status !== 303 || !answer.headers.get("location")?.startsWith(`/plan/${PLAN}`))
          throw new Error(`step ${step}: ${answer.status} → ${answer.headers.get("location")} (worker ${worker}, day ${day}, ${acked.length} acked)`);
        // Across midnight the stored date is one of two: count only unambiguous answers.
        if (dateBefore === dateAfter) acked.push({ key: `${member.userId} ${dateBefore} ${step}`, at: Date.now() });
      }
    }
  };
  const backupFile = path.join(ROOT, "backup-live.db");
  fs.rmSync(backupFile, { force: true });
  let writers: Promise<unknown[]> | undefined;
  try {
    await up(app);
    writers = Promise.all(
      members.map((member, i) =>
        write(member, i).catch((error: Error) => {
          writeFailure ??= error;
          writing = false;
        }),
      ),
    );
    await waitFor("writes under way", async () => (acked.length > 100 || writeFailure ? true : undefined));
    if (writeFailure) throw writeFailure;

    const backupStarted = Date.now();
    // Asynchronously: the writers in this process keep writing meanwhile.
    const { stdout } = await run("npm", ["run", "--silent", "db:backup", "--", backupFile], { env: { ...process.env, DATA_DIR: dataDir } });
    const backupEnded = Date.now();
    expect(stdout).toMatch(/integrity_check ok/);
    const duringBackup = acked.filter((a) => a.at > backupStarted && a.at < backupEnded).length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    writing = false;
    await writers;
    if (writeFailure) throw writeFailure;
    console.info(`[backup] ${acked.length} steps acknowledged; ${duringBackup} while db:backup ran (${backupEnded - backupStarted} ms)`);
    // The backup really ran under write load.
    expect(duringBackup).toBeGreaterThan(0);
    expect(fs.statSync(backupFile).mode & 0o777).toBe(0o600);

    const rowsIn = (file: string) => {
      const db = new Database(file, { readonly: true });
      try {
        expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
        const rows = db.prepare(`SELECT userId, date, step FROM "PlanStepCompletion" WHERE planId = ?`).all(PLAN) as {
          userId: string;
          date: string;
          step: number;
        }[];
        return new Set(rows.map((r) => `${r.userId} ${r.date} ${r.step}`));
      } finally {
        db.close();
      }
    };
    const inBackup = rowsIn(backupFile);
    const beforeBackup = acked.filter((a) => a.at <= backupStarted).map((a) => a.key);
    expect(beforeBackup.filter((key) => !inBackup.has(key))).toEqual([]);

    // Restore as docs/operators.md says: stop the app, put the copy in place of the database
    // (without the old -wal and -shm files), start the app.
    expect(await app.stop()).toBe(0);
    const restoredDir = freshDataDir("backup-restored");
    fs.copyFileSync(backupFile, path.join(restoredDir, "glow-coach.db"));
    for (const suffix of ["-wal", "-shm"]) fs.rmSync(path.join(restoredDir, `glow-coach.db${suffix}`), { force: true });
    const restored = startApp({ port: PORT + 5, dataDir: restoredDir, env: { TEST_CLOCK: "1" } });
    try {
      await up(restored);
      expect((await fetch(`${restored.base}/readyz`)).status).toBe(200);
      const restoredRows = rowsIn(path.join(restoredDir, "glow-coach.db"));
      expect(beforeBackup.filter((key) => !restoredRows.has(key))).toEqual([]);
      // Members are still signed in, and writes work (on a day after every day the writers
      // acted on: a member's day, once acted on, never goes back).
      const answer = await fetch(`${restored.base}/plan/${PLAN}`, {
        method: "POST",
        redirect: "manual",
        headers: {
          Cookie: members[0].cookie,
          "Content-Type": "application/x-www-form-urlencoded",
          Origin: restored.base,
          "X-Test-Clock-Offset-Ms": String(7 * DAY),
        },
        body: new URLSearchParams({ intent: "complete-step", step: "1", timeZone: "UTC" }),
      });
      expect(answer.status).toBe(303);
      expect(answer.headers.get("location")).toBe(`/plan/${PLAN}?step=2`);
    } finally {
      await restored.stop();
    }
  } finally {
    writing = false;
    await writers?.catch(() => {});
    await app.stop();
  }
});
