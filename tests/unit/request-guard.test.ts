import { describe, expect, it } from "vitest";
import type { IncomingMessage, ServerResponse } from "node:http";
import { env } from "~/utils/env.server";
import { fromOwnPages, refusalFor, refusalPage, refuseRequest, wellFormedHost } from "~/security/request-guard.server";

const OURS = new Set(["https://glowcoach.app"]);
const post = (url: string, headers: Record<string, string> = {}) => ({ method: "POST", url, headers });

describe("a changing request must come from our own pages", () => {
  it.each([
    [{ origin: "https://glowcoach.app" }, true],
    [{ origin: "https://evil.example" }, false],
    [{ origin: "https://glowcoach.app.evil.example" }, false],
    [{ origin: "http://glowcoach.app" }, false],
    [{ origin: "null" }, false],
    // Remix's own check would answer this with a 500 and an error in the log: refused here.
    [{ origin: "null", "sec-fetch-site": "same-origin" }, false],
    [{ origin: "null", referer: "https://glowcoach.app/login" }, false],
    [{ "sec-fetch-site": "same-origin" }, true],
    [{ "sec-fetch-site": "same-site" }, false],
    [{ "sec-fetch-site": "cross-site" }, false],
    [{ "sec-fetch-site": "none" }, false],
    [{ referer: "https://glowcoach.app/login" }, true],
    [{ referer: "https://evil.example/login" }, false],
    [{ referer: "not a url" }, false],
    [{}, true],
  ])("%j → %s", (headers, allowed) => {
    expect(fromOwnPages(headers, OURS)).toBe(allowed);
  });
});

describe("the gate every request passes", () => {
  it("answers GET, HEAD and POST, and 405 for anything else", () => {
    for (const method of ["GET", "HEAD"]) expect(refusalFor({ method, url: "/", headers: { origin: "https://evil.example" } })).toBeNull();
    for (const method of ["TRACE", "PUT", "DELETE", "PATCH", "OPTIONS", "CONNECT", "PROPFIND"])
      expect(refusalFor({ method, url: "/", headers: {} })).toBe("method");
    const page = refusalPage("method");
    expect(page.status).toBe(405);
    expect(page.headers.Allow).toBe("GET, HEAD, POST");
  });

  it("checks the origin of every POST except the two signed webhooks", () => {
    const evil = { origin: "https://evil.example" };
    for (const url of ["/login", "/login?_data=routes%2Flogin", "/login.data", "/logout", "/auth/google", "/billing/portal", "/webhooks/other"]) {
      expect(refusalFor(post(url, evil)), url).toBe("origin");
    }
    for (const url of ["/webhooks/stripe", "/webhooks/sanity", "/reminders/unsubscribe"]) expect(refusalFor(post(url, evil)), url).toBeNull();
    const page = refusalPage("origin");
    expect(page.status).toBe(403);
    expect(page.body).toContain("come from our site");
    expect(page.headers["Cache-Control"]).toBe("no-store");
  });

  it("judges the exemptions on the path the router matches, however it is spelled", () => {
    const evil = { origin: "https://evil.example" };
    for (const url of [
      "/webhooks/stripe/",
      "/WEBHOOKS/Stripe",
      "/webhooks/%73tripe",
      "/quiz/../webhooks/sanity",
      "/reminders/unsubscribe.data?token=x",
      "/Reminders/Unsubscribe/?token=x",
    ])
      expect(refusalFor(post(url, evil)), url).toBeNull();
    for (const url of [
      "/webhooks/../login",
      "/webhooks/%2e%2e/quiz/1",
      "/webhooks/stripe/../../logout",
      "/webhooks\\..\\login",
      "/webhooks/stripe%2f..%2f..%2flogin",
    ])
      expect(refusalFor(post(url, evil)), url).toBe("origin");
  });

  it("refuses, 400, an address Remix's adapter would build another path from or could not build at all", () => {
    const bad: [string, Record<string, string>][] = [
      ["/webhooks/stripe", { host: "x/quiz/1?" }],
      ["/webhooks/stripe", { host: "x#" }],
      ["/", { host: "bad host" }],
      ["/", { host: "127.0.0.1:70000" }],
      ["/", { host: "a@b" }],
      ["/", { host: "a\\b" }],
      ["/", { "x-forwarded-host": "glowcoach.app:70000" }],
      ["/", { "x-forwarded-host": "glowcoach.app, proxy/x" }],
      ["http://evil.example/quiz/1", {}],
      ["*", {}],
    ];
    for (const [url, headers] of bad) {
      expect(refusalFor({ method: "GET", url, headers }), `${url} ${JSON.stringify(headers)}`).toBe("address");
      expect(refusalFor(post(url, headers)), `${url} ${JSON.stringify(headers)}`).toBe("address");
    }
    for (const host of [undefined, "glowcoach.app", "127.0.0.1:3000", "localhost:3000", "[::1]:3000", "glow_app:3000", "a.b.c:65535"])
      expect(wellFormedHost(host), host).toBe(true);
    expect(wellFormedHost("glowcoach.app, 10.0.0.1:8080")).toBe(true);
    const page = refusalPage("address");
    expect(page.status).toBe(400);
    expect(page.body).toContain("That address doesn&#39;t look right");
  });

  it("takes Origin off a signed endpoint's POST, so Remix's own origin check doesn't turn a mail app's post into a 500", () => {
    const written: unknown[] = [];
    const res = { writeHead: (...args: unknown[]) => written.push(args), end: (...args: unknown[]) => written.push(args) } as unknown as ServerResponse;
    const unsubscribe = post("/reminders/unsubscribe?token=x", { origin: "https://mail.example", host: "glowcoach.app" }) as unknown as IncomingMessage;
    expect(refuseRequest(unsubscribe, res)).toBe(false);
    expect(unsubscribe.headers.origin).toBeUndefined();
    const ours = new URL(env.publicUrl);
    const login = post("/login", { origin: ours.origin, host: ours.host }) as unknown as IncomingMessage;
    expect(refuseRequest(login, res)).toBe(false);
    expect(login.headers.origin).toBe(ours.origin);
    expect(written).toEqual([]);
  });
});
