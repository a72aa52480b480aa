/**
 * Cross-site forms in a real browser: another site's page auto-submitting to ours is refused,
 * the browser stays signed out, and the 403 page leads back. The gate's answers by plain HTTP
 * (documents, data requests, resource routes, headers, webhooks, methods) are
 * tests/server/request-gate.test.ts.
 */
import { expect, test } from "@playwright/test";
import { isSignedIn, newActor } from "./actors";

const EVIL = "https://evil.example";

test.describe("cross-site requests", () => {
  // A browser: a page on another origin submitting a form, and the cookies as the browser keeps them.
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
});

// A browser: the page a person sees after another site's form sent them here.
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
