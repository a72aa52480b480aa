/**
 * Instant answers (ADR 43): with JavaScript, the next question is on screen before the server has
 * the answer, and the server stays the judge. Sends are cut, lost and held with Playwright's
 * request interception; tampered client state is written into sessionStorage as an attacker would.
 */
import { expect, test, type Page } from "@playwright/test";
import { choose, eventsFor, hydrated, visitorId } from "./support";

const answered = async (visitor: string) => (await eventsFor(visitor)).filter((e) => e.name === "step_answered").map((e) => e.step);

/** Every POST of one step's answer goes to `handle`; anything else goes through. */
async function onAnswerTo(page: Page, step: number, handle: Parameters<Page["route"]>[1]) {
  await page.route(`**/quiz/${step}.data`, (route, request) => (request.method() === "POST" ? handle(route, request) : route.continue()));
}

test.describe("instant answers", () => {
  test("the next question shows at once; a send that keeps failing is tried four times, then the visitor is told and brought back with their choice", async ({
    page,
    context,
  }, testInfo) => {
    await page.goto("/quiz/1");
    await hydrated(page, testInfo);
    let tries = 0;
    await onAnswerTo(page, 1, (route) => {
      tries++;
      return route.abort("connectionfailed");
    });
    await choose(page, "Dry");
    await page.getByRole("button", { name: "See My Next Step", exact: true }).click();
    // Painted from the funnel engine in the browser, while the answer is still on its way.
    await expect(page).toHaveURL("/quiz/2");
    await expect(page.getByText("Step 2 of 12", { exact: true })).toBeVisible();

    await expect(page.getByText("Your answer wasn't saved")).toBeVisible({ timeout: 10_000 });
    expect(tries).toBe(4);
    await expect(page).toHaveURL("/quiz/1");
    await expect(page.getByRole("radio", { name: "Dry", exact: true })).toBeChecked();
    expect(await answered(await visitorId(context))).toEqual([]);
  });

  test("the intro's start shows question 1 at once, and reaches the server behind it", async ({ page, context }, testInfo) => {
    await page.goto("/quiz");
    await hydrated(page, testInfo);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let starts = 0;
    // The start, whether it is posted to the intro's own address (/quiz/0) or the funnel's (/quiz).
    await page.route(/\/quiz(\/0)?\.data$/, async (route, request) => {
      if (request.method() !== "POST") return route.continue();
      starts++;
      await held;
      await route.continue();
    });
    await page.getByRole("button", { name: "Get My Clear Skin Plan" }).click();
    // On screen while the start is still held on its way.
    await expect(page).toHaveURL("/quiz/1");
    await expect(page.getByText("Step 1 of 12", { exact: true })).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toBeFocused();
    // The held request reaches the test's handler on its own channel: waited for, not raced.
    await expect.poll(() => starts).toBe(1);
    release();

    await choose(page, "Dry");
    await page.getByRole("button", { name: "See My Next Step", exact: true }).click();
    await expect(page).toHaveURL("/quiz/2");
    await expect.poll(async () => answered(await visitorId(context))).toEqual(["1"]);
    expect(starts).toBe(1);
  });

  test("two answers in one moment (a double tap, the keyboard at speed): the second is the next step's own, through the queue", async ({
    page,
    context,
  }, testInfo) => {
    await page.goto("/quiz/1");
    await hydrated(page, testInfo);
    const keys: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && request.url().endsWith(".data"))
        keys.push(`${new URL(request.url()).pathname} ${request.headers()["x-answer-key"] ? "queued" : "plain form"}`);
    });
    // Both answers in one task of the page: step 2 is on screen from the first tap, and its
    // Continue is pressed before React's next task (microtasks only in between, so React
    // renders each choice).
    await page.evaluate(async () => {
      const settle = async () => {
        for (let i = 0; i < 20; i++) await Promise.resolve();
      };
      const answer = async (option: string, button: string) => {
        const input = [...document.querySelectorAll("main input")].find(
          (i) => i.closest("label")?.querySelector("[id$=-label]")?.textContent?.trim() === option,
        );
        (input as HTMLInputElement).click();
        await settle();
        const submit = [...document.querySelectorAll("main button")].find((b) => b.textContent?.trim() === button) as HTMLButtonElement;
        submit.click();
        await settle();
      };
      await answer("Dry", "See My Next Step");
      await answer("Redness", "Show Me the Fix");
    });
    await expect(page).toHaveURL("/quiz/3");
    await expect(page.getByText("Step 3 of 12", { exact: true })).toBeVisible();
    await expect.poll(async () => answered(await visitorId(context))).toEqual(["1", "2"]);
    // The browser's request events reach the test after the server may have stored the answer.
    await expect.poll(() => keys).toEqual(["/quiz/1.data queued", "/quiz/2.data queued"]);
    await expect(page.getByText("Please check that answer")).toHaveCount(0);
  });

  test("Back pressed the moment an answer showed the next question goes back: the question shown early does not stay", async ({ page }, testInfo) => {
    await page.goto("/quiz/1");
    await hydrated(page, testInfo);
    // The answer and the Back link of the question it showed, in one task of the page: before
    // the router has arrived at step 2 (as on a slow phone, or a double tap on the way back).
    await page.evaluate(() => {
      const input = [...document.querySelectorAll("main input")].find(
        (i) => i.closest("label")?.querySelector("[id$=-label]")?.textContent?.trim() === "Dry",
      ) as HTMLInputElement;
      input.click();
      (document.querySelector("main button.continue-button") as HTMLButtonElement).click();
      // Step 2's Back link, on screen from the tap.
      (document.querySelector('main a[href="/quiz/1"]') as HTMLAnchorElement).click();
    });
    await expect(page).toHaveURL("/quiz/1");
    await expect(page.getByText("Step 1 of 12", { exact: true })).toBeVisible();
    await expect(page.getByRole("radio", { name: "Dry" })).toBeChecked();
    await expect(page.getByText("Step 2 of 12", { exact: true })).toHaveCount(0);
  });

  test("a send whose response is lost is sent again with the same key: stored once, and the quiz goes on", async ({ page, context }, testInfo) => {
    await page.goto("/quiz/1");
    await hydrated(page, testInfo);
    const keys: string[] = [];
    await onAnswerTo(page, 1, async (route, request) => {
      keys.push((await request.headerValue("x-answer-key")) ?? "");
      // The first reaches the server, whose answer never reaches the browser.
      if (keys.length === 1) {
        await route.fetch();
        return route.abort("connectionreset");
      }
      return route.continue();
    });
    await choose(page, "Dry");
    await page.getByRole("button", { name: "See My Next Step", exact: true }).click();
    await expect(page).toHaveURL("/quiz/2");
    await expect.poll(() => keys.length).toBe(2);
    expect(keys[1]).toBe(keys[0]);

    await choose(page, "Redness");
    await page.getByRole("button", { name: "Show Me the Fix", exact: true }).click();
    await expect(page).toHaveURL("/quiz/3");
    const visitor = await visitorId(context);
    await expect.poll(() => answered(visitor)).toEqual(["1", "2"]);
    await expect(page.getByText("Your answer wasn't saved")).toHaveCount(0);
  });

  test("no answer is lost across a reload in the middle of sending", async ({ page, context }, testInfo) => {
    await page.goto("/quiz/1");
    await hydrated(page, testInfo);
    const visitor = await visitorId(context);
    await choose(page, "Dry");
    await page.getByRole("button", { name: "See My Next Step", exact: true }).click();
    await expect.poll(() => answered(visitor)).toEqual(["1"]);
    // The answer to step 2 leaves the page and hangs until the reload cancels it (unrouting it
    // instead could let it through to the server at the moment of the reload); a second send goes on.
    let sends = 0;
    await onAnswerTo(page, 2, (route) => (++sends === 1 ? new Promise(() => {}) : route.continue()));
    await choose(page, "Redness");
    await page.getByRole("button", { name: "Show Me the Fix", exact: true }).click();
    await expect(page).toHaveURL("/quiz/3");
    await expect.poll(() => sends).toBe(1);

    await page.reload();
    // The server knew only step 1 (it showed step 2); the answer kept in the tab is sent again.
    await expect(page).toHaveURL("/quiz/3");
    await expect(page.getByText("Step 3 of 12", { exact: true })).toBeVisible();
    await expect.poll(() => answered(visitor)).toEqual(["1", "2"]);
  });

  test("a forged step in the tab's state cannot skip a guard: the page ends where the server says", async ({ page, context }, testInfo) => {
    await page.goto("/quiz/1");
    await hydrated(page, testInfo);
    // An answer to step 9, never reached, queued by hand as if this tab had sent it.
    await page.evaluate(() =>
      sessionStorage.setItem(
        "gc-answers-unsent",
        JSON.stringify([{ key: "forgedforgedforged01-1", action: "/quiz/9", fields: [["timeWillingness", "5-10"]], shown: "/quiz/10" }]),
      ),
    );
    await page.reload();
    await expect(page.getByText("We've picked up where your saved answers are")).toBeVisible();
    await expect(page).toHaveURL("/quiz/1");
    await expect(page.getByText("Step 1 of 12", { exact: true })).toBeVisible();
    expect(await answered(await visitorId(context))).toEqual([]);
    await expect.poll(() => page.evaluate(() => sessionStorage.getItem("gc-answers-unsent"))).toBe("[]");
  });

  test("a forged answer is refused: the visitor is told why and stays on the question", async ({ page, context }, testInfo) => {
    await page.goto("/quiz/1");
    await hydrated(page, testInfo);
    await page.evaluate(() =>
      sessionStorage.setItem(
        "gc-answers-unsent",
        JSON.stringify([{ key: "forgedforgedforged02-1", action: "/quiz/1", fields: [["skinType", "shiny"]], shown: "/quiz/2" }]),
      ),
    );
    await page.reload();
    await expect(page.getByText("Please check that answer")).toBeVisible();
    await expect(page.getByText('"shiny" is not one of the options.')).toBeVisible();
    await expect(page).toHaveURL("/quiz/1");
    expect(await answered(await visitorId(context))).toEqual([]);
  });
});
