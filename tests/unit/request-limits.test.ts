import { beforeEach, describe, expect, it } from "vitest";
import { sessionCookie } from "~/utils/session-cookie.server";
import { LIMITS, limitRequest, resetRequestLimits, tooManyRequestsPage } from "~/security/request-limits.server";
import { db } from "~/utils/db.server";
import { setClockOffset } from "./clock";

const post = (url: string, cookie?: string) => ({ method: "POST", url, headers: cookie ? { cookie } : {} });
// The start of a minute a year ahead of the wall clock: old windows are pruned by the wall
// clock (each new real minute deletes the windows before it), so counts in a past minute could
// vanish mid-test whenever a real minute turned over (seen once in CI: 0 of 10 refused).
const AT = (Math.floor(Date.now() / 60_000) + 525_600) * 60_000;

/** A gc_session cookie as the app signs it. */
async function signedSession(id: string): Promise<string> {
  return (await sessionCookie.serialize(id)).split(";")[0];
}

describe("request limits on changing requests", () => {
  beforeEach(async () => {
    await resetRequestLimits();
  });

  it("lets a visitor send perEndpoint requests to one endpoint a minute, then answers with the retry time", async () => {
    for (let i = 0; i < LIMITS.perEndpoint; i++) expect(await limitRequest(post("/login"), "10.0.0.1", AT + i)).toBeNull();
    const retryAt = await limitRequest(post("/login"), "10.0.0.1", AT + 100);
    expect(retryAt?.getTime()).toBe(AT + 60_000);
    // Another endpoint, another visitor, and the next minute are separate.
    expect(await limitRequest(post("/registration"), "10.0.0.1", AT + 200)).toBeNull();
    expect(await limitRequest(post("/login"), "10.0.0.2", AT + 200)).toBeNull();
    expect(await limitRequest(post("/login"), "10.0.0.1", AT + 60_000)).toBeNull();
  });

  it("counts in minutes of the server's clock, so a test moves to a fresh minute instead of waiting for one", async () => {
    const minute = 60_000;
    // The test clock at the start of a minute of its own, a year ahead.
    const start = (Math.floor(Date.now() / minute) + 525_600) * minute;
    setClockOffset(start - Date.now());
    try {
      for (let i = 0; i < LIMITS.perEndpoint; i++) expect(await limitRequest(post("/login"), "10.0.9.1")).toBeNull();
      expect((await limitRequest(post("/login"), "10.0.9.1"))?.getTime()).toBe(start + minute);
      setClockOffset(start + minute - Date.now());
      expect(await limitRequest(post("/login"), "10.0.9.1")).toBeNull();
    } finally {
      setClockOffset(0);
    }
  });

  it("counts a form's JavaScript post (/login.data, /_root.data) against the same endpoint as the plain post", async () => {
    for (let i = 0; i < LIMITS.perEndpoint; i++) expect(await limitRequest(post(i % 2 ? "/login.data" : "/login"), "10.0.0.3", AT + i)).toBeNull();
    expect(await limitRequest(post("/login.data?index"), "10.0.0.3", AT + 100)).not.toBeNull();
    for (let i = 0; i < LIMITS.perEndpoint; i++) expect(await limitRequest(post(i % 2 ? "/_root.data" : "/"), "10.0.0.4", AT + i)).toBeNull();
    expect(await limitRequest(post("/"), "10.0.0.4", AT + 100)).not.toBeNull();
  });

  it("counts every spelling the router matches alike against one limit: dot segments, %-encoding, case, trailing slash, .data", async () => {
    for (let i = 0; i < LIMITS.perEndpoint; i++) expect(await limitRequest(post("/quiz/1"), "10.0.1.1", AT)).toBeNull();
    for (const url of [
      "/webhooks/../quiz/1",
      "/webhooks/%2e%2e/quiz/1",
      "/webhooks/%2E%2E/quiz/1",
      "/webhooks/.%2e/quiz/1",
      "/webhooks\\..\\quiz/1",
      "/webhooks/stripe/../../quiz/1.data",
      "/quiz/./1",
      "/quiz/1/",
      "/%71uiz/1",
      "/quiz/%31",
      "/QUIZ/1",
    ])
      expect(await limitRequest(post(url), "10.0.1.1", AT), url).not.toBeNull();
    for (let i = 0; i < LIMITS.perEndpoint; i++) expect(await limitRequest(post("/login"), "10.0.1.2", AT)).toBeNull();
    for (const url of ["/LOGIN", "/Login", "/login/", "/%6Cogin", "/%6cogin/", "/LOGIN.data", "/login/.data", "/webhooks/../login"])
      expect(await limitRequest(post(url), "10.0.1.2", AT), url).not.toBeNull();
  });

  it("exempts the webhooks by the path the router matches, not by a prefix: /webhooks/.. counts like any post", async () => {
    let refused = 0;
    const prefixed = ["/webhooks/../login", "/webhooks/%2e%2e/registration", "/webhooks/other", "/webhooks/stripe/../../quiz/1"];
    for (let i = 0; i < LIMITS.perAddress + 5; i++)
      if (await limitRequest(post(prefixed[i % prefixed.length], await signedSession(`w${i}`)), "10.0.1.3", AT)) refused++;
    expect(refused).toBe(5);
    for (let i = 0; i < LIMITS.perAddress + 5; i++) {
      for (const url of ["/webhooks/stripe/", "/WEBHOOKS/sanity", "/webhooks/%73tripe"]) expect(await limitRequest(post(url), "10.0.1.4", AT), url).toBeNull();
    }
  });

  it("counts requests sent at once exactly (one statement per request, no check-then-write)", async () => {
    const results = await Promise.all(Array.from({ length: LIMITS.perEndpoint + 10 }, () => limitRequest(post("/login"), "10.0.0.5", AT)));
    expect(results.filter((retryAt) => retryAt !== null)).toHaveLength(10);
  });

  it("keeps no session id in the database, only a digest of who asked", async () => {
    const cookie = await signedSession("secret-session-value");
    await limitRequest(post("/plan/x", cookie), "10.0.0.8", AT);
    const keys = (await db.requestCount.findMany({ select: { key: true } })).map((row) => row.key);
    expect(keys).toHaveLength(2);
    expect(keys.join(" ")).not.toContain("secret-session-value");
  });

  it("counts signed-in members by session, so members behind one address don't share an endpoint limit", async () => {
    const a = await signedSession("session-a");
    const b = await signedSession("session-b");
    for (let i = 0; i < LIMITS.perEndpoint; i++) expect(await limitRequest(post("/plan/x", a), "10.0.0.9", AT)).toBeNull();
    expect(await limitRequest(post("/plan/x", a), "10.0.0.9", AT)).not.toBeNull();
    expect(await limitRequest(post("/plan/x", b), "10.0.0.9", AT)).toBeNull();
  });

  it("a made-up session cookie per request doesn't reset the per-endpoint count", async () => {
    let refused = 0;
    for (let i = 0; i < LIMITS.perEndpoint + 5; i++) {
      if (await limitRequest(post("/login", `gc_session=${Math.random().toString(36).slice(2)}.forged`), "10.0.0.7", AT)) refused++;
    }
    expect(refused).toBe(5);
  });

  it("caps one address across endpoints and sessions (fresh cookies don't buy more)", async () => {
    let refused = 0;
    for (let i = 0; i < LIMITS.perAddress + 10; i++) if (await limitRequest(post(`/e${i % 50}`, await signedSession(`s${i}`)), "10.0.0.3", AT)) refused++;
    expect(refused).toBe(10);
  });

  it("never limits reads or signed webhooks", async () => {
    for (let i = 0; i < LIMITS.perAddress + 5; i++) {
      expect(await limitRequest({ method: "GET", url: "/quiz", headers: {} }, "10.0.0.4", AT)).toBeNull();
      expect(await limitRequest(post("/webhooks/stripe"), "10.0.0.4", AT)).toBeNull();
    }
  });

  it("the 429 page says when to try again", () => {
    const page = tooManyRequestsPage(new Date(AT + 45_000), AT);
    expect(page.status).toBe(429);
    expect(page.headers["Retry-After"]).toBe("45");
    expect(page.body).toContain("Too many requests");
    expect(page.body).toContain("try again in a minute");
  });
});
