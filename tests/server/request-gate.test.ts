/**
 * The request gate by plain HTTP, against one server for the file (its own SMTP server, to see
 * that a refused sign-in sent nothing): requests that change anything come from our own pages —
 * every non-GET request from another site (documents, Remix data requests, resource routes) is
 * answered 403 before any action runs; webhooks, verified by signature, are the one exception;
 * unknown methods get 405. And the route table: every route as an anonymous visitor, a member
 * and an admin, with the page or redirect each must get. A real page auto-submitting a form
 * across sites is request-origin.spec.ts.
 */
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { waitForEmail } from "../e2e/mail-server";
import { startAppServer, type AppServer } from "./app-server";
import { SERVER_PORTS } from "./ports";
import { killLeftovers } from "./processes";
import { signInMember, Visitor } from "./visitor";

const EVIL = "https://evil.example";

let server: AppServer;
const visitor = () => new Visitor(server.origin);

beforeAll(async () => {
  server = await startAppServer({ name: "request-gate", port: SERVER_PORTS.requestGate, smtpPort: SERVER_PORTS.requestGateSmtp });
});
afterAll(async () => {
  await server?.stop();
  killLeftovers();
});

describe("cross-site requests", () => {
  test("a cross-site post to a page, a ?_data request or a .data request is refused with a 403 page before the action runs", async () => {
    const victim = visitor();
    const email = `csrf-link-${crypto.randomBytes(4).toString("hex")}@glowcoach.test`;
    for (const path of ["/login", "/login?_data=routes%2Flogin", "/login.data"]) {
      const answer = await victim.post(path, {
        form: { intent: "email-link", email, redirectTo: "/home" },
        headers: { Origin: EVIL },
        maxRedirects: 0,
      });
      expect(answer.status, path).toBe(403);
      expect(answer.headers["content-type"], path).toContain("text/html");
      expect(answer.text, path).toContain("come from our site");
      expect(answer.setCookies.join("\n"), path).not.toContain("gc_session");
    }
    // The action never ran: no sign-in e-mail went out.
    await expect(waitForEmail(server.mailDir, email, { timeoutMs: 1500 })).rejects.toThrow(/No e-mail/);
  });

  test("resource routes are checked too: /logout, /auth/google and /billing/portal", async () => {
    const member = visitor();
    await signInMember(member, server, { subscription: "monthly" });
    for (const path of ["/logout", "/auth/google", "/billing/portal"]) {
      const answer = await member.post(path, { form: { redirectTo: "/home" }, headers: { Origin: EVIL }, maxRedirects: 0 });
      expect(answer.status, path).toBe(403);
    }
    // The cross-site logout did not end the session.
    expect(await member.isSignedIn()).toBe(true);
  });

  test("without Origin, Sec-Fetch-Site or a Referer from another site is refused; no browser headers at all is a script and passes", async () => {
    const actor = visitor();
    const form = { intent: "email-link", email: "not-an-address" };
    const cases: [Record<string, string>, number][] = [
      [{ "Sec-Fetch-Site": "cross-site" }, 403],
      [{ "Sec-Fetch-Site": "same-site" }, 403],
      [{ Referer: `${EVIL}/page` }, 403],
      [{ Origin: "null" }, 403],
      [{ "Sec-Fetch-Site": "same-origin" }, 400],
      [{ Origin: server.origin }, 400],
      [{ Referer: new URL("/login", server.origin).href }, 400],
      [{}, 400],
    ];
    for (const [headers, status] of cases) {
      const answer = await actor.post("/login", { form, headers, maxRedirects: 0 });
      expect(answer.status, JSON.stringify(headers)).toBe(status);
    }
  });

  test("webhooks are the one exception: signed, not same-origin", async () => {
    const person = visitor();
    const answer = await person.post("/webhooks/stripe", {
      body: "{}",
      headers: { "Content-Type": "application/json", Origin: EVIL, "Stripe-Signature": "t=1,v1=bad" },
    });
    // No Stripe here: the endpoint's own answer (404), not the origin check's.
    expect(answer.status).toBe(404);
    const sanity = await person.post("/webhooks/sanity", { body: "{}", headers: { "Content-Type": "application/json", Origin: EVIL } });
    expect(sanity.status).not.toBe(403);
  });

  test("TRACE and other methods the app does not use answer 405", async () => {
    const person = visitor();
    for (const method of ["TRACE", "PUT", "DELETE", "PATCH", "OPTIONS"]) {
      const answer = await person.fetch("/login", { method, maxRedirects: 0 });
      expect(answer.status, method).toBe(405);
      expect(answer.headers.allow, method).toBe("GET, HEAD, POST");
    }
    expect((await person.fetch("/", { method: "HEAD" })).status).toBe(200);
  });
});

type Role = "anonymous" | "user" | "admin";
/** A status = that page itself (200, or the 4xx page for missing input); a path = a redirect there. */
type Outcome = number | string;
type Row = { paths: string[]; expect: Record<Role, Outcome> };

const open: Record<Role, Outcome> = { anonymous: 200, user: 200, admin: 200 };
const signedIn = (signedOut: string): Record<Role, Outcome> => ({ anonymous: signedOut, user: 200, admin: 200 });

const MATRIX: Row[] = [
  { paths: ["/", "/app"], expect: open },
  { paths: ["/quiz", "/quiz/1", "/makeup", "/cakey-makeup", "/crease-crisis"], expect: open },
  { paths: ["/subscribe", "/subscribe-otp", "/sales", "/cakey-otp"], expect: open },
  // Open to all, but without ?session_id there is nothing to verify: the page says so (400).
  { paths: ["/payment-success"], expect: { anonymous: 400, user: 400, admin: 400 } },
  { paths: ["/email-instructions", "/home"], expect: open },
  { paths: ["/privacy-policy", "/terms-of-service", "/partnerships"], expect: open },
  { paths: ["/app-prototype", "/app-quiz", "/app-goal", "/app-crease"], expect: open },
  // Insights are made from the prototype quiz's answers: with none yet, the quiz comes first.
  { paths: ["/app-insights"], expect: { anonymous: "/app-quiz", user: "/app-quiz", admin: "/app-quiz" } },
  // Signing in or registering again makes no sense once signed in.
  { paths: ["/login", "/registration"], expect: { anonymous: 200, user: "/home", admin: "/home" } },
  { paths: ["/path1", "/path2", "/path3", "/path4", "/path5", "/path6", "/completion"], expect: signedIn("/email-instructions") },
  { paths: ["/profile"], expect: signedIn("/login") },
  // The player is for plans the member owns (these members own none): anyone else gets its offer page.
  { paths: ["/plan/clear-healthy-skin"], expect: { anonymous: "/login", user: "/subscribe", admin: "/subscribe" } },
  { paths: ["/plan/crease-free"], expect: { anonymous: "/login", user: "/sales", admin: "/sales" } },
  { paths: ["/admin", "/admin/experiments"], expect: { anonymous: "/login", user: "/home", admin: 200 } },
  // Without an OAuth round trip the callback fails safely back to /login.
  { paths: ["/auth/callback"], expect: { anonymous: "/login", user: "/login", admin: "/login" } },
  { paths: ["/no-such-page"], expect: { anonymous: 404, user: 404, admin: 404 } },
  // The guard answers before the plan lookup: signed-out visitors learn nothing about plan ids.
  { paths: ["/plan/no-such-plan"], expect: { anonymous: "/login", user: 404, admin: 404 } },
];

describe("the route table", () => {
  for (const role of ["anonymous", "user", "admin"] as const) {
    test(`as ${role}`, async () => {
      const person = visitor();
      if (role !== "anonymous") await signInMember(person, server, { role });
      const seen: string[] = [];
      const wrong: string[] = [];
      for (const row of MATRIX) {
        for (const path of row.paths) {
          const expected = row.expect[role];
          const { status, headers } = await person.get(path, { maxRedirects: 0 });
          const location = headers.location ? new URL(headers.location, "http://x").pathname : null;
          const got = status >= 300 && status < 400 ? (location ?? "?") : status;
          seen.push(`${path} → ${got}`);
          if (got !== expected) wrong.push(`${path}: expected ${expected}, got ${got}`);
        }
      }
      expect(wrong, seen.join("\n")).toEqual([]);
    });
  }
});
