// Desktop and phone screenshots of the sign-in pages, for review:
//   node scripts/screenshots-accounts.mjs http://127.0.0.1:3000 out-dir
// Uses the dev mailbox (no SMTP_URL) to follow a real sign-in link; ADMIN_EMAILS must
// include admin@glowcoach.test for the admin page.
import fs from "node:fs";
import path from "node:path";
import { launchBrowser } from "./screenshot-browser.mjs";

const base = process.argv[2] ?? "http://127.0.0.1:3000";
const out = process.argv[3] ?? "test-results/screenshots";
fs.mkdirSync(out, { recursive: true });

const browser = await launchBrowser();
const viewports = { desktop: { width: 1280, height: 860 }, phone: { width: 390, height: 844 } };

for (const [device, viewport] of Object.entries(viewports)) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: device === "phone" ? 2 : 1, isMobile: device === "phone" });
  const page = await context.newPage();
  const shot = (name) => page.screenshot({ path: path.join(out, `${name}-${device}.png`), fullPage: true, animations: "disabled" });
  await page.goto(`${base}/login`);
  await shot("login");
  await page.getByLabel("E-mail").fill(`admin@glowcoach.test`);
  await shot("login-filled");
  await page.getByRole("button", { name: "Send Magic Link" }).click();
  await page.waitForURL("**/login/check-email");
  await shot("check-email");
  await page.goto(`${base}/dev/mailbox`);
  await shot("mailbox");
  await page.locator("a[href^='/dev/mailbox/']").first().click();
  await page.waitForURL("**/dev/mailbox/*");
  await shot("mailbox-message");
  const link = await page.frameLocator("iframe").first().getByRole("link", { name: "Access My Skincare Plan" }).getAttribute("href");
  await page.goto(link);
  await shot("magic");
  await page.getByRole("button", { name: /^Sign in as/ }).click();
  await page.waitForURL("**/home");
  await page.locator("summary[aria-label*='Account menu']").click();
  await shot("home-avatar-menu");
  await page.goto(`${base}/admin`);
  await shot("admin");
  await page.goto(link);
  await shot("magic-used");
  await context.clearCookies();
  await page.goto(`${base}/registration`);
  await shot("registration");
  await page.getByRole("button", { name: "Create Account" }).click();
  await page.getByText("Please enter your name.").waitFor();
  await shot("registration-errors");
  // Signing up opens no session: 'Check Your Email!' until the address is confirmed.
  await page.getByLabel("Full Name").fill("Ada Glow");
  await page.getByLabel("Email").fill(`signup-${device}-${Date.now()}@example.com`);
  await page.getByLabel("Password", { exact: true }).fill("rosewater-2026");
  await page.getByLabel("Confirm Password").fill("rosewater-2026");
  await page.getByRole("button", { name: "Create Account" }).click();
  await page.waitForURL("**/login/check-email");
  await shot("registration-check-email");
  // A form posted from another site: the request gate's 403 page.
  await page.route("https://elsewhere.example/**", (route) =>
    route.fulfill({
      contentType: "text/html",
      body: `<form method="post" action="${base}/login"><input name="email" value="x@example.com"></form><script>document.forms[0].submit()</script>`,
    }),
  );
  await page.goto("https://elsewhere.example/");
  await page.getByRole("heading", { name: "This request didn't come from our site" }).waitFor();
  await shot("forbidden-403");
  await page.goto(`${base}/email-instructions`);
  await shot("email-instructions");
  await page.goto(`${base}/login?method=password`);
  await shot("login-password");
  await context.close();
}
await browser.close();
console.log(`screenshots in ${out}`);
