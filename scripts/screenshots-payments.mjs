// Desktop and phone screenshots of the offer pages, the local test checkout and payment success:
//   node scripts/screenshots-payments.mjs http://127.0.0.1:3000 out-dir
// Needs a server with the embedded defaults (no STRIPE_SECRET_KEY): it completes test payments.
import fs from "node:fs";
import path from "node:path";
import { launchBrowser } from "./screenshot-browser.mjs";

const base = process.argv[2] ?? "http://127.0.0.1:3000";
const out = process.argv[3] ?? "test-results/screenshots";
fs.mkdirSync(out, { recursive: true });

const browser = await launchBrowser();
const viewports = { desktop: { width: 1280, height: 860 }, phone: { width: 412, height: 915 } };

for (const [device, viewport] of Object.entries(viewports)) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1, isMobile: device === "phone" });
  const page = await context.newPage();
  const shot = (name, fullPage = true) => page.screenshot({ path: path.join(out, `${name}-${device}.png`), fullPage, animations: "disabled" });
  for (const [name, url] of [
    ["offer-subscribe", "/subscribe"],
    ["offer-subscribe-otp", "/subscribe-otp"],
    ["offer-sales", "/sales"],
    ["offer-cakey-otp", "/cakey-otp"],
  ]) {
    await page.goto(base + url);
    await shot(name);
  }
  await page.goto(`${base}/sales`);
  await page.getByText("Will this work for my skin type?").click();
  await page.locator("details").first().scrollIntoViewIfNeeded();
  await shot("offer-sales-faq-open", false);
  await page.goto(`${base}/subscribe`);
  await page.getByRole("button", { name: /Continue with Monthly/ }).click();
  await page.waitForURL(/checkout\/test/);
  // The address changes before the new page is drawn: wait for it.
  await page.getByRole("heading", { name: "Checkout" }).waitFor();
  await shot("test-checkout");
  const buyer = `screenshots-${device}-${Date.now()}@example.com`;
  await page.getByLabel("E-mail").fill(buyer);
  await page.getByRole("button", { name: "Complete test payment" }).click();
  await page.waitForURL(/payment-success/);
  await page.getByRole("heading", { name: "Payment Successful!" }).waitFor();
  // A new address: this browser may use the routine it bought until the address is confirmed.
  await shot("payment-success");
  // Confirm the address with the e-mail's code (from the dev mailbox)...
  await page.goto(`${base}/dev/mailbox`);
  await page.locator("a[href^='/dev/mailbox/']", { hasText: buyer }).first().click();
  const code = (await page.locator("pre").innerText()).match(/sign-in page:\s*([A-Z0-9]{6})/)[1];
  await page.goto(`${base}/login/check-email`);
  await page.getByLabel(/Enter the code/).fill(code);
  await page.getByRole("button", { name: "Sign in with code" }).click();
  await page.waitForURL("**/home");
  await context.close();
  // ...then buy again with it from another browser: a verified address is asked to sign in by link.
  const stranger = await browser.newContext({ viewport, deviceScaleFactor: 1, isMobile: device === "phone" });
  const other = await stranger.newPage();
  await other.goto(`${base}/sales`);
  await other.getByRole("button", { name: "Get My Personalized Routine" }).click();
  await other.waitForURL(/checkout\/test/);
  await other.getByLabel("E-mail").fill(buyer);
  await other.getByRole("button", { name: "Complete test payment" }).click();
  await other.getByRole("heading", { name: "Payment Successful!" }).waitFor();
  await other.screenshot({ path: path.join(out, `payment-success-sign-in-by-link-${device}.png`), fullPage: true, animations: "disabled" });
  await stranger.close();
}
await browser.close();
console.log(`Screenshots in ${out}`);
