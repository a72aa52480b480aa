/**
 * A request's path is judged once, the way Remix's router will match it (ADR 29): the gate,
 * the request limits and the stored pages use that judgement, so no spelling of a path (dot
 * segments, %-encoding, case, a trailing slash, `.data`) or Host header reaches an action past
 * a rule meant for it. Also: the answers for a mail app's one-click unsubscribe from its own
 * page, for `Origin: null`, and for a reminder link with a bad signature are calm, never a 500,
 * and log no error.
 *
 * Raw requests (node:http sends a path as written; browsers and Playwright's request context
 * resolve dot segments first) against a server of its own, whose log this spec reads.
 */
import crypto from "node:crypto";
import http from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { ownLimitMinute } from "../e2e/limit-minute";
import { databaseOf } from "../e2e/test-db";
import { startAppServer, type AppServer } from "./app-server";
import { SERVER_PORTS } from "./ports";
import { killLeftovers } from "./processes";

const PORT = SERVER_PORTS.requestPaths;
/** Small, so the per-address limit is reached in a test. */
const PER_ADDRESS = 60;
const PER_ENDPOINT = 30;
const FOREIGN = "https://mail.example";

let server: AppServer;

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

/** One request exactly as written: the path and Host header go out untouched. */
function send(method: string, target: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: "127.0.0.1", port: PORT, method, path: target, headers: { Host: `127.0.0.1:${PORT}`, ...limitMinute, ...headers }, agent: false },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

const OWN = { Origin: `http://127.0.0.1:${PORT}` };
const FORM = { "Content-Type": "application/x-www-form-urlencoded" };

/** A form post from one of our pages, from the client address `ip` (TRUST_PROXY). */
function post(target: string, ip: string, body = "answer=x", headers: Record<string, string> = {}): Promise<Answer> {
  return send("POST", target, { ...OWN, ...FORM, "X-Forwarded-For": ip, ...headers }, body);
}

/** A client address no other test uses. */
const newIp = () => `10.${crypto.randomInt(256)}.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`;

/** A limit test's requests count in a minute of the server's clock of their own (ownLimitMinute). */
let limitMinute: Record<string, string> = {};

/** The log lines written while `run` ran, by level. */
async function logWhile(run: () => Promise<void>): Promise<{ warn: string[]; error: string[] }> {
  const from = server.log().length;
  await run();
  await new Promise((resolve) => setTimeout(resolve, 300));
  const lines = server
    .log()
    .slice(from)
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { level: string; msg?: string });
  const messages = (levels: string[]) => lines.filter((line) => levels.includes(line.level)).map((line) => line.msg ?? "");
  return { warn: messages(["warn"]), error: messages(["error", "fatal"]) };
}

describe("one judgement of a request's path", () => {
  beforeAll(async () => {
    server = await startAppServer({ name: "request-paths", port: PORT, env: { REQUEST_LIMIT_PER_MINUTE: String(PER_ADDRESS) } });
  });

  afterAll(async () => {
    await server?.stop();
    killLeftovers();
  });

  beforeEach(() => {
    limitMinute = {};
  });

  // What the router reaches with each: the same action as the plain path.
  const QUIZ_SPELLINGS = [
    "/webhooks/../quiz/1",
    "/webhooks/%2e%2e/quiz/1",
    "/webhooks/%2E%2E/quiz/1",
    "/webhooks/.%2e/quiz/1",
    "/webhooks\\..\\quiz/1",
    "/webhooks/stripe/../../quiz/1.data",
    "/quiz/./1",
    "/quiz/1/",
    "/quiz/1//",
    "/%71uiz/1",
    "/quiz/%31",
    "/quiz/1.data",
  ];
  const LOGIN_SPELLINGS = ["/LOGIN", "/Login", "/login/", "/%6Cogin", "/webhooks/../login", "/webhooks/%2e%2e/login", "/LOGIN.data", "/login/.data"];

  test("each spelling reaches the same action as the plain path (so the corpus is real)", async () => {
    limitMinute = ownLimitMinute();
    for (const target of ["/quiz/1", ...QUIZ_SPELLINGS]) {
      const answer = await post(target, newIp());
      expect(answer.status, target).toBe(400);
      expect(answer.body, target).toContain("Please choose an answer to continue.");
    }
    for (const target of ["/login", ...LOGIN_SPELLINGS]) {
      const answer = await post(target, newIp(), "intent=email-link&email=not-an-address");
      expect(answer.status, target).toBe(400);
      expect(answer.body, target).toContain("Please enter a valid e-mail address.");
    }
  });

  /** Refused by the request limit: the 429 page, or for a `.data` post, Remix's "load the 429 page". */
  const refused = (answer: Answer) => answer.status === 429 || (answer.status === 202 && answer.body.includes("/too-many-requests"));

  test("every spelling of a path counts against that path's limit: dot segments, %-encoding, case, trailing slash, .data", async () => {
    limitMinute = ownLimitMinute();
    const quizIp = newIp();
    for (let i = 0; i < PER_ENDPOINT; i++) expect((await post("/quiz/1", quizIp)).status).toBe(400);
    for (const target of QUIZ_SPELLINGS) expect(refused(await post(target, quizIp)), target).toBe(true);

    const loginIp = newIp();
    for (let i = 0; i < PER_ENDPOINT; i++) expect((await post("/login", loginIp, "intent=email-link&email=not-an-address")).status).toBe(400);
    for (const target of LOGIN_SPELLINGS) expect(refused(await post(target, loginIp, "intent=email-link&email=not-an-address")), target).toBe(true);
  });

  test("the per-address limit can't be skipped through /webhooks/..; the signed webhooks stay exempt", async () => {
    limitMinute = ownLimitMinute();
    const ip = newIp();
    const targets = ["/webhooks/../quiz/1", "/webhooks/%2e%2e/login", "/webhooks/./../registration"];
    const statuses = [];
    for (let i = 0; i <= PER_ADDRESS; i++) statuses.push((await post(targets[i % targets.length], ip, "intent=x")).status);
    expect(statuses.slice(0, PER_ADDRESS)).not.toContain(429);
    expect(statuses[PER_ADDRESS]).toBe(429);
    // Providers retry in bursts from one address: the webhooks themselves are never limited.
    const hook = newIp();
    for (let i = 0; i <= PER_ADDRESS + 5; i++) {
      const answer = await send("POST", "/webhooks/sanity", { "Content-Type": "application/json", "X-Forwarded-For": hook }, "{}");
      expect(answer.status).not.toBe(429);
    }
  });

  test("a Host header or an absolute request target can't move a request to another route, nor cause a 500", async () => {
    const cases: [string, string, Record<string, string>][] = [
      // Remix's adapter puts Host before the path: this Host would turn /webhooks/stripe into /quiz/1.
      ["POST", "/webhooks/stripe", { Host: "x/quiz/1?" }],
      ["POST", "/webhooks/stripe", { Host: "x#" }],
      ["GET", "/", { Host: "bad host" }],
      ["GET", "/", { Host: `127.0.0.1:70000` }],
      ["GET", "/", { "X-Forwarded-Host": "glowcoach.app:70000" }],
      ["GET", "http://x/quiz/1", {}],
      ["POST", "http://x/quiz/1", OWN],
    ];
    const log = await logWhile(async () => {
      for (const [method, target, headers] of cases) {
        const answer = await send(method, target, { ...FORM, "X-Forwarded-For": newIp(), ...headers }, method === "POST" ? "answer=x" : undefined);
        const label = `${method} ${target} ${JSON.stringify(headers)}`;
        expect(answer.status, label).toBe(400);
        expect(answer.headers["content-type"], label).toContain("text/html");
        expect(answer.body, label).toContain("That address doesn&#39;t look right");
      }
    });
    expect(log.error).toEqual([]);
    // Ordinary hosts still work.
    for (const host of [`127.0.0.1:${PORT}`, `localhost:${PORT}`, "glow_app:3000"]) expect((await send("GET", "/", { Host: host })).status, host).toBe(200);
  });

  test("Origin: null is refused by the gate even with Sec-Fetch-Site: same-origin (403, no error logged)", async () => {
    const log = await logWhile(async () => {
      const answer = await send(
        "POST",
        "/login",
        { ...FORM, Origin: "null", "Sec-Fetch-Site": "same-origin", "X-Forwarded-For": newIp() },
        "intent=email-link&email=a@example.com",
      );
      expect(answer.status).toBe(403);
      expect(answer.body).toContain("This request didn&#39;t come from our site");
    });
    expect(log.error).toEqual([]);
    expect(log.warn.join("\n")).toContain("[request-guard] refused a cross-site POST");
  });

  test("a mail app's one-click unsubscribe (RFC 8058) from its own page is answered and honoured", async () => {
    const { run, rows } = databaseOf(server.dataDir);
    const userId = crypto.randomUUID();
    await run(
      `INSERT INTO "User" ("id","email","role","timeZone","createdAt","emailVerifiedAt","reminderOn") VALUES (?,?,?,?,?,?,?)`,
      userId,
      `one-click-${userId.slice(0, 8)}@glowcoach.test`,
      "user",
      "UTC",
      new Date(),
      new Date(),
      true,
    );
    // The link's token, as app/reminders/links.server.ts signs it.
    const key = crypto.createHmac("sha256", server.sessionSecret).update("reminder-links").digest();
    const token = `${userId}.${crypto.createHmac("sha256", key).update(`unsubscribe:${userId}`).digest("base64url")}`;
    const target = `/reminders/unsubscribe?${new URLSearchParams({ token })}`;
    const log = await logWhile(async () => {
      const answer = await send(
        "POST",
        target,
        { ...FORM, Origin: FOREIGN, "Sec-Fetch-Site": "cross-site", "X-Forwarded-For": newIp() },
        "List-Unsubscribe=One-Click",
      );
      expect(answer.status).toBe(200);
      expect(answer.body).toContain("Reminders are off");
    });
    expect(log.error).toEqual([]);
    const [user] = await rows<{ reminderOn: boolean }>(`SELECT "reminderOn" FROM "User" WHERE "id" = ?`, userId);
    expect(user.reminderOn).toBe(false);
    // A forged token from a foreign page is still a calm 400, and changes nothing.
    const forged = await send("POST", target.replace(/token=[^.]+/, "token=someone-else"), { ...FORM, Origin: FOREIGN }, "List-Unsubscribe=One-Click");
    expect(forged.status).toBe(400);
  });

  test("a reminder link with a bad signature is a calm 400 page, logged as a warning", async () => {
    const log = await logWhile(async () => {
      const answer = await send("GET", "/reminders/open?plan=clear-healthy-skin&sig=forged");
      expect(answer.status).toBe(400);
      expect(answer.headers["content-type"]).toContain("text/html");
      expect(answer.body).toContain("We couldn&#x27;t do that");
      expect(answer.body).toContain("This link isn&#x27;t valid. Open your routine from the Glow Coach home page.");
    });
    expect(log.error).toEqual([]);
    expect(log.warn.join("\n")).toContain("[reminders] a routine link with a bad signature");
    // A link we signed still leads to the plan.
    const key = crypto.createHmac("sha256", server.sessionSecret).update("reminder-links").digest();
    const sig = crypto.createHmac("sha256", key).update("open:clear-healthy-skin").digest("base64url");
    const good = await send("GET", `/reminders/open?${new URLSearchParams({ plan: "clear-healthy-skin", sig })}`);
    expect(good.status).toBe(303);
    expect(good.headers.location).toBe("/plan/clear-healthy-skin");
  });
});
