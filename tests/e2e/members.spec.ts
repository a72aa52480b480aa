import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { hydrated, jsEnabled } from "./support";
import { signIn, uniqueEmail, useOwnIp } from "./accounts";
import { completionsOf, expectStreak, signedInMember, seedSubscription, storedTimeZone, todayIn, userIdOf } from "./members-helpers";

const PLAN = "/plan/clear-healthy-skin";
const STEP_TITLES = ["Morning Gentle Cleanser", "Targeted Serum", "Hydrating Moisturizer", "Evening Deep Clean", "Night Repair", "Weekly Treatment"];

function todayCircle(page: Page) {
  return page.locator("[data-today='true']");
}

test.describe("the daily routine", () => {
  // A member in New Zealand: "today" must be their day, not the server's.
  test.use({ timezoneId: "Pacific/Auckland" });

  test("a subscribed member does the whole routine: streak 0 → 1, today's circle filled, finishing again is still a success @no-js @instances", async ({
    page,
  }, testInfo) => {
    const email = uniqueEmail("routine");
    await useOwnIp(page.context());
    await signIn(page, email);
    const userId = await userIdOf(email);
    await seedSubscription(userId, "monthly");

    await page.goto("/home");
    await expect(page.getByRole("heading", { level: 1, name: "Clear & Healthy Skin" })).toBeVisible();
    // No quiz answers yet: the general plan, not a "Personalized" one, and the way to make it personal.
    await expect(page.getByText("Personalized", { exact: true })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Take the quiz" })).toHaveAttribute("href", "/quiz");
    await expectStreak(page, 0);
    await expect(page.getByRole("list", { name: "This week, Monday to Sunday" }).getByRole("img")).toHaveCount(7);
    await expect(todayCircle(page)).toHaveAttribute("data-completed", "false");
    await page.getByRole("link", { name: "Do Today's Routine" }).click();

    await page.waitForURL(`**${PLAN}`);
    await expect(page.getByText("Step 1 of 6")).toBeVisible();
    await expect(page.getByText("· 17%")).toBeVisible();
    await expect(page.getByRole("button", { name: "Previous" })).toBeDisabled();
    // This plan's steps have no videos: a picture, and nothing that looks like a player.
    await expect(page.getByText("Video Tutorial")).toHaveCount(0);
    await expect(page.locator("video")).toHaveCount(0);
    await expect(page.getByRole("heading", { name: "Tips for You" })).toBeVisible();
    await expect(page.getByTestId("completed-count")).toHaveText("0 of 6 completed");
    await expect(page.getByRole("button", { name: "Finish Today's Routine" })).toHaveCount(0);

    for (let step = 1; step <= 5; step++) {
      await expect(page.getByRole("heading", { level: 1 })).toContainText(STEP_TITLES[step - 1]);
      await page.getByRole("button", { name: "Complete & Next" }).click();
      await page.waitForURL(`**${PLAN}?step=${step + 1}`);
      await expect(page.getByTestId("completed-count")).toHaveText(`${step} of 6 completed`);
    }
    await expect(page.getByText("Step 6 of 6")).toBeVisible();
    await expect(page.getByRole("button", { name: "Complete & Next" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Previous" })).toBeVisible();
    await page.getByRole("button", { name: "Complete Step" }).click();
    await expect(page.getByTestId("completed-count")).toHaveText("6 of 6 completed");

    // Completed steps are kept on the server: a reload keeps them.
    await page.reload();
    await expect(page.getByTestId("completed-count")).toHaveText("6 of 6 completed");

    if (jsEnabled(testInfo)) {
      await hydrated(page, testInfo); // 'Completing...' is the client's pending state
      // Hold the save for a moment to see the button while it works.
      await page.route("**/plan/clear-healthy-skin.data**", async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 700));
        await route.continue();
      });
      await page.getByRole("button", { name: "Finish Today's Routine" }).click();
      await expect(page.getByRole("button", { name: "Completing..." })).toBeDisabled();
    } else {
      await page.getByRole("button", { name: "Finish Today's Routine" }).click();
    }

    await page.waitForURL("**/home");
    await expect(page.getByText("Congratulations! 🎉")).toBeVisible();
    await expect(page.getByText("You've completed today's routine. Great job building healthy habits!")).toBeVisible();
    await expectStreak(page, 1);
    await expect(todayCircle(page)).toHaveAttribute("data-completed", "true");

    // The member's own day: Auckland's date when the browser could tell us (JavaScript), else UTC.
    const zone = jsEnabled(testInfo) ? "Pacific/Auckland" : "UTC";
    expect(await storedTimeZone(userId)).toBe(zone);
    expect(await completionsOf(userId)).toEqual([{ planId: "clear-healthy-skin", date: todayIn(zone) }]);

    // Finishing again the same day is a success too, and records nothing new.
    await page.goto(PLAN);
    await page.getByRole("button", { name: "Finish Today's Routine" }).click();
    await page.waitForURL("**/home");
    await expect(page.getByText("Congratulations! 🎉")).toBeVisible();
    await expectStreak(page, 1);
    expect(await completionsOf(userId)).toHaveLength(1);
  });
});

test.describe("whose day", () => {
  /** Completes all six steps and finishes, posting the time-zone field as the routine forms do. */
  async function doRoutine(request: APIRequestContext, timeZone: string, offsetMs = 0) {
    const headers = offsetMs ? { "X-Test-Clock-Offset-Ms": String(offsetMs) } : undefined;
    for (let step = 1; step <= 6; step++) {
      const answer = await request.post(PLAN, { form: { intent: "complete-step", step: String(step), timeZone }, headers, maxRedirects: 0 });
      expect(answer.status()).toBe(303);
    }
    const finished = await request.post(PLAN, { form: { intent: "finish", step: "6", timeZone }, headers, maxRedirects: 0 });
    expect(finished.status()).toBe(303);
  }

  test("switching the time zone between UTC+14 and UTC-12 does not earn two days in one real day", async ({ context, baseURL }) => {
    const { userId } = await signedInMember(context, baseURL!, { subscription: "monthly" });
    await doRoutine(context.request, "Pacific/Kiritimati");
    await doRoutine(context.request, "Etc/GMT+12");
    await doRoutine(context.request, "Pacific/Kiritimati");
    // The day's zone was fixed when the member first acted: one day, in that zone.
    expect(await completionsOf(userId)).toEqual([{ planId: "clear-healthy-skin", date: todayIn("Pacific/Kiritimati") }]);
    expect(await storedTimeZone(userId)).toBe("Pacific/Kiritimati");

    // A change counts from the next day: once the acted day is over in both zones, the new zone
    // applies (50 hours on, UTC-12's date is one day after the Kiritimati date already earned).
    await doRoutine(context.request, "Etc/GMT+12", 50 * 60 * 60 * 1000);
    const dates = (await completionsOf(userId)).map((row) => row.date);
    expect(dates).toHaveLength(2);
    expect(dates[1] > dates[0]).toBe(true);
    expect(await storedTimeZone(userId)).toBe("Etc/GMT+12");
  });
});

test.describe("Do Today's Routine", () => {
  test("signed-out visitors are invited to sign in or take the quiz; members without the plan go to its offer @phone", async ({ page, context, baseURL }) => {
    await page.goto("/home");
    // No 'Personalized' card with 0 days for someone we don't know.
    await expect(page.getByRole("heading", { level: 1, name: "Your daily routine lives here" })).toBeVisible();
    await expect(page.getByTestId("streak")).toHaveCount(0);
    await expect(page.getByText("Personalized", { exact: true })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Take the Skin Quiz" })).toHaveAttribute("href", "/quiz");
    await expect(page.getByRole("navigation", { name: "Members" })).toBeVisible();
    await page.getByRole("link", { name: "Sign in", exact: true }).last().click();
    await page.waitForURL("**/login?**");
    await expect(page.getByRole("heading", { name: "Access Your Plan" })).toBeVisible();

    await signedInMember(context, baseURL!);
    await page.goto("/home");
    await expectStreak(page, 0);
    await expect(page.getByRole("heading", { level: 1, name: "Clear & Healthy Skin" })).toBeVisible();
    await expect(page.getByText("This plan isn't part of your account yet.")).toBeVisible();
    await expect(page.getByRole("link", { name: "Do Today's Routine" })).toHaveAttribute("href", "/subscribe");
    await expect(page.getByRole("heading", { name: "Tips & Tricks" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "What to Avoid" })).toBeVisible();

    // 'Learn More' opens the product's details (a disclosure: no JavaScript needed).
    const recommended = page.getByRole("region", { name: "Recommended for You" });
    await expect(recommended.locator("summary", { hasText: "Learn More" })).toHaveCount(2);
    await expect(recommended.getByTestId("product-details").first()).toBeHidden();
    await recommended.locator("summary", { hasText: "Learn More" }).first().click();
    await expect(recommended.getByTestId("product-details").first()).toBeVisible();
    await expect(recommended.getByTestId("product-details").first()).toContainText("How to use:");
  });

  test("the player needs a signed-in member, a real plan and a real step", async ({ page, context, baseURL }) => {
    await page.goto(PLAN);
    await page.waitForURL(/\/login\?redirectTo=%2Fplan%2Fclear-healthy-skin/);

    await signedInMember(context, baseURL!, { subscription: "annual" });
    const missing = await page.goto("/plan/no-such-plan");
    expect(missing?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();

    const badStep = await page.goto(`${PLAN}?step=9`);
    expect(badStep?.status()).toBe(400);
    await expect(page.getByText("There is no step 9 in this plan. Steps go from 1 to 6.")).toBeVisible();

    // Finishing before every step is done is refused with a clear message, and records nothing.
    const response = await page.request.post(PLAN, { form: { intent: "finish" }, maxRedirects: 0 });
    expect(response.status()).toBe(409);
  });
});

test.describe("the tutorial", () => {
  test("signed-out visitors are sent to /email-instructions", async ({ page }) => {
    for (const path of ["/path1", "/path4", "/completion"]) {
      await page.goto(path);
      await page.waitForURL("**/email-instructions");
    }
  });

  test("a member walks /path1 to /completion and back home @no-js", async ({ page, context, baseURL }) => {
    await signedInMember(context, baseURL!, { subscription: "annual" });
    const steps = [
      ["Cleansing the Right Way", "17%", "Next: Hydration"],
      ["Hydration & Moisturizing", "33%", "Next: Sun Protection"],
      ["Sun Protection (SPF)", "50%", "Next: Targeted Treatments"],
      ["Targeted Treatments", "67%", "Next: Lifestyle Habits"],
      ["Lifestyle Habits", "83%", "Next: Weekly Extras"],
      ["Weekly Extras & Consistency", "100%", "Finish & See Results"],
    ];
    await page.goto("/path1");
    for (const [i, [title, percent, next]] of steps.entries()) {
      const n = i + 1;
      await expect(page).toHaveURL(new RegExp(`/path${n}$`));
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
      await expect(page.getByText(`Step ${n} of 6`)).toBeVisible();
      await expect(page.getByText(`· ${percent}`)).toBeVisible();
      // No video for these pages in the content: the illustration, no play button, no "Video · 2:40".
      await expect(page.locator("video")).toHaveCount(0);
      await expect(page.getByText(/^Video · /)).toHaveCount(0);
      await expect(page.getByText("Key message")).toBeVisible();
      await expect(page.getByRole("heading", { name: "Tips for You" })).toBeVisible();
      await expect(page.getByRole("heading", { name: n === 5 ? "Lifestyle Essentials" : "Recommended for You" })).toBeVisible();
      await expect(page.locator("summary", { hasText: "Learn More" })).toHaveCount(2);
      await expect(page.getByRole("heading", { name: "What to Avoid" })).toBeVisible();
      await expect(page.getByRole("link", { name: "Back to Home" })).toHaveAttribute("href", "/home");
      if (n === 1) await expect(page.getByRole("link", { name: "Previous Step" })).toHaveCount(0);
      else await expect(page.getByRole("link", { name: "Previous Step" })).toHaveAttribute("href", `/path${n - 1}`);
      // The footer's links are the site settings'; Careers and Press have no page yet, so they are not shown.
      const footer = page.getByRole("contentinfo");
      await expect(footer.getByRole("link", { name: "For brands" })).toHaveAttribute("href", "/partnerships");
      await expect(footer.getByRole("link", { name: "Privacy Policy" })).toHaveAttribute("href", "/privacy-policy");
      await expect(footer.getByRole("link", { name: "Terms of Service" })).toHaveAttribute("href", "/terms-of-service");
      await expect(footer.getByText("Careers")).toHaveCount(0);
      await expect(footer.getByText("Press")).toHaveCount(0);
      // The server clock's year, as in every footer (not the 2025 the content once wrote).
      await expect(footer.getByText(`© ${new Date().getUTCFullYear()} Glow Coach`)).toBeVisible();
      await expect(footer.getByRole("link", { name: "support@glowcoach.app" })).toBeVisible();
      await page.getByRole("link", { name: next }).click();
    }
    await page.waitForURL("**/completion");
    await expect(page.getByRole("heading", { name: "Congratulations!" })).toBeVisible();
    await expect(page.getByText("You've completed your Clear & Healthy Skin routine.")).toBeVisible();
    await expect(page.getByText("Trusted by 1,000+ learners and validated by beauty experts.")).toBeVisible();
    // Today's routine isn't done: the page says so, and leads to it.
    await expect(page.getByTestId("completion-badge")).toHaveText("0 of 6 steps done today");
    await expect(page.getByText("6 steps completed today")).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Do Today's Routine" })).toHaveAttribute("href", PLAN);
    // Once the six steps are done, the badge '6 steps completed today' is true.
    for (let step = 1; step <= 6; step++) {
      const done = await page.request.post(PLAN, {
        form: { intent: "complete-step", step: String(step) },
        headers: { Origin: new URL(baseURL!).origin },
        maxRedirects: 0,
      });
      expect(done.status()).toBe(303);
    }
    await page.reload();
    await expect(page.getByTestId("completion-badge")).toHaveText("6 steps completed today");
    await page.getByRole("link", { name: "Stick to Routine" }).click();
    await page.waitForURL("**/home");
  });

  test("Previous Step goes back one step @no-js", async ({ page, context, baseURL }) => {
    await signedInMember(context, baseURL!);
    await page.goto("/path4");
    await expect(page.getByText("Mixing retinol with AHA/BHA")).toBeVisible();
    await page.getByRole("link", { name: "Previous Step" }).click();
    await page.waitForURL("**/path3");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sun Protection (SPF)");
  });
});

test.describe("the profile", () => {
  function row(page: Page, label: string) {
    return page
      .locator("dl > div")
      .filter({ has: page.locator("dt", { hasText: new RegExp(`^${label}$`) }) })
      .locator("dd");
  }

  test("signed-out visitors are sent to /login", async ({ page }) => {
    await page.goto("/profile");
    await page.waitForURL(/\/login\?redirectTo=%2Fprofile/);
  });

  test("a free member sees Free and 'Upgrade to Premium'", async ({ page, context, baseURL }) => {
    const { email } = await signedInMember(context, baseURL!);
    await page.goto("/profile");
    await expect(page.locator("#main").getByText(email)).toBeVisible();
    await expect(page.getByRole("heading", { name: "Subscription Details" })).toBeVisible();
    await expect(row(page, "Status")).toHaveText("Free");
    await expect(page.getByRole("link", { name: "Upgrade to Premium" })).toHaveAttribute("href", "/subscribe");
    await expect(page.getByRole("button", { name: "Manage Subscription" })).toHaveCount(0);
    await page.getByRole("button", { name: "Refresh subscription details" }).click();
    await expect(row(page, "Status")).toHaveText("Free");
    await page.getByRole("link", { name: "Back to Home" }).click();
    await page.waitForURL("**/home");
  });

  test("a monthly member sees the plan, the next billing date and 'Manage Subscription' @phone", async ({ page, context, baseURL }) => {
    const { email } = await signedInMember(context, baseURL!, { subscription: "monthly" });
    await page.goto("/profile");
    await expect(page.locator("#main").getByText(email)).toBeVisible();
    await expect(page.locator("#main").getByText(email[0].toUpperCase(), { exact: true })).toBeVisible();
    await expect(row(page, "Status")).toHaveText("Active");
    await expect(row(page, "Plan")).toHaveText("Monthly Plan");
    await expect(row(page, "Price")).toHaveText("$9.99/month");
    await expect(row(page, "Started")).toHaveText("January 5, 2026");
    await expect(row(page, "Next Billing")).toHaveText(/^[A-Z][a-z]+ \d{1,2}, \d{4}$/);
    await expect(row(page, "Access Type")).toHaveText("Monthly Subscription");
    const manage = page.locator("form", { has: page.getByRole("button", { name: "Manage Subscription" }) });
    await expect(manage).toHaveAttribute("action", "/billing/portal");
    await expect(manage).toHaveAttribute("method", "post");
    await expect(manage).toHaveAttribute("target", "_blank");
    await expect(page.getByRole("link", { name: "Upgrade to Premium" })).toHaveCount(0);
  });

  test("a lifetime member sees 'Lifetime Access' and no next billing; Log Out signs out @no-js", async ({ page, context, baseURL }) => {
    await signedInMember(context, baseURL!, { subscription: "single_payment" });
    await page.goto("/profile");
    await expect(row(page, "Status")).toHaveText("Active");
    await expect(row(page, "Price")).toHaveText("$29.99 one-time");
    await expect(row(page, "Access Type")).toHaveText("Lifetime Access");
    await expect(page.locator("dt", { hasText: "Next Billing" })).toHaveCount(0);
    await expect(page.getByText("Lifetime Access Active")).toBeVisible();
    await expect(page.getByRole("button", { name: "Manage Subscription" })).toHaveCount(0);
    await page.getByRole("button", { name: "Log Out" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    await page.goto("/profile");
    await page.waitForURL(/\/login/);
  });
});
