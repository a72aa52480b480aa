/**
 * Crash safety: members finish their routines while the server is killed with SIGKILL.
 * After a restart, SQLite's integrity check is ok and every step and routine the server
 * acknowledged (answered with its redirect) is stored. Runs its own server on its own data
 * folder, so the shared e2e server is untouched.
 */
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { grantPlan } from "../../scripts/seed-entitlement.mjs";
import { createCookie } from "@remix-run/node";
import { afterEach, expect, test } from "vitest";
import { SERVER_PORTS } from "./ports";
import { killLeftovers, tracked } from "./processes";

const PORT = SERVER_PORTS.crashSafety;
const BASE = `http://127.0.0.1:${PORT}`;
const DATA_DIR = path.resolve("test-results/crash-data");
const SESSION_SECRET = crypto.randomBytes(32).toString("hex");
const PLAN = "clear-healthy-skin";
const STEPS = 6;
const MEMBERS = 40;

function startServer(): ChildProcess {
  return tracked(
    spawn("node", ["scripts/start.mjs"], {
      env: { ...process.env, PORT: String(PORT), HOST: "127.0.0.1", DATA_DIR, APP_ENV: "local", SESSION_SECRET, REQUEST_LIMIT_PER_MINUTE: "100000" },
      stdio: ["ignore", "ignore", "pipe"],
    }),
  );
}

afterEach(killLeftovers);

async function waitUntilUp(): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${BASE}/`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error("the server did not start");
}

const stored = (date: Date) => date.toISOString().replace("Z", "+00:00");

/** Members with sessions and the plan, written into the database the way sign-in and a purchase write them. */
async function seedMembers(count: number): Promise<{ userId: string; cookie: string }[]> {
  const db = new Database(path.join(DATA_DIR, "glow-coach.db"), { timeout: 10_000 });
  const sessionCookie = createCookie("gc_session", { secrets: [SESSION_SECRET] });
  const members = [];
  try {
    const now = new Date();
    for (let i = 0; i < count; i++) {
      const userId = crypto.randomUUID();
      const sessionId = crypto.randomBytes(24).toString("base64url");
      db.prepare(`INSERT INTO "User" ("id","email","role","timeZone","createdAt","emailVerifiedAt") VALUES (?,?,?,?,?,?)`).run(
        userId,
        `crash-${i}-${userId.slice(0, 8)}@glowcoach.test`,
        "user",
        "UTC",
        stored(now),
        stored(now),
      );
      db.prepare(`INSERT INTO "Session" ("id","userId","expiresAt","createdAt") VALUES (?,?,?,?)`).run(
        sessionId,
        userId,
        stored(new Date(now.getTime() + 86_400_000)),
        stored(now),
      );
      grantPlan(db, userId, PLAN, { at: now });
      members.push({ userId, cookie: (await sessionCookie.serialize(sessionId)).split(";")[0] });
    }
  } finally {
    db.close();
  }
  return members;
}

type Acknowledged = { steps: Set<string>; finished: Set<string> };

/** One member's routine: six steps, then finish. Records what the server acknowledged. */
async function doRoutine(member: { userId: string; cookie: string }, acked: Acknowledged): Promise<void> {
  const post = (body: Record<string, string>) =>
    fetch(`${BASE}/plan/${PLAN}`, {
      method: "POST",
      redirect: "manual",
      headers: { Cookie: member.cookie, "Content-Type": "application/x-www-form-urlencoded", Origin: BASE },
      body: new URLSearchParams({ ...body, timeZone: "UTC" }),
    });
  for (let step = 1; step <= STEPS; step++) {
    const response = await post({ intent: "complete-step", step: String(step) });
    if (response.status !== 303) throw new Error(`step ${step}: ${response.status}`);
    acked.steps.add(`${member.userId}:${step}`);
  }
  const response = await post({ intent: "finish", step: String(STEPS) });
  if (response.status !== 303) throw new Error(`finish: ${response.status}`);
  acked.finished.add(member.userId);
}

test("SIGKILL while members finish routines loses nothing that was acknowledged", { timeout: 240_000 }, async () => {
  fs.rmSync(DATA_DIR, { recursive: true, force: true });

  let server = startServer();
  try {
    await waitUntilUp();
    const members = await seedMembers(MEMBERS);
    const acked: Acknowledged = { steps: new Set(), finished: new Set() };
    // Everyone starts at once; the server dies part-way through: once the first steps are
    // acknowledged (a fixed delay would kill too early on a busy machine).
    const running = Promise.allSettled(members.map((member) => doRoutine(member, acked)));
    await expect.poll(() => acked.steps.size, { timeout: 30_000, interval: 10 }).toBeGreaterThan(MEMBERS / 4);
    const died = new Promise((resolve) => server.once("exit", resolve));
    server.kill("SIGKILL");
    await died;
    const outcomes = await running;
    const interrupted = outcomes.filter((o) => o.status === "rejected").length;

    server = startServer();
    await waitUntilUp();
    const db = new Database(path.join(DATA_DIR, "glow-coach.db"), { readonly: true });
    try {
      expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
      const steps = new Set(
        (db.prepare(`SELECT userId, step FROM "PlanStepCompletion" WHERE planId = ?`).all(PLAN) as { userId: string; step: number }[]).map(
          (r) => `${r.userId}:${r.step}`,
        ),
      );
      const finished = new Set((db.prepare(`SELECT userId FROM "PlanCompletion" WHERE planId = ?`).all(PLAN) as { userId: string }[]).map((r) => r.userId));
      const lostSteps = [...acked.steps].filter((key) => !steps.has(key));
      const lostFinishes = [...acked.finished].filter((id) => !finished.has(id));
      console.info(`[crash] ${acked.steps.size} steps and ${acked.finished.size} routines acknowledged before SIGKILL; ${interrupted} members interrupted`);
      expect(lostSteps).toEqual([]);
      expect(lostFinishes).toEqual([]);
      // The kill really interrupted work, or the test proves nothing.
      expect(interrupted).toBeGreaterThan(0);
      expect(acked.steps.size).toBeGreaterThan(0);
    } finally {
      db.close();
    }

    // After the restart the interrupted members can carry on.
    const again = { steps: new Set<string>(), finished: new Set<string>() };
    await doRoutine(members[0], again);
    expect(again.finished.has(members[0].userId)).toBe(true);
  } finally {
    server.kill("SIGKILL");
  }
});
