/**
 * Fuzzing: 10,000+ malformed requests across every loader and action (random and oversized
 * bodies, wrong types, duplicate fields, broken cookies, odd paths and encodings, bad JSON
 * on webhooks). No answer may be a 500, and no stored record may change (page-view events
 * and rate-limit counts aside: those are what valid requests write). Runs its own server on
 * its own data folder so nothing else writes to the database meanwhile.
 */
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, expect, test } from "vitest";
import { SERVER_PORTS } from "./ports";
import { killLeftovers, tracked } from "./processes";

const PORT = SERVER_PORTS.fuzz;
const BASE = `http://127.0.0.1:${PORT}`;
const DATA_DIR = path.resolve("test-results/fuzz-data");
const REQUESTS = 10_500;
const CONCURRENCY = 16;

/** Every page and endpoint of the app, with the field names its forms use. */
const ROUTES = [
  "/",
  "/app",
  "/quiz",
  "/quiz/1",
  "/quiz/2",
  "/quiz/12",
  "/quiz/13",
  "/quiz/14",
  "/makeup",
  "/makeup/3",
  "/cakey-makeup/5",
  "/crease-crisis/2",
  "/app-prototype",
  "/app-quiz",
  "/app-insights",
  "/app-goal",
  "/app-crease",
  "/subscribe",
  "/subscribe-otp",
  "/sales",
  "/cakey-otp",
  "/checkout",
  "/payment-success",
  "/billing/portal",
  "/billing/test-portal",
  "/login",
  "/login/check-email",
  "/magic",
  "/registration",
  "/logout",
  "/email-instructions",
  "/auth/google",
  "/auth/callback",
  "/auth/status",
  "/home",
  "/plan/clear-healthy-skin",
  "/profile",
  "/path1",
  "/path3",
  "/path6",
  "/completion",
  "/admin",
  "/privacy-policy",
  "/terms-of-service",
  "/partnerships",
  "/dev/mailbox",
  "/dev/mailbox/0000000000000-abcdef12",
  "/webhooks/stripe",
  "/webhooks/sanity",
];
const FIELDS = [
  "intent",
  "email",
  "password",
  "confirmPassword",
  "name",
  "code",
  "token",
  "id",
  "redirectTo",
  "answer",
  "answers",
  "step",
  "plan",
  "planId",
  "offer",
  "timeZone",
  "website",
  "popup",
  "session_id",
  "_data",
  "value",
];
const COOKIES = ["gc_session", "gc_vid", "gc_toast", "gc_auth", "gc_oauth", "gc_tz", "gc_answers_quiz", "gc_answers_makeup", "gc_countdown", "gc_preview"];
const ODD_PATHS = [
  "/%",
  "/%zz",
  "/quiz/%E0%A4%A",
  "/..%2f..%2fetc%2fpasswd",
  "/quiz/%00",
  "/quiz/-1",
  "/quiz/1e9",
  "/quiz/0x1",
  "/plan/%2e%2e",
  "/path7",
  "/%F0%9F%92%84",
  "//evil.example",
  "/magic?token=%",
  "/login?redirectTo=%2F%2Fevil",
  `/${"a".repeat(3000)}`,
  "/quiz/1?step=abc&step=def",
  "/dev/mailbox/..%2F..%2Fdev-secrets",
  "/assets/../server.mjs",
];

/** Deterministic randomness, so a failure can be replayed. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: T[]) => items[int(items.length)];
  return { next, int, pick };
}

function junk(r: ReturnType<typeof random>, max: number): string {
  const kinds = [
    () => crypto.randomBytes(r.int(max) + 1).toString("latin1"),
    () => "A".repeat(r.int(max * 20) + 1),
    () =>
      r.pick([
        "",
        " ",
        "null",
        "undefined",
        "[]",
        "{}",
        "0",
        "-1",
        "NaN",
        "true",
        "1e309",
        "<script>alert(1)</script>",
        "' OR 1=1 --",
        "%00",
        "\u0000",
        "😀".repeat(50),
        "../../etc/passwd",
        "a@b",
        "@",
        `${"x".repeat(300)}@example.com`,
      ]),
    () => String(r.next() * 1e6),
  ];
  return r.pick(kinds)();
}

type Fuzzed = { method: string; path: string; headers: Record<string, string>; body?: Buffer | string };

function fuzzRequest(r: ReturnType<typeof random>): Fuzzed {
  const headers: Record<string, string> = { "X-Forwarded-For": `10.${r.int(256)}.${r.int(256)}.${r.int(256)}` };
  if (r.next() < 0.5) {
    const cookies = Array.from({ length: r.int(4) + 1 }, () => `${r.pick(COOKIES)}=${encodeURIComponent(junk(r, 60)).slice(0, r.next() < 0.1 ? 8000 : 400)}`);
    headers.Cookie = cookies.join("; ");
  }
  const path = r.next() < 0.15 ? r.pick(ODD_PATHS) : r.pick(ROUTES) + (r.next() < 0.2 ? `?${r.pick(FIELDS)}=${encodeURIComponent(junk(r, 30))}` : "");
  const method = r.next() < 0.65 ? "POST" : r.pick(["GET", "GET", "HEAD", "PUT", "DELETE", "PATCH", "OPTIONS"]);
  if (method !== "POST" && method !== "PUT" && method !== "PATCH") return { method, path, headers };

  const shape = r.int(6);
  if (shape === 0) {
    headers["Content-Type"] = "application/x-www-form-urlencoded";
    const pairs = Array.from({ length: r.int(8) }, () => `${encodeURIComponent(r.pick(FIELDS))}=${encodeURIComponent(junk(r, 40))}`);
    // Duplicate fields.
    if (r.next() < 0.5) pairs.push(...pairs.slice(0, 2));
    return { method, path, headers, body: pairs.join("&") };
  }
  if (shape === 1) {
    headers["Content-Type"] = "application/x-www-form-urlencoded";
    return { method, path, headers, body: `${r.pick(FIELDS)}=${"x".repeat(70_000 + r.int(50_000))}` };
  }
  if (shape === 2) {
    headers["Content-Type"] = r.pick([
      "application/json",
      "text/plain",
      "application/xml",
      "multipart/form-data; boundary=zz",
      "multipart/form-data",
      "application/octet-stream",
    ]);
    return { method, path, headers, body: junk(r, 200) };
  }
  if (shape === 3) {
    // Webhook-shaped: JSON that is broken or well-formed, with made-up signatures.
    headers["Content-Type"] = "application/json";
    // Header values must be printable ASCII to be sent at all: percent-encode the junk.
    headers["Stripe-Signature"] = r.pick([
      "",
      "t=1,v1=abc",
      `t=${Math.floor(Date.now() / 1000)},v1=${crypto.randomBytes(32).toString("hex")}`,
      encodeURIComponent(junk(r, 80)),
    ]);
    headers["Sanity-Webhook-Signature"] = r.pick(["", "t=1,v1=abc", encodeURIComponent(junk(r, 80))]);
    const json = r.pick([
      '{"id":"evt_1","type":"checkout.session.completed","data":{"object":{"id":"cs_1","payment_status":"paid"}}}',
      '{"type":"customer.subscription.deleted"',
      "[]",
      '{"_id":"offer-skincare","_type":"offer"}',
      junk(r, 100),
    ]);
    return { method, path: r.pick(["/webhooks/stripe", "/webhooks/sanity", path]), headers, body: json };
  }
  if (shape === 4) {
    headers["Content-Type"] = "application/x-www-form-urlencoded";
    // Broken percent-encoding and raw bytes in a form body.
    return { method, path, headers, body: Buffer.concat([Buffer.from(`${r.pick(FIELDS)}=%E0%A4%A&%%=&`), crypto.randomBytes(r.int(200))]) };
  }
  headers["Content-Type"] = "application/x-www-form-urlencoded";
  return { method, path, headers, body: "" };
}

function startServer(): ChildProcess {
  return tracked(
    spawn("node", ["scripts/start.mjs"], {
      // Each fuzzed request comes from its own address (TRUST_PROXY), so rate limits rarely cut the fuzzing short.
      env: { ...process.env, PORT: String(PORT), HOST: "127.0.0.1", DATA_DIR, APP_ENV: "local", REQUEST_LIMIT_PER_MINUTE: "1000000", TRUST_PROXY: "1" },
      stdio: ["ignore", "ignore", "pipe"],
    }),
  );
}

afterEach(killLeftovers);

/** Row counts and a content hash of every table whose rows only valid requests may write. */
function snapshot(): Record<string, string> {
  const db = new Database(path.join(DATA_DIR, "glow-coach.db"), { readonly: true });
  try {
    const tables = (
      db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite%'`).all() as {
        name: string;
      }[]
    )
      .map((t) => t.name)
      // Logs and the rate limits' own bookkeeping: every request, good or bad, is counted. And
      // the addresses content has published (PublishedPage): noted on any request after a
      // publish, whatever the request was, since they record the content, not the visitor.
      .filter((name) => !["AnalyticsEvent", "RateLimitHit", "RateLimitKey", "RequestCount", "PublishedPage"].includes(name));
    return Object.fromEntries(
      tables.map((name) => {
        const rows = db.prepare(`SELECT * FROM "${name}"`).all();
        return [name, `${crypto.createHash("sha256").update(JSON.stringify(rows)).digest("hex").slice(0, 16)}:${rows.length}`];
      }),
    );
  } finally {
    db.close();
  }
}

test("10,000 malformed requests: no 500s, nothing stored changes", { timeout: 300_000 }, async () => {
  fs.rmSync(DATA_DIR, { recursive: true, force: true });
  const server = startServer();
  let serverLog = "";
  server.stderr?.on("data", (chunk) => (serverLog += chunk));
  try {
    const deadline = Date.now() + 120_000;
    for (;;) {
      try {
        if ((await fetch(`${BASE}/`)).ok) break;
      } catch {
        // not up yet
      }
      if (Date.now() > deadline) throw new Error("the server did not start");
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const before = snapshot();
    const r = random(20261123);
    const requests = Array.from({ length: REQUESTS }, () => fuzzRequest(r));
    const statuses = new Map<number, number>();
    const failures: string[] = [];
    let index = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (index < requests.length) {
          const request = requests[index++];
          try {
            const body = typeof request.body === "string" || request.body === undefined ? request.body : new Uint8Array(request.body);
            const send = () => fetch(`${BASE}${request.path}`, { method: request.method, headers: request.headers, body, redirect: "manual" });
            // The server closes a connection after refusing an oversized body unread; a request
            // that was queued on that same connection is reset and is sent again, once.
            const response = await send().catch((error) => {
              if ((error as { cause?: { code?: string } }).cause?.code === "ECONNRESET") return send();
              throw error;
            });
            const text = await response.text();
            statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
            if (response.status >= 500 || /at [\w.<>]+ \(.*:\d+:\d+\)/.test(text)) {
              failures.push(`${response.status} ${request.method} ${request.path.slice(0, 120)} ${String(request.body ?? "").slice(0, 120)}`);
            }
          } catch (error) {
            const cause = (error as { cause?: { code?: string; message?: string } }).cause;
            failures.push(
              `no answer: ${request.method} ${request.path.slice(0, 120)} (${String(request.body ?? "").length} bytes): ${(error as Error).message} ${cause?.code ?? ""} ${cause?.message ?? ""}`,
            );
          }
        }
      }),
    );
    const summary = [...statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status}×${count}`)
      .join(" ");
    console.log(`fuzz: ${REQUESTS} requests: ${summary}`);
    expect(failures.slice(0, 20), `${failures.length} failures; server log:\n${serverLog.slice(-3000)}`).toEqual([]);
    expect(snapshot()).toEqual(before);
  } finally {
    server.kill("SIGKILL");
  }
});
