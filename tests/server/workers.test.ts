/**
 * WEB_CONCURRENCY=2: `npm start` runs two worker processes on one port, and SIGTERM drains
 * them: requests already being answered finish, nothing acknowledged is lost, nothing is
 * half-done, and the server exits 0. Its own server and data folder (SQLite).
 */
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { createCookie } from "@remix-run/node";
import { afterEach, expect, test } from "vitest";
import { grantPlan } from "../../scripts/seed-entitlement.mjs";
import { SERVER_PORTS } from "./ports";
import { killLeftovers, tracked } from "./processes";

const PORT = SERVER_PORTS.workers;
const BASE = `http://127.0.0.1:${PORT}`;
const DATA_DIR = path.resolve("test-results/workers-data");
const SESSION_SECRET = crypto.randomBytes(32).toString("hex");
const PLAN = "clear-healthy-skin";
const MEMBERS = 300;

const stored = (date: Date) => date.toISOString().replace("Z", "+00:00");

/** Members signed in who bought the plan, with today's six steps done: each needs one POST to finish. */
async function seedMembers(count: number): Promise<{ userId: string; cookie: string }[]> {
  const db = new Database(path.join(DATA_DIR, "glow-coach.db"), { timeout: 10_000 });
  const sessionCookie = createCookie("gc_session", { secrets: [SESSION_SECRET] });
  const members = [];
  try {
    const now = new Date();
    const today = now.toISOString().slice(0, 10);
    const insert = db.transaction((userId: string, sessionId: string, i: number) => {
      // Verified members whose day is held (they did today's steps, so the day's zone is fixed).
      db.prepare(`INSERT INTO "User" ("id","email","role","timeZone","createdAt","emailVerifiedAt","lastActedOn") VALUES (?,?,?,?,?,?,?)`).run(
        userId,
        `workers-${i}-${userId.slice(0, 8)}@glowcoach.test`,
        "user",
        "UTC",
        stored(now),
        stored(now),
        today,
      );
      db.prepare(`INSERT INTO "Session" ("id","userId","expiresAt","createdAt") VALUES (?,?,?,?)`).run(
        sessionId,
        userId,
        stored(new Date(now.getTime() + 30 * 86_400_000)),
        stored(now),
      );
      grantPlan(db, userId, PLAN, { at: now });
      for (let step = 1; step <= 6; step++)
        db.prepare(`INSERT INTO "PlanStepCompletion" ("userId","planId","date","step","createdAt") VALUES (?,?,?,?,?)`).run(
          userId,
          PLAN,
          today,
          step,
          stored(now),
        );
    });
    for (let i = 0; i < count; i++) {
      const userId = crypto.randomUUID();
      const sessionId = crypto.randomBytes(24).toString("base64url");
      insert(userId, sessionId, i);
      members.push({ userId, cookie: (await sessionCookie.serialize(sessionId)).split(";")[0] });
    }
  } finally {
    db.close();
  }
  return members;
}

/** The worker processes under the primary (Linux /proc). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
    const list = fs.readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim();
    if (list) children.push(...list.split(" ").map(Number));
  }
  return children;
}

afterEach(killLeftovers);

test("two workers answer on one port, and SIGTERM drains them without losing or half-doing anything", { timeout: 180_000 }, async () => {
  fs.rmSync(DATA_DIR, { recursive: true, force: true });
  const server = tracked(
    spawn(process.execPath, ["scripts/start.mjs"], {
      env: {
        ...process.env,
        PORT: String(PORT),
        HOST: "127.0.0.1",
        DATA_DIR,
        APP_ENV: "local",
        SESSION_SECRET,
        REQUEST_LIMIT_PER_MINUTE: "100000",
        WEB_CONCURRENCY: "2",
      },
      stdio: ["ignore", "pipe", "pipe"],
    }),
  );
  let output = "";
  server.stdout!.on("data", (chunk) => (output += chunk));
  server.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => server.once("exit", (code) => resolve(code)));
  try {
    await expect.poll(() => (output.match(/Glow Coach is listening/g) ?? []).length, { timeout: 120_000 }).toBe(2);
    expect(childrenOf(server.pid!).length).toBe(2);
    expect((await fetch(`${BASE}/quiz`)).status).toBe(200);

    const members = await seedMembers(MEMBERS);
    let signalledAt = Infinity;
    const outcomes = await Promise.all(
      members.map(async (member) => {
        try {
          const response = await fetch(`${BASE}/plan/${PLAN}`, {
            method: "POST",
            redirect: "manual",
            headers: { Cookie: member.cookie, "Content-Type": "application/x-www-form-urlencoded", Origin: BASE },
            body: "intent=finish&step=6",
          });
          await response.arrayBuffer();
          // The first answer is the moment to stop the server, with the rest still in flight.
          if (signalledAt === Infinity) {
            signalledAt = performance.now();
            server.kill("SIGTERM");
          }
          return { userId: member.userId, status: response.status, location: response.headers.get("location"), afterSignal: performance.now() > signalledAt };
        } catch {
          // Not accepted before the port closed: the client sees a refused or reset connection.
          return { userId: member.userId, status: 0, location: null, afterSignal: true };
        }
      }),
    );
    expect(await exited).toBe(0);

    const answered = outcomes.filter((o) => o.status !== 0);
    // Every answer is the success redirect: no 5xx, no error page while draining.
    expect(answered.filter((o) => o.status !== 303 || o.location !== "/home")).toEqual([]);
    // Requests in flight when the signal came were still answered.
    expect(answered.filter((o) => o.afterSignal).length).toBeGreaterThan(0);

    const db = new Database(path.join(DATA_DIR, "glow-coach.db"), { readonly: true });
    try {
      const finished = new Set((db.prepare(`SELECT "userId" FROM "PlanCompletion" WHERE "planId" = ?`).all(PLAN) as { userId: string }[]).map((r) => r.userId));
      // Each acknowledged finish is stored, and nothing was stored without its answer.
      expect([...finished].sort()).toEqual(answered.map((o) => o.userId).sort());
      console.info(
        `[drain] ${answered.length} of ${MEMBERS} answered (${answered.filter((o) => o.afterSignal).length} after SIGTERM), ${MEMBERS - answered.length} refused`,
      );
    } finally {
      db.close();
    }
  } finally {
    if (server.exitCode === null) server.kill("SIGKILL");
  }
});
