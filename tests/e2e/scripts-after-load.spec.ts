import { expect, test } from "@playwright/test";
import { hydrated } from "./support";

// ADR 11: React and Remix start only after the page has loaded, so they never compete with
// what the first screen needs; then the page hydrates as usual, under the nonce CSP.
test("scripts start after the page has loaded, then the page hydrates and navigates client-side", async ({ page }, testInfo) => {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));

  const response = await page.goto("/quiz");
  const html = (await response?.text()) ?? "";
  expect(html).not.toContain('<link rel="modulepreload"');
  expect(html).toContain('type="text/gc-parked-module"');

  await hydrated(page, testInfo);
  const timing = await page.evaluate(() => {
    const navigation = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
    const scripts = performance.getEntriesByType("resource").filter((entry) => entry.name.endsWith(".js"));
    return { loadEventStart: navigation.loadEventStart, firstScriptStart: Math.min(...scripts.map((entry) => entry.startTime)), scripts: scripts.length };
  });
  expect(timing.scripts).toBeGreaterThan(3);
  expect(timing.firstScriptStart).toBeGreaterThanOrEqual(timing.loadEventStart);
  await expect(page.locator('link[rel="gc-modulepreload"], script[type="text/gc-parked-module"]')).toHaveCount(0);

  // A client-side navigation keeps the same document (a full load would drop the marker).
  await page.evaluate(() => Object.assign(window, { sameDocument: true }));
  await page.getByRole("link", { name: "Privacy Policy" }).click();
  await expect(page).toHaveURL("/privacy-policy");
  expect(await page.evaluate(() => "sameDocument" in window)).toBe(true);
  expect(problems).toEqual([]);
});
