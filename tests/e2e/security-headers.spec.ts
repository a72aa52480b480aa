/** Security headers on every response, and a CSP that lets our scripts run and nothing else. */
import { expect, test } from "@playwright/test";

test("pages carry a nonce CSP, framing and sniffing are off, and no script is blocked", async ({ page }, testInfo) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  for (const path of ["/", "/quiz", "/quiz/1", "/login", "/home"]) {
    // Twice: the second /quiz/1 may come from the page cache, which must send a matching policy.
    for (let i = 0; i < 2; i++) {
      const response = await page.goto(path);
      const headers = response!.headers();
      const csp = headers["content-security-policy"];
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toContain("object-src 'none'");
      const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
      expect(nonce, path).toBeTruthy();
      expect(headers["x-content-type-options"]).toBe("nosniff");
      expect(headers["x-frame-options"]).toBe("DENY");
      expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
      // Every script element in the HTML as sent carries this response's nonce.
      const html = await response!.text();
      const scripts = html.match(/<script\b[^>]*>/g) ?? [];
      expect(scripts.length, path).toBeGreaterThan(0);
      for (const tag of scripts) expect(tag, `${path}: ${tag}`).toContain(`nonce="${nonce}"`);
    }
  }
  if (testInfo.project.use.javaScriptEnabled !== false) {
    // The quiz still works with the policy on: JavaScript ran (the button is enabled by a click).
    await page.goto("/quiz/1");
    await page.locator("label").first().click();
    await expect(page.locator(".continue-button")).toBeEnabled();
  }
  expect(violations).toEqual([]);
});

test("static files get the same headers", async ({ request }) => {
  const response = await request.get("/favicon.svg");
  expect(response.headers()["x-content-type-options"]).toBe("nosniff");
  expect(response.headers()["x-frame-options"]).toBe("DENY");
});
