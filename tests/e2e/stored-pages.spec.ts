/**
 * Per-person pages answered from memory before Express and Remix (ADR 26), through the real
 * server: the page a member gets from memory is the one a render gives (only the nonce and an
 * offer's countdown differ), its scripts run under its own nonce, it is private and uncached,
 * and what the member does shows at once.
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

const nonceOf = (html: string) => /nonce="([^"]+)"/.exec(html)![1];
/** The page with its slots blanked: the nonce, and an offer's countdown (a second may pass between two views). */
const withoutSlots = (html: string) =>
  html
    .replaceAll(nonceOf(html), "NONCE")
    .replace(/PT\d+S/g, "PT0S")
    .replace(/(data-countdown="true">)\d+:\d\d</g, "$10:00<");

test.describe("per-person pages answered from memory", () => {
  for (const path of ["/home", "/profile", "/plan/clear-healthy-skin", "/subscribe"]) {
    test(`${path} is the page a render gives, with its own nonce, private and uncached`, async ({ context, baseURL }) => {
      await signedInMember(context, baseURL!, { subscription: "monthly" });
      // The visitor cookie first (a first visit is always rendered: it sets it).
      await context.request.get("/");
      const { fresh, stored } = await renderedThenStored(context.request, path);
      const [freshHtml, storedHtml] = [await fresh.text(), await stored.text()];
      expect(nonceOf(storedHtml)).not.toBe(nonceOf(freshHtml));
      expect(storedHtml).not.toContain(nonceOf(freshHtml));
      expect(withoutSlots(storedHtml)).toBe(withoutSlots(freshHtml));
      for (const headers of [fresh.headers(), stored.headers()]) {
        expect(headers["cache-control"]).toBe("private, no-store");
        expect(headers["set-cookie"]).toBeUndefined();
        expect(headers["x-frame-options"]).toBe("DENY");
      }
      expect(stored.headers()["content-security-policy"]).toBe(fresh.headers()["content-security-policy"].replace(nonceOf(freshHtml), nonceOf(storedHtml)));
    });
  }

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
