// Takes desktop and phone screenshots of pages for review:
//   node scripts/screenshots.mjs http://127.0.0.1:3000 out-dir
// Walks the skin quiz so the question, analysing and result screens are included.
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
  const shot = async (name) => page.screenshot({ path: path.join(out, `${name}-${device}.png`), fullPage: true, animations: "disabled" });
  await page.goto(`${base}/`);
  await shot("landing");
  await page.goto(`${base}/quiz`);
  await shot("quiz-intro");
  await page.getByRole("button", { name: "Get My Clear Skin Plan" }).click();
  await page.waitForURL("**/quiz/1");
  await shot("quiz-step-1");
  await page.locator("label").filter({ hasText: "Dry" }).first().click();
  await shot("quiz-step-1-chosen");
  await page.getByRole("button", { name: "See My Next Step" }).click();
  await page.waitForURL("**/quiz/2");
  await page.locator("label").filter({ hasText: "Acne" }).click();
  await page.locator("label").filter({ hasText: "Redness" }).click();
  await shot("quiz-step-2");
  await page.getByRole("button", { name: "Show Me the Fix" }).click();
  for (let step = 3; step <= 12; step++) {
    await page.waitForURL(`**/quiz/${step}`);
    await page.locator("label").first().click();
    await page.locator(".continue-button").click();
  }
  await page.waitForURL("**/quiz/13");
  await page.waitForTimeout(1600);
  await shot("quiz-analysing");
  await page.waitForURL("**/quiz/14", { timeout: 10_000 });
  await page.waitForTimeout(500);
  await shot("quiz-result");
  await page.goto(`${base}/no-such-page`);
  await shot("not-found");
  await context.close();
}
await browser.close();
console.log(`Screenshots in ${out}`);
