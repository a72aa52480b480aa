/**
 * Requests that change anything come from our own pages: every non-GET request from another
 * site (documents, Remix data requests, resource routes) is answered 403 before any action
 * runs; webhooks, verified by signature, are the one exception. Unknown methods get 405.
 */
import { expect, test } from "@playwright/test";
import { uniqueEmail } from "./accounts";
import { isSignedIn, newActor } from "./actors";
import { E2E_MAIL_DIR, waitForEmail } from "./mail-server";
import { signedInMember } from "./members-helpers";

const EVIL = "https://evil.example";

test.describe("cross-site requests", () => {
  test("a cross-site post to a page, a ?_data request or a .data request is refused with a 403 page before the action runs", async ({ browser }, testInfo) => {
    const victim = await newActor(browser, testInfo);
    const email = uniqueEmail("csrf-link", testInfo);
    for (const path of ["/login", "/login?_data=routes%2Flogin", "/login.data"]) {
      const answer = await victim.request.post(path, {
        form: { intent: "email-link", email, redirectTo: "/home" },
        headers: { Origin: EVIL },
        maxRedirects: 0,
      });
      expect(answer.status(), path).toBe(403);
      expect(answer.headers()["content-type"], path).toContain("text/html");
      expect(await answer.text(), path).toContain("come from our site");
      expect(answer.headers()["set-cookie"] ?? "", path).not.toContain("gc_session");
    }
    // The action never ran: no sign-in e-mail went out.
    await expect(waitForEmail(E2E_MAIL_DIR, email, { timeoutMs: 1500 })).rejects.toThrow(/No e-mail/);
    await victim.context.close();
  });

  test("login CSRF: another site's page auto-submitting to /login?_data= gets a 403, and the browser stays signed out", async ({ browser }, testInfo) => {
    const victim = await newActor(browser, testInfo);
    const page = await victim.context.newPage();
    const target = new URL("/login?_data=routes%2Flogin", testInfo.project.use.baseURL).href;
    await page.route(`${EVIL}/**`, (route) =>
      route.fulfill({
        contentType: "text/html",
        body: `<!doctype html><form method="post" action="${target}"><input name="intent" value="password"><input name="email" value="attacker@evil.example"><input name="password" value="attacker-pass"></form><script>document.forms[0].submit()</script>`,
      }),
    );
    const answered = page.waitForResponse((response) => response.url() === target);
    await page.goto(`${EVIL}/cute-quiz`);
    expect((await answered).status()).toBe(403);
    expect(await isSignedIn(victim.request)).toBe(false);
    await victim.context.close();
  });

  test("resource routes are checked too: /logout, /auth/google and /billing/portal", async ({ context, baseURL }) => {
    await signedInMember(context, baseURL!, { subscription: "monthly" });
    for (const path of ["/logout", "/auth/google", "/billing/portal"]) {
      const answer = await context.request.post(path, { form: { redirectTo: "/home" }, headers: { Origin: EVIL }, maxRedirects: 0 });
      expect(answer.status(), path).toBe(403);
    }
    // The cross-site logout did not end the session.
    expect(await isSignedIn(context.request)).toBe(true);
  });

  test("without Origin, Sec-Fetch-Site or a Referer from another site is refused; no browser headers at all is a script and passes", async ({
    browser,
  }, testInfo) => {
    const actor = await newActor(browser, testInfo);
    const form = { intent: "email-link", email: "not-an-address" };
    const cases: [Record<string, string>, number][] = [
      [{ "Sec-Fetch-Site": "cross-site" }, 403],
      [{ "Sec-Fetch-Site": "same-site" }, 403],
      [{ Referer: `${EVIL}/page` }, 403],
      [{ Origin: "null" }, 403],
      [{ "Sec-Fetch-Site": "same-origin" }, 400],
      [{ Origin: new URL(testInfo.project.use.baseURL!).origin }, 400],
      [{ Referer: new URL("/login", testInfo.project.use.baseURL).href }, 400],
      [{}, 400],
    ];
    for (const [headers, status] of cases) {
      const answer = await actor.request.post("/login", { form, headers, maxRedirects: 0 });
      expect(answer.status(), JSON.stringify(headers)).toBe(status);
    }
    await actor.context.close();
  });

  test("webhooks are the one exception: signed, not same-origin", async ({ request }) => {
    const answer = await request.post("/webhooks/stripe", {
      data: "{}",
      headers: { "Content-Type": "application/json", Origin: EVIL, "Stripe-Signature": "t=1,v1=bad" },
    });
    // No Stripe here: the endpoint's own answer (404), not the origin check's.
    expect(answer.status()).toBe(404);
    const sanity = await request.post("/webhooks/sanity", { data: "{}", headers: { "Content-Type": "application/json", Origin: EVIL } });
    expect(sanity.status()).not.toBe(403);
  });

  test("TRACE and other methods the app does not use answer 405", async ({ request }) => {
    for (const method of ["TRACE", "PUT", "DELETE", "PATCH", "OPTIONS"]) {
      const answer = await request.fetch("/login", { method, maxRedirects: 0 });
      expect(answer.status(), method).toBe(405);
      expect(answer.headers().allow, method).toBe("GET, HEAD, POST");
    }
    expect((await request.fetch("/", { method: "HEAD" })).status()).toBe(200);
  });
});

test("the 403 page is short, calm and leads back", async ({ page }, testInfo) => {
  await page.route(`${EVIL}/**`, (route) =>
    route.fulfill({
      contentType: "text/html",
      body: `<!doctype html><form method="post" action="${new URL("/login", testInfo.project.use.baseURL).href}"><input name="email" value="x@example.com"></form><script>document.forms[0].submit()</script>`,
    }),
  );
  await page.goto(`${EVIL}/`);
  await expect(page.getByRole("heading", { level: 1, name: "This request didn't come from our site" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to Home" })).toHaveAttribute("href", "/");
});
