/** Security headers on every response, and a CSP that lets our scripts run and nothing else. */
import { expect, test } from "@playwright/test";
import { signedInMember } from "./members-helpers";

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

test("scripts are sent as gzipped at build time to a browser that takes gzip, and as they are to one that doesn't", async ({ request }) => {
  const src = /\/assets\/site-chrome-[\w-]+\.js/.exec(await (await request.get("/quiz")).text())?.[0];
  expect(src, "the page's shared script").toBeTruthy();
  const gzipped = await request.get(src!, { headers: { "Accept-Encoding": "gzip" } });
  expect(gzipped.headers()["content-encoding"]).toBe("gzip");
  expect(gzipped.headers()["content-type"]).toMatch(/^application\/javascript/);
  expect(gzipped.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  const plain = await request.get(src!, { headers: { "Accept-Encoding": "identity" } });
  expect(plain.headers()["content-encoding"]).toBeUndefined();
  // Playwright decodes the gzipped answer: both are the same script.
  expect((await gzipped.body()).equals(await plain.body())).toBe(true);
});

test("a page served again from the page cache carries a fresh nonce each time", async ({ page }) => {
  await page.goto("/quiz/1"); // a visitor cookie, and the page rendered once into the cache
  const nonces: string[] = [];
  for (let i = 0; i < 3; i++) {
    const response = await page.request.get("/quiz/1");
    const nonce = /'nonce-([^']+)'/.exec(response.headers()["content-security-policy"])?.[1];
    expect(nonce).toBeTruthy();
    const html = await response.text();
    for (const tag of html.match(/<script\b[^>]*>/g) ?? []) expect(tag).toContain(`nonce="${nonce}"`);
    nonces.push(nonce!);
  }
  expect(new Set(nonces).size).toBe(nonces.length);
});

test("every document, member and admin pages included, answers Cache-Control: private, no-store", async ({ context, baseURL }) => {
  const anonymous = [
    "/",
    "/quiz",
    "/quiz/1",
    "/login",
    "/registration",
    "/email-instructions",
    "/partnerships",
    "/privacy-policy",
    "/subscribe",
    "/magic?token=x&id=y",
    "/no-such-page",
  ];
  for (const path of anonymous) {
    const response = await context.request.get(path, { maxRedirects: 0 });
    expect(response.headers()["cache-control"], path).toBe("private, no-store");
  }
  await signedInMember(context, baseURL!, { role: "admin", subscription: "monthly" });
  const members = [
    "/home",
    "/plan/clear-healthy-skin",
    "/profile",
    "/path1",
    "/path2",
    "/path3",
    "/path4",
    "/path5",
    "/path6",
    "/completion",
    "/admin",
    "/billing/test-portal",
  ];
  for (const path of members) {
    const response = await context.request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBe(200);
    expect(response.headers()["cache-control"], path).toBe("private, no-store");
  }
});
