/**
 * Running the app: pruning of expired data, readiness, and the request log. The HTTP
 * server's own wiring (health checks before everything, JSON logs, crash handling) is
 * tested against a real server in tests/server/operations.test.ts.
 */
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it, vi } from "vitest";
import { LONGEST_WINDOW_MS } from "~/auth/rate-limit.server";
import { checkReadiness, requiredMigrations, serveHealthCheck } from "~/operations/health.server";
import { AD_CONVERSION_KEPT_MS, LOGIN_TOKEN_KEPT_MS, pruneExpiredData, startPruning } from "~/operations/pruning.server";
import { db } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { logger, logRequest, pathOf } from "~/utils/logger.server";

const HOUR = 60 * 60 * 1000;
const at = new Date("2031-06-01T12:00:00Z");
const ago = (ms: number) => new Date(at.getTime() - ms);
const tag = () => crypto.randomBytes(6).toString("hex");

async function user(): Promise<string> {
  const row = await db.user.create({ data: { email: `prune-${tag()}@example.com` } });
  return row.id;
}

async function session(userId: string, expiresAt: Date): Promise<string> {
  const id = `prune-${tag()}`;
  await db.session.create({ data: { id, userId, expiresAt } });
  return id;
}

async function loginToken(expiresAt: Date, used = false): Promise<string> {
  const row = await db.loginToken.create({
    data: {
      email: `prune-${tag()}@example.com`,
      secretHash: tag(),
      codeHash: "x",
      createdAt: new Date(expiresAt.getTime() - 15 * 60_000),
      expiresAt,
      usedAt: used ? expiresAt : null,
    },
  });
  return row.id;
}

async function hit(createdAt: Date): Promise<number> {
  const row = await db.rateLimitHit.create({ data: { key: `prune-${tag()}`, createdAt } });
  return row.id;
}

describe("pruning expired data", () => {
  it("removes expired sessions, sign-in links a day past expiry, and rate-limit hits older than any window; keeps the rest", async () => {
    const member = await user();
    const expired = await session(member, ago(1));
    const expiringNow = await session(member, at);
    const current = await session(member, new Date(at.getTime() + HOUR));

    const longGone = await loginToken(ago(LOGIN_TOKEN_KEPT_MS + 1));
    const usedLongAgo = await loginToken(ago(2 * LOGIN_TOKEN_KEPT_MS), true);
    // Kept for a day after expiry, so an old link still says why it no longer works.
    const recentlyExpired = await loginToken(ago(LOGIN_TOKEN_KEPT_MS - 60_000));
    const recentlyUsed = await loginToken(ago(60_000), true);
    const valid = await loginToken(new Date(at.getTime() + 10 * 60_000));

    const oldHit = await hit(ago(LONGEST_WINDOW_MS + 1));
    const edgeHit = await hit(ago(LONGEST_WINDOW_MS));
    const countingHit = await hit(ago(LONGEST_WINDOW_MS - 1000));

    const idleKey = `prune-idle-${at.getTime()}`;
    const usedKey = `prune-used-${at.getTime()}`;
    await db.rateLimitKey.createMany({
      data: [
        { key: idleKey, updatedAt: ago(LONGEST_WINDOW_MS + 1) },
        { key: usedKey, updatedAt: ago(1000) },
      ],
    });

    const pruned = await pruneExpiredData(at);
    expect(pruned.rateLimitKeys).toBeGreaterThanOrEqual(1);
    expect((await db.rateLimitKey.findMany({ where: { key: { in: [idleKey, usedKey] } } })).map((row) => row.key)).toEqual([usedKey]);
    expect(pruned.sessions).toBeGreaterThanOrEqual(2);
    expect(pruned.loginTokens).toBeGreaterThanOrEqual(2);
    expect(pruned.rateLimitHits).toBeGreaterThanOrEqual(2);

    const sessions = (await db.session.findMany({ where: { userId: member } })).map((row) => row.id);
    expect(sessions).toEqual([current]);
    expect(sessions).not.toContain(expired);
    expect(sessions).not.toContain(expiringNow);
    const tokens = new Set(
      (await db.loginToken.findMany({ where: { id: { in: [longGone, usedLongAgo, recentlyExpired, recentlyUsed, valid] } } })).map((row) => row.id),
    );
    expect(tokens).toEqual(new Set([recentlyExpired, recentlyUsed, valid]));
    const hits = (await db.rateLimitHit.findMany({ where: { id: { in: [oldHit, edgeHit, countingHit] } } })).map((row) => row.id);
    expect(hits).toEqual([countingHit]);

    // Nothing left to do: a second run deletes nothing of these.
    await pruneExpiredData(at);
    expect(await db.session.count({ where: { userId: member } })).toBe(1);
  });

  it("removes ad conversions older than 30 days, which only hold a buyer's hashed details by then", async () => {
    const conversion = (createdAt: Date) => ({
      eventId: `prune-${tag()}`,
      name: "Purchase",
      checkoutSessionId: `prune-${tag()}`,
      visitorId: "v",
      eventTime: createdAt,
      sourceUrl: "https://glow.example/payment-success",
      userData: "{}",
      customData: "{}",
      createdAt,
    });
    const old = conversion(ago(AD_CONVERSION_KEPT_MS + 1));
    const recent = conversion(ago(AD_CONVERSION_KEPT_MS - HOUR));
    await db.adConversion.createMany({ data: [old, recent] });
    const pruned = await pruneExpiredData(at);
    expect(pruned.adConversions).toBeGreaterThanOrEqual(1);
    const left = (await db.adConversion.findMany({ where: { eventId: { in: [old.eventId, recent.eventId] } } })).map((row) => row.eventId);
    expect(left).toEqual([recent.eventId]);
  });

  it("deletes a backlog larger than one batch (500)", async () => {
    const old = ago(LONGEST_WINDOW_MS + HOUR);
    const key = `prune-backlog-${tag()}`;
    await db.rateLimitHit.createMany({ data: Array.from({ length: 1_234 }, () => ({ key, createdAt: old })) });
    const pruned = await pruneExpiredData(at);
    expect(pruned.rateLimitHits).toBeGreaterThanOrEqual(1_234);
    expect(await db.rateLimitHit.count({ where: { key } })).toBe(0);
  });

  it("runs on a schedule: at once, then every interval, until stopped", async () => {
    const member = await user();
    // Expired by the real clock, which the schedule uses.
    const first = await session(member, new Date(Date.now() - 1000));
    const stop = startPruning(100);
    try {
      await vi.waitFor(async () => expect(await db.session.findUnique({ where: { id: first } })).toBeNull(), { timeout: 3_000 });
      const second = await session(member, new Date(Date.now() - 1000));
      await vi.waitFor(async () => expect(await db.session.findUnique({ where: { id: second } })).toBeNull(), { timeout: 3_000 });
    } finally {
      stop();
    }
    const afterStop = await session(member, new Date(Date.now() - 1000));
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await db.session.findUnique({ where: { id: afterStop } })).not.toBeNull();
  });
});

/**
 * The next `times` raw queries fail. (Prisma's client answers its methods through a proxy,
 * which a spy cannot restore: this one fails a counted number of calls, then passes through.)
 */
function failDatabaseQueries(times: number, message: string) {
  const query = db.$queryRawUnsafe.bind(db);
  let failures = times;
  vi.spyOn(db, "$queryRawUnsafe").mockImplementation(((sql: string, ...values: unknown[]) =>
    failures-- > 0 ? Promise.reject(new Error(message)) : query(sql, ...values)) as typeof db.$queryRawUnsafe);
}

describe("readiness", () => {
  it("is ready when the database answers, every migration folder is applied and content is loaded", async () => {
    const required = requiredMigrations();
    expect(required.length).toBeGreaterThan(0);
    expect(required.every((name) => /^\d{14}_\w+$/.test(name))).toBe(true);
    expect(await checkReadiness(required)).toEqual({ ready: true, checks: { database: "ok", migrations: "ok", content: "ok" }, problems: {} });
  });

  it("is not ready while a migration is not applied, and says which one (to the log only)", async () => {
    const readiness = await checkReadiness([...requiredMigrations(), "29991231000000_future"]);
    expect(readiness.ready).toBe(false);
    expect(readiness.checks).toEqual({ database: "ok", migrations: "failed", content: "ok" });
    expect(readiness.problems.migrations).toContain("29991231000000_future");
  });

  it("is not ready when the database fails", async () => {
    failDatabaseQueries(2, "SQLITE_CANTOPEN: unable to open database file");
    const readiness = await checkReadiness();
    expect(readiness.checks).toEqual({ database: "failed", migrations: "failed", content: "ok" });
    expect(readiness.problems.database).toContain("SQLITE_CANTOPEN");
    expect(await checkReadiness()).toMatchObject({ ready: true });
  });
});

/** A server that answers health checks and says "app" to everything else, as server.mjs does. */
async function withServer(run: (base: string) => Promise<void>) {
  const server = http.createServer((req, res) => {
    if (serveHealthCheck(req, res)) return;
    logRequest(req, res, () => res.end("app"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

describe("health endpoints", () => {
  it("answer /healthz and /readyz as JSON, uncached, and leave every other request to the app", async () => {
    await withServer(async (base) => {
      const live = await fetch(`${base}/healthz`);
      expect(live.status).toBe(200);
      expect(live.headers.get("cache-control")).toBe("no-store");
      expect(live.headers.get("x-content-type-options")).toBe("nosniff");
      expect(await live.json()).toEqual({ status: "ok" });
      const ready = await fetch(`${base}/readyz?probe=1`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: "ready", checks: { database: "ok", migrations: "ok", content: "ok" } });
      expect((await fetch(`${base}/readyz`, { method: "HEAD" })).status).toBe(200);
      for (const other of ["/healthz/x", "/readyzz", "/"]) expect(await (await fetch(`${base}${other}`)).text()).toBe("app");
      expect(await (await fetch(`${base}/healthz`, { method: "POST" })).text()).toBe("app");
    });
  });

  it("/readyz answers 503 naming the failed check, and logs the reason once", async () => {
    const errors = vi.spyOn(logger, "error").mockImplementation(() => {});
    const info = vi.spyOn(logger, "info").mockImplementation(() => {});
    failDatabaseQueries(6, "disk I/O error at /secret/path");
    await withServer(async (base) => {
      for (let i = 0; i < 3; i++) {
        const answer = await fetch(`${base}/readyz`);
        expect(answer.status).toBe(503);
        const body = await answer.text();
        expect(JSON.parse(body)).toEqual({ status: "not ready", checks: { database: "failed", migrations: "failed", content: "ok" } });
        expect(body).not.toContain("/secret/path");
      }
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
    });
    // Logged when readiness changes, not on every probe.
    expect(errors).toHaveBeenCalledTimes(1);
    expect(JSON.stringify(errors.mock.calls[0])).toContain("disk I/O error");
    expect(info.mock.calls.filter(([message]) => message === "[health] ready")).toHaveLength(1);
    errors.mockRestore();
    info.mockRestore();
  });
});

describe("request log", () => {
  it("logs method, path without the query string, status and duration, with the request id sent back", async () => {
    const info = vi.spyOn(logger, "info").mockImplementation(() => {});
    env.log.requests = true;
    try {
      await withServer(async (base) => {
        const answer = await fetch(`${base}/magic?token=s3cret-token`, { headers: { "X-Request-Id": "forged-by-client" } });
        const reqId = answer.headers.get("x-request-id");
        expect(reqId).toMatch(/^[0-9a-f-]{36}$/); // not the client's: TRUST_PROXY is off
        await vi.waitFor(() => expect(info).toHaveBeenCalled());
        const [fields, message] = info.mock.calls[0] as unknown as [Record<string, unknown>, string];
        expect(fields).toMatchObject({ reqId, method: "GET", path: "/magic", status: 200 });
        expect(typeof fields.durationMs).toBe("number");
        expect(message).toMatch(/^GET \/magic 200 [\d.]+ ms$/);
        expect(JSON.stringify(info.mock.calls)).not.toContain("s3cret-token");
      });
    } finally {
      env.log.requests = false;
      info.mockRestore();
    }
  });

  it("keeps paths short and query-free", () => {
    expect(pathOf("/payment-success?session_id=cs_test_1")).toBe("/payment-success");
    expect(pathOf(undefined)).toBe("/");
    expect(pathOf(`/${"a".repeat(2000)}`)).toHaveLength(513);
  });
});
