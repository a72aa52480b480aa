// The browser every screenshot script uses: Debian's Chromium (Playwright cannot download
// browsers on these machines), with the flags it needs to run headless here.
import { chromium } from "@playwright/test";

export function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
  });
}
