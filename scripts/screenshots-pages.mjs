// Desktop and phone screenshots of the landing, brands, legal and admin pages:
//   node scripts/screenshots-pages.mjs http://127.0.0.1:3000 out-dir [gc_session cookie value for an admin]
import fs from "node:fs";
import path from "node:path";
import { launchBrowser } from "./screenshot-browser.mjs";

const base = process.argv[2] ?? "http://127.0.0.1:3000";
const out = process.argv[3] ?? "test-results/screenshots";
const adminCookie = process.argv[4];
fs.mkdirSync(out, { recursive: true });

const browser = await launchBrowser();
const viewports = { desktop: { width: 1280, height: 860 }, phone: { width: 412, height: 915 } };
const pages = [
  ["landing", "/"],
  ["partnerships", "/partnerships"],
  ["terms", "/terms-of-service"],
  ["privacy", "/privacy-policy"],
];
if (adminCookie) pages.push(["admin", "/admin"]);

for (const [device, viewport] of Object.entries(viewports)) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1, isMobile: device === "phone" });
  if (adminCookie) await context.addCookies([{ name: "gc_session", value: adminCookie, url: base }]);
  const page = await context.newPage();
  for (const [name, url] of pages) {
    await page.goto(`${base}${url}`);
    await page.screenshot({ path: path.join(out, `${name}-${device}.png`), fullPage: true, animations: "disabled" });
  }
  await context.close();
}
await browser.close();
