import { expect, test, type Page } from "@playwright/test";
import { choose, eventsFor, hydrated, jsEnabled, visitorId } from "./support";

/** Taps an option card (a submit button per option) and, with JavaScript, checks the auto-advance delay. */
async function tap(page: Page, label: string, next: string, delayMs?: number) {
  // Callers wait for the previous navigation, so this is the current step's address.
  const from = page.url();
  const started = Date.now();
  await page.getByRole("button", { name: label, exact: true }).click();
  if (delayMs !== undefined && delayMs > 100) {
    // Still on the same step while the chosen card shows as selected. On a loaded machine the
    // check itself may come after the delay; it only proves something when it comes before.
    const pressed = await page
      .getByRole("button", { name: label, exact: true })
      .getAttribute("aria-pressed", { timeout: 1000 })
      .catch(() => null);
    const url = page.url();
    if (Date.now() - started < delayMs - 50) {
      expect(pressed).toBe("true");
      expect(url).toBe(from);
    }
  }
  await expect(page).toHaveURL(next);
  if (delayMs !== undefined) expect(Date.now() - started).toBeGreaterThanOrEqual(delayMs - 20);
}

async function next(page: Page, label: string, button: string, url: string) {
  await choose(page, label);
  await page.getByRole("button", { name: button, exact: true }).click();
  await expect(page).toHaveURL(url);
}

test.describe("makeup prep quiz @no-js", () => {
  test("intro, eight steps, analysing and a result chosen by skin type and frustration", async ({ page, context }, testInfo) => {
    await page.goto("/makeup");
    await expect(page.getByRole("heading", { level: 1, name: "Tired of Cakey, Patchy Foundation?" })).toBeVisible();
    await page.getByRole("button", { name: "Fix My Makeup Routine" }).click();
    await expect(page).toHaveURL("/makeup/1");
    await expect(page.getByText("Step 1 of 8", { exact: true })).toBeVisible();
    await expect(page.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "12.5");
    if (jsEnabled(testInfo)) await expect(page.getByRole("button", { name: "Next" })).toBeDisabled();

    await next(page, "It looks patchy", "Next", "/makeup/2");
    await next(page, "Every day", "Next", "/makeup/3");
    await next(page, "Dry", "Next", "/makeup/4");
    await next(page, "No issues", "Next", "/makeup/5");
    await next(page, "Just cleanse", "Next", "/makeup/6");
    await next(page, "A full workday", "Next", "/makeup/7");
    await expect(page.getByText("Final Question", { exact: true })).toBeVisible();
    await expect(page.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "87.5");
    await next(page, "Dry patches", "Next", "/makeup/8");
    // The step's label, above the question (the button says the same).
    await expect(page.locator("p", { hasText: /^Get My Results$/ })).toBeVisible();
    await next(page, "A smooth, even base", "Get My Results", "/makeup/9");

    await expect(page).toHaveURL("/makeup/result", { timeout: 10_000 });
    await expect(page.getByRole("heading", { level: 1, name: "Your Personalized Makeup Prep Plan is Ready" })).toBeVisible();
    await expect(page.getByRole("heading", { level: 2, name: "Hydrate first, and your base will sit smooth" })).toBeVisible();
    await expect(page.getByText("You told us you want a smooth, even base", { exact: false })).toBeVisible();
    await expect(page.getByRole("link", { name: "See My Prep Plan" })).toHaveAttribute("href", "/subscribe-otp");

    const events = (await eventsFor(await visitorId(context))).filter((e) => e.funnel === "makeup");
    // One step_answered per question step (the admin's drop-off), between view and completion.
    expect(events.map((e) => e.name)).toEqual(["funnel_viewed", ...Array(8).fill("step_answered"), "funnel_completed"]);
    expect(events.filter((e) => e.name === "step_answered").map((e) => e.step)).toEqual(["1", "2", "3", "4", "5", "6", "7", "8"]);
  });
});

test.describe("cakey makeup quiz @no-js", () => {
  test("four cards, the insight, the shared questions, then the result: each insight shown once", async ({ page }, testInfo) => {
    const delay = jsEnabled(testInfo) ? 300 : undefined;
    await page.goto("/cakey-makeup");
    await hydrated(page, testInfo); // the cards' delay is the client's
    await expect(page.getByText("Step 1 of 7", { exact: true })).toBeVisible();
    await tap(page, "It fades within hours", "/cakey-makeup/2", delay);
    await tap(page, "It mostly stays put", "/cakey-makeup/3", delay);
    await tap(page, "Always", "/cakey-makeup/4", delay);
    await tap(page, "Normal", "/cakey-makeup/5", delay);

    await expect(page.getByRole("heading", { level: 1, name: "Here's what's making your makeup cakey" })).toBeVisible();
    await expect(page.getByRole("heading", { level: 2, name: "Give your foundation something to grip" })).toBeVisible();
    await page.getByRole("link", { name: "Continue" }).click();
    await expect(page).toHaveURL("/cakey-makeup/6");
    // The makeup quiz's questions, asked here from the same definition.
    await tap(page, "All day and into the night", "/cakey-makeup/7", delay);
    await tap(page, "Excess shine", "/cakey-makeup/8", delay);
    await tap(page, "Makeup that lasts", "/cakey-makeup/9", delay);
    await expect(page).toHaveURL("/cakey-makeup/result", { timeout: 10_000 });
    // The result is the plan for the goal, not step 5's insight again.
    await expect(page.getByRole("heading", { level: 2, name: "Makeup that lasts without the cake" })).toBeVisible();
    await expect(page.getByText("Give your foundation something to grip")).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Get My Cakey-Free Routine" })).toHaveAttribute("href", "/cakey-otp");
  });

  test("guards: a bad step goes to the start, a deep step without answers to step 1", async ({ page }) => {
    await page.goto("/cakey-makeup/10");
    await expect(page).toHaveURL("/cakey-makeup");
    await page.goto("/cakey-makeup/result");
    await expect(page).toHaveURL("/cakey-makeup/1");
  });
});

test.describe("crease quiz @no-js", () => {
  test("five cards that move on after 500 ms, analysing, and the lunchtime insight first", async ({ page }, testInfo) => {
    const delay = jsEnabled(testInfo) ? 500 : undefined;
    await page.goto("/crease-crisis");
    await hydrated(page, testInfo); // the cards' delay is the client's
    await expect(page.getByText("1 of 5", { exact: true })).toBeVisible();
    await tap(page, "By lunchtime", "/crease-crisis/2", delay);
    await expect(page.getByText("2 of 5", { exact: true })).toBeVisible();
    await tap(page, "Under my eyes", "/crease-crisis/3", delay);
    await tap(page, "Self-conscious", "/crease-crisis/4", delay);
    await tap(page, "A full workday", "/crease-crisis/5", delay);
    await tap(page, "Feeling confident all day", "/crease-crisis/6", delay);
    await expect(page).toHaveURL("/crease-crisis/7", { timeout: 10_000 });
    await expect(page.getByRole("heading", { level: 2, name: "Your base is giving up by lunchtime" })).toBeVisible();
    await expect(page.getByRole("link", { name: "See My Crease-Free Routine" })).toHaveAttribute("href", "/sales");
  });

  test("names the location in the generic insight", async ({ page }) => {
    await page.goto("/crease-crisis");
    await tap(page, "By the evening", "/crease-crisis/2");
    await tap(page, "On my forehead", "/crease-crisis/3");
    await tap(page, "Frustrated", "/crease-crisis/4");
    await tap(page, "Everyday life", "/crease-crisis/5");
    await tap(page, "Smoother, younger-looking skin", "/crease-crisis/6");
    await expect(page).toHaveURL("/crease-crisis/7", { timeout: 10_000 });
    await expect(page.getByRole("heading", { level: 2, name: "Your foundation creases on your forehead" })).toBeVisible();
  });

  test("guards", async ({ page }) => {
    await page.goto("/crease-crisis/0");
    await expect(page).toHaveURL("/crease-crisis");
    await page.goto("/crease-crisis/4");
    await expect(page).toHaveURL("/crease-crisis/1");
  });
});

test.describe("prototype app flow @no-js", () => {
  test("welcome, six quiz steps, what we learned, the goal, the crease plan, then the offer", async ({ page, context }, testInfo) => {
    const js = jsEnabled(testInfo);
    await page.goto("/app-prototype");
    await expect(page.getByRole("heading", { level: 1, name: "Your Personal Beauty Coach In Your Pocket" })).toBeVisible();
    await expect(page.getByText("Available in USA", { exact: true })).toBeVisible();
    for (const card of ["Personalized Routines", "Expert Guidance", "Smart Tracking"]) await expect(page.getByText(card, { exact: true })).toBeVisible();
    await page.getByRole("button", { name: "Get Started" }).click();

    await expect(page).toHaveURL("/app-quiz");
    await expect(page.getByRole("link", { name: "Back" })).toHaveCount(0);
    await tap(page, "Combination", "/app-quiz/2");

    // Concerns: Continue appears once one is chosen.
    const cont = page.getByRole("button", { name: "Continue", exact: true });
    await expect(cont).toBeHidden();
    await choose(page, "Fine lines");
    await expect(cont).toBeVisible();
    await choose(page, "Redness");
    await choose(page, "Texture");
    await cont.click();

    // Tone and undertone are both required.
    await expect(page).toHaveURL("/app-quiz/3");
    await choose(page, "Medium");
    if (js) {
      await expect(cont).toBeDisabled();
    } else {
      await cont.click();
      await expect(page.getByRole("alert")).toHaveText('Please choose an answer for "Undertone" to continue.');
      await choose(page, "Medium");
    }
    await choose(page, "Warm");
    await cont.click();
    await expect(page).toHaveURL("/app-quiz/4");
    await tap(page, "Daily", "/app-quiz/5");
    // An option card is named by all it shows: its label and its description.
    await tap(page, "Beginner I keep it simple", "/app-quiz/6");
    await tap(page, "10 minutes", "/app-insights");

    await expect(page.getByRole("heading", { level: 1, name: "Here's what we learned about you" })).toBeVisible();
    const cards = page
      .getByRole("main")
      .getByRole("listitem")
      .filter({ has: page.getByRole("list") });
    await expect(cards).toHaveCount(3);
    await expect(cards.nth(0)).toContainText("Combination");
    await expect(cards.nth(1)).toContainText("Fine lines");
    await expect(cards.nth(1)).toContainText("Redness");
    await expect(cards.nth(1)).toContainText("Texture");
    await expect(cards.nth(2)).toContainText("10 min/day");
    await page.getByRole("link", { name: "See My Plan Options" }).click();

    await expect(page).toHaveURL("/app-goal");
    await expect(page.getByRole("heading", { level: 1, name: "Choose your starting focus" })).toBeVisible();
    await expect(page.getByText("Best match", { exact: true })).toBeVisible();
    await choose(page, "Crease Crisis");
    if (js) await expect(page.getByRole("button", { name: "Continue with Crease Crisis" })).toBeVisible();
    await expect(page.getByText("You can explore other goals later in your profile.")).toBeVisible();
    await page.locator(".continue-button").click();

    await expect(page).toHaveURL("/app-crease");
    await expect(page.getByRole("heading", { name: "Let's personalize your Crease-Crisis plan." })).toBeVisible();
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page).toHaveURL("/app-crease/1");
    await tap(page, "Smile lines", "/app-crease/2", js ? 300 : undefined);
    await tap(page, "Full coverage", "/app-crease/3", js ? 300 : undefined);
    await choose(page, "Primer");
    await choose(page, "Setting spray");
    await page.getByRole("button", { name: "Continue", exact: true }).click();
    await expect(page).toHaveURL("/sales");

    const events = await eventsFor(await visitorId(context));
    expect(events.filter((e) => e.name === "funnel_completed").map((e) => e.funnel)).toEqual(["app-quiz", "app-goal", "app-crease"]);
  });

  test("earlier answers stay chosen; Everyday Makeup leads to the makeup prep quiz", async ({ page }) => {
    await page.goto("/app-quiz");
    await tap(page, "Dry", "/app-quiz/2");
    await page.goto("/app-quiz/1");
    await expect(page.getByRole("button", { name: "Dry", exact: true })).toHaveAttribute("aria-pressed", "true");
    await page.goto("/app-goal");
    await choose(page, "Everyday Makeup");
    await page.locator(".continue-button").click();
    await expect(page).toHaveURL("/makeup");
  });

  test("the insights need the quiz first", async ({ page }) => {
    await page.goto("/app-insights");
    await expect(page).toHaveURL("/app-quiz");
  });

  test("'None of these' is exclusive, and 'Skip this step' saves an empty list", async ({ page, context }, testInfo) => {
    await page.goto("/app-crease");
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page).toHaveURL("/app-crease/1");
    await tap(page, "Eyelids", "/app-crease/2");
    await tap(page, "No foundation", "/app-crease/3");
    await choose(page, "Primer");
    await choose(page, "Eye cream");
    if (jsEnabled(testInfo)) {
      await hydrated(page, testInfo); // the boxes clear each other in the client
      await choose(page, "None of these");
      await expect(page.getByRole("checkbox", { name: "Primer" })).not.toBeChecked();
      await expect(page.getByRole("checkbox", { name: "Eye cream" })).not.toBeChecked();
      await choose(page, "Setting powder");
      await expect(page.getByRole("checkbox", { name: "None of these" })).not.toBeChecked();
    } else {
      // Without JavaScript the boxes cannot clear each other: the server refuses the mix.
      await choose(page, "None of these");
      await page.getByRole("button", { name: "Continue", exact: true }).click();
      await expect(page.getByRole("alert")).toHaveText(`"None of these" can't be combined with other choices.`);
    }
    await page.getByRole("button", { name: "Skip this step" }).click();
    await expect(page).toHaveURL("/sales");
    const completed = (await eventsFor(await visitorId(context))).find((e) => e.name === "funnel_completed" && e.funnel === "app-crease");
    expect(JSON.parse(completed!.props).answers.ownedProducts).toEqual([]);
  });
});

test.describe("every funnel's guards and bad input", () => {
  const guards: [string, string][] = [
    ["/makeup/x", "/makeup"],
    ["/makeup/8", "/makeup/1"],
    ["/makeup/result", "/makeup/1"],
    ["/app-prototype/x", "/app-prototype"],
    ["/app-quiz/7", "/app-quiz"],
    ["/app-quiz/5", "/app-quiz/1"],
    ["/app-goal/2", "/app-goal"],
    ["/app-crease/09", "/app-crease"],
    ["/app-crease/2", "/app-crease/1"],
  ];
  for (const [from, to] of guards) {
    test(`${from} → ${to}`, async ({ page }) => {
      await page.goto(from);
      await expect(page).toHaveURL(to);
    });
  }

  test("wrong answers are refused with a 400 and a clear message @no-js", async ({ request }) => {
    const post = (path: string, data: string) =>
      request.post(path, { headers: { "Content-Type": "application/x-www-form-urlencoded" }, data, maxRedirects: 0 });
    const cases: [string, string, string][] = [
      ["/crease-crisis/1", "foundationCreasing=noon", "&quot;noon&quot; is not one of the options."],
      ["/app-goal", "selectedGoal=crease-crisis&selectedGoal=everyday-makeup", "Please choose only one answer."],
      ["/app-quiz", "skinType=oily&skinTone=fair", "This step does not ask for &quot;skinTone&quot;."],
      ["/cakey-makeup", "", "Please choose an answer to continue."],
    ];
    for (const [path, body, message] of cases) {
      const response = await post(path, body);
      expect(response.status(), `${path} ${body}`).toBe(400);
      expect(await response.text()).toContain(message);
    }
  });
});
