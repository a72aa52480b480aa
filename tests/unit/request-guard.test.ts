import { describe, expect, it } from "vitest";
import { fromOwnPages, refusalFor, refusalPage } from "~/security/request-guard.server";

const OURS = new Set(["https://glowcoach.app"]);
const post = (url: string, headers: Record<string, string> = {}) => ({ method: "POST", url, headers });

describe("a changing request must come from our own pages", () => {
  it.each([
    [{ origin: "https://glowcoach.app" }, true],
    [{ origin: "https://evil.example" }, false],
    [{ origin: "https://glowcoach.app.evil.example" }, false],
    [{ origin: "http://glowcoach.app" }, false],
    [{ origin: "null" }, false],
    [{ origin: "null", "sec-fetch-site": "same-origin" }, true],
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
});
