/**
 * Per-person pages answered from memory before Express and Remix (ADR 26), in a browser: a
 * page from memory runs its scripts under its own nonce, and what the member does shows at
 * once. That it is the page a render gives, private and uncached, is tests/server/headers.test.ts.
 */
import { expect, test, type APIRequestContext, type APIResponse } from "@playwright/test";
import { signedInMember } from "./members-helpers";
import { hydrated, jsEnabled } from "./support";

const STORED = "stored-page";

/** Requests `path` until a render (full path) is followed by the same page from memory. */
async function renderedThenStored(request: APIRequestContext, path: string): Promise<{ fresh: APIResponse; stored: APIResponse }> {
  let previous: APIResponse | null = null;
  for (let i = 0; i < 5; i++) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect(response.status()).toBe(200);
    if (response.headers()["server-timing"] === STORED) {
      if (!previous || previous.headers()["server-timing"] === STORED) throw new Error("no render just before");
      return { fresh: previous, stored: response };
    }
    previous = response;
  }
  throw new Error(`${path} was never answered from memory`);
}

test.describe("per-person pages answered from memory", () => {
  // A browser: the stored page's scripts must run under its own nonce, and a click must show at once.
  test("a player page from memory works in the browser, and a finished step shows at once", async ({ context, baseURL, page }, testInfo) => {
    await signedInMember(context, baseURL!, { subscription: "monthly" });
    await context.request.get("/");
    await renderedThenStored(context.request, "/plan/clear-healthy-skin");
    // The browser gets the page from memory: with JavaScript its scripts run under its nonce.
    const shown = await page.goto("/plan/clear-healthy-skin");
    expect(shown!.headers()["server-timing"]).toBe(STORED);
    await hydrated(page, testInfo);
    await expect(page.getByTestId("completed-count")).toHaveText("0 of 6 completed");
    await page.getByRole("button", { name: "Complete & Next" }).click();
    await page.waitForURL("**/plan/clear-healthy-skin?step=2");
    await expect(page.getByTestId("completed-count")).toHaveText("1 of 6 completed");
    // The page kept before the step was done: rendered anew (the member's data changed).
    const again = await page.goto("/plan/clear-healthy-skin");
    expect(again!.headers()["server-timing"]).toBeUndefined();
    await expect(page.getByTestId("completed-count")).toHaveText("1 of 6 completed");
    if (jsEnabled(testInfo)) await expect(page.locator("html[data-hydrated]")).toBeAttached();
  });
});
