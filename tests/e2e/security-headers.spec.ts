/**
 * The CSP in a browser: our scripts run under it and nothing is blocked. The headers themselves
 * (nonce CSP, no framing, nosniff, Cache-Control, gzipped scripts) are tests/server/headers.test.ts.
 */
import { expect, test } from "@playwright/test";

// A browser: only it reports a script the policy blocked, and runs the quiz's scripts under it.
test("no script is blocked by the CSP, and the quiz's scripts run under it", async ({ page }, testInfo) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  for (const path of ["/", "/quiz", "/quiz/1", "/login", "/home"]) {
    // Twice: the second /quiz/1 may come from the page cache, which must send a matching policy.
    for (let i = 0; i < 2; i++) expect((await page.goto(path))!.status(), path).toBe(200);
  }
  if (testInfo.project.use.javaScriptEnabled !== false) {
    // The quiz still works with the policy on: JavaScript ran (the button is enabled by a click).
    await page.goto("/quiz/1");
    await page.locator("label").first().click();
    await expect(page.locator(".continue-button")).toBeEnabled();
  }
  expect(violations).toEqual([]);
});
