/**
 * Smaller truths a person sees (issue 27, items 7 and 8): the player's primary action on
 * screen on a phone and a laptop, a calm /auth/callback when nobody tried to sign in, one
 * copyright year from the server's clock, and a first sign-in greeted as a first visit.
 */
import { expect, test, type Page } from "@playwright/test";
import { signInLinkFrom } from "./mail-server";
import { hydrated } from "./support";
import { accountMenu, requestSignInEmail, uniqueEmail, useOwnIp } from "./accounts";
import { signedInMember } from "./members-helpers";
import { run } from "./test-db";

const PLAN = "/plan/clear-healthy-skin";

/** The button's box lies wholly inside the viewport as the page opens, on one line of text. */
async function expectOnScreenOnOneLine(page: Page, name: string) {
  const button = page.getByRole("button", { name, exact: true });
  await expect(button).toBeVisible();
  const box = (await button.boundingBox())!;
  const viewport = page.viewportSize()!;
  expect(await page.evaluate(() => window.scrollY), "the page opens at its top").toBe(0);
  expect(box.y, `${name}: top inside the viewport`).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height, `${name}: bottom inside the ${viewport.width}×${viewport.height} viewport`).toBeLessThanOrEqual(viewport.height);
  expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
  // One line: the label's own line height, not two (the button's padding aside).
  const lines = await button.evaluate((el) => {
    const label = [...el.childNodes].find((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim());
    if (!label) return 0;
    const range = document.createRange();
    range.selectNodeContents(label);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0);
    return new Set(rects.map((r) => Math.round(r.top))).size;
  });
  expect(lines, `${name}: its label on one line`).toBe(1);
}

test.describe("the player's primary action", () => {
  for (const viewport of [
    { width: 412, height: 915 },
    { width: 1280, height: 900 },
  ]) {
    // Untagged: the desktop project only, which sets each viewport itself.
    test(`is on screen without scrolling and on one line at ${viewport.width}×${viewport.height}`, async ({ page, context, baseURL }) => {
      await page.setViewportSize(viewport);
      await signedInMember(context, baseURL!, { subscription: "monthly" });
      await page.goto(PLAN);
      await expectOnScreenOnOneLine(page, "Complete & Next");
      await page.goto(`${PLAN}?step=6`);
      await expectOnScreenOnOneLine(page, "Complete Step");
      // Every step done: the primary action is finishing, in the same place.
      await page.goto(PLAN);
      for (let n = 1; n < 6; n++) {
        await page.getByRole("button", { name: "Complete & Next" }).click();
        await page.waitForURL(`**${PLAN}?step=${n + 1}`);
      }
      await page.getByRole("button", { name: "Complete Step" }).click();
      await expect(page.getByTestId("completed-count")).toHaveText("6 of 6 completed");
      await page.goto(`${PLAN}?step=3`);
      await expectOnScreenOnOneLine(page, "Finish Today's Routine");
    });
  }
});

test.describe("/auth/callback", () => {
  test("visited with no sign-in under way, it goes calmly to sign-in: no error", async ({ page }, testInfo) => {
    // No toast cookie at all: nothing failed, since nothing was tried.
    const answer = await page.request.get("/auth/callback", { maxRedirects: 0 });
    expect(answer.status()).toBe(303);
    expect(new URL(answer.headers().location, "http://x").pathname).toBe("/login");
    expect(answer.headersArray().filter((h) => h.name.toLowerCase() === "set-cookie" && h.value.startsWith("gc_toast="))).toEqual([]);
    await page.goto("/auth/callback");
    await expect(page).toHaveURL(/\/login/);
    await expect(page.getByRole("heading", { level: 1, name: "Access Your Plan" })).toBeVisible();
    // The toast system shows a cookie's toast once the page is interactive.
    await hydrated(page, testInfo);
    await page.waitForTimeout(500);
    await expect(page.getByText("Failed to sign in with Google. Please try again.")).toHaveCount(0);
    await expect(page.getByText("Error", { exact: true })).toHaveCount(0);
  });
});

test.describe("the copyright year", () => {
  test("is the server clock's year, the same in every footer", async ({ page, context, baseURL }) => {
    // Two years on by the test clock: the footer follows the server's clock, not the build or the browser.
    const offsetMs = 2 * 366 * 86_400_000;
    const year = new Date(Date.now() + offsetMs).getUTCFullYear();
    await context.setExtraHTTPHeaders({ "X-Test-Clock-Offset-Ms": String(offsetMs) });
    const { userId } = await signedInMember(context, baseURL!, { subscription: "monthly" });
    // Keep the session alive at the later time.
    await run(`UPDATE "Session" SET "expiresAt" = ? WHERE "userId" = ?`, new Date(Date.now() + offsetMs + 30 * 86_400_000), userId);
    for (const path of ["/", "/partnerships", "/path1", "/completion"]) {
      await page.goto(path);
      await expect(page.locator("footer").last(), path).toContainText(`© ${year} Glow Coach`);
      const years = (await page.locator("body").innerText()).match(/©\s*\d{4}/g) ?? [];
      expect(years, path).toEqual([`© ${year}`]);
    }
  });
});

test.describe("the sign-in link's page", () => {
  test("greets a first sign-in with 'Welcome', and only a returning member with 'Welcome back'", async ({ page }) => {
    await useOwnIp(page.context());
    const email = uniqueEmail("first-visit");
    await page.goto(signInLinkFrom(await requestSignInEmail(page, email)));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome");
    await page.getByRole("button", { name: `Sign in as ${email}` }).click();
    await expect(accountMenu(page, email)).toBeVisible();
    await page.context().clearCookies();
    await page.goto(signInLinkFrom(await requestSignInEmail(page, email)));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome back");
  });
});

test.describe("/profile", () => {
  test("has the goals section the goal step promises ('You can explore other goals later in your profile.')", async ({ page, context, baseURL }) => {
    await signedInMember(context, baseURL!);
    await page.goto("/profile");
    const goals = page.getByRole("region", { name: "Your Goals" });
    await expect(goals.getByRole("link", { name: /Crease Crisis/ })).toHaveAttribute("href", "/app-crease");
    await expect(goals.getByRole("link", { name: /Everyday Makeup/ })).toHaveAttribute("href", "/makeup");
    await goals.getByRole("link", { name: /Crease Crisis/ }).click();
    await expect(page).toHaveURL("/app-crease");
  });
});
