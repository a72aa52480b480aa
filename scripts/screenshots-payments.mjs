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
  for (const [name, url] of [["offer-subscribe", "/subscribe"], ["offer-subscribe-otp", "/subscribe-otp"], ["offer-sales", "/sales"], ["offer-cakey-otp", "/cakey-otp"]]) {
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
  await shot("test-checkout");
  await page.getByLabel("E-mail").fill(`screenshots-${device}-${Date.now()}@example.com`);
  await page.getByRole("button", { name: "Complete test payment" }).click();
  await page.waitForURL(/payment-success/);
  await page.getByRole("heading", { name: "Payment Successful!" }).waitFor();
  await shot("payment-success");
  await context.close();
}
await browser.close();
console.log(`Screenshots in ${out}`);
