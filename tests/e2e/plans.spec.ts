/**
 * Every purchase delivers its own plan, made personal by the buyer's quiz answers: for each
 * offer and two different answer sets, quiz → offer → test checkout → payment success names
 * the plan → /home and the player show that plan's steps and products for those answers.
 * Then what a member who already has a product sees, and switching monthly ↔ annual.
 */
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { uniqueEmail, useOwnIp } from "./accounts";
import { completionsOf, entitlementsOf, expectStreak, seedEntitlement, signedInMember, userIdOf } from "./members-helpers";
import { takeQuiz } from "./quiz-helpers";
import { jsEnabled } from "./support";
import { rows } from "./test-db";

type Purchase = {
  name: string;
  quiz: string;
  answers: Record<string, string | string[]>;
  /** The result's button, and the offer it leads to. */
  cta: string;
  offer: string;
  card: string;
  button: string;
  paid: string;
  plan: string;
  reason: string;
  /** The first product the offer page shows unlocked (none on pages without product cards). */
  offerProduct: string | null;
  /** The first product on /home. */
  homeProduct: string;
  /** A step of the plan as the player lists it ("Step n: title"). */
  step: string;
  /** Why step 1 differs for these answers (the skincare plan keeps the spec's step names, and personalises within them). */
  stepNote?: string;
};

const purchases: Purchase[] = [
  {
    name: "skincare, oily and acne-prone",
    quiz: "/quiz",
    answers: { skinType: "oily", mainConcern: ["acne"] },
    cta: "Get My Personalized Plan",
    offer: "/subscribe",
    card: "Annual Plan",
    button: "Unlock My Clear Skin Plan - $59/year",
    paid: "Your Clear & Healthy Skin subscription is active. We're sending you access details via email.",
    plan: "Clear & Healthy Skin",
    reason: "For your oily, acne-prone skin",
    offerProduct: "Balancing Salicylic Cleanser",
    homeProduct: "Balancing Salicylic Cleanser",
    step: "Step 1: Morning Gentle Cleanser",
    stepNote: "Oily, breakout-prone skin: a gel that clears the night's oil",
  },
  {
    name: "skincare, dry with fine lines",
    quiz: "/quiz",
    answers: { skinType: "dry", mainConcern: ["fine-lines"] },
    cta: "Get My Personalized Plan",
    offer: "/subscribe",
    card: "Monthly Plan",
    button: "Continue with Monthly – $9.99",
    paid: "Your Clear & Healthy Skin subscription is active. We're sending you access details via email.",
    plan: "Clear & Healthy Skin",
    reason: "For your dry skin and fine lines",
    offerProduct: "Cream Cleanser",
    homeProduct: "Cream Cleanser",
    step: "Step 1: Morning Gentle Cleanser",
    stepNote: "Dry or sensitive skin: a cleanse that leaves comfort behind",
  },
  {
    name: "makeup prep, oily and fading",
    quiz: "/makeup",
    answers: { skinType: "oily", biggestFrustration: "short-lasting" },
    cta: "See My Prep Plan",
    offer: "/subscribe-otp",
    card: "Makeup Prep Plan",
    button: "Get My Plan",
    paid: "Your Makeup Prep routine is now active with lifetime access! We're sending you access details via email.",
    plan: "Makeup Prep",
    reason: "For oily skin and makeup that fades by lunch",
    offerProduct: "Mattifying Primer",
    homeProduct: "Mattifying Primer",
    step: "Step 1: Gel Cleanse",
  },
  {
    name: "makeup prep, dry and patchy",
    quiz: "/makeup",
    answers: { skinType: "dry", biggestFrustration: "patchy" },
    cta: "See My Prep Plan",
    offer: "/subscribe-otp",
    card: "Makeup Prep Plan",
    button: "Get My Plan",
    paid: "Your Makeup Prep routine is now active with lifetime access! We're sending you access details via email.",
    plan: "Makeup Prep",
    reason: "For dry skin and patchy foundation",
    offerProduct: "Hydrating Prep Serum",
    homeProduct: "Hydrating Prep Serum",
    step: "Step 2: Serum, Then Cream",
  },
  {
    name: "crease-free, under the eyes by lunchtime",
    quiz: "/crease-crisis",
    answers: { foundationCreasing: "lunchtime", creasingLocation: "under-eyes" },
    cta: "See My Crease-Free Routine",
    offer: "/sales",
    card: "Crease-Free Makeup Routine",
    button: "Get My Personalized Routine",
    paid: "Your Crease-Free Makeup routine is now active with lifetime access! We're sending you access details via email.",
    plan: "Crease-Free Makeup",
    reason: "For under-eye creasing that shows by lunchtime",
    offerProduct: null,
    homeProduct: "Hydrating Eye Cream",
    step: "Step 4: Featherlight Concealer",
  },
  {
    name: "crease-free, smile lines",
    quiz: "/crease-crisis",
    answers: { foundationCreasing: "evening", creasingLocation: "smile-lines" },
    cta: "See My Crease-Free Routine",
    offer: "/sales",
    card: "Crease-Free Makeup Routine",
    button: "Get My Personalized Routine",
    paid: "Your Crease-Free Makeup routine is now active with lifetime access! We're sending you access details via email.",
    plan: "Crease-Free Makeup",
    reason: "For foundation settling into your smile lines",
    offerProduct: null,
    homeProduct: "Line-Smoothing Primer",
    step: "Step 3: Fill the Smile Lines",
  },
  {
    name: "no more cakey, oily and fading",
    quiz: "/cakey-makeup",
    answers: { skinType: "oily-combination", biggestFrustration: "fades-quickly" },
    cta: "Get My Cakey-Free Routine",
    offer: "/cakey-otp",
    card: "No-More-Cakey Makeup Plan",
    button: "Get My Plan",
    paid: "Your No-More-Cakey Makeup routine is now active with lifetime access! We're sending you access details via email.",
    plan: "No-More-Cakey Makeup",
    reason: "For oily skin and makeup that fades",
    offerProduct: "Mattifying Primer",
    homeProduct: "Mattifying Primer",
    step: "Step 2: Light Gel, Then Blot",
  },
  {
    name: "no more cakey, dry and patchy",
    quiz: "/cakey-makeup",
    answers: { skinType: "dry", biggestFrustration: "patchy-uneven" },
    cta: "Get My Cakey-Free Routine",
    offer: "/cakey-otp",
    card: "No-More-Cakey Makeup Plan",
    button: "Get My Plan",
    paid: "Your No-More-Cakey Makeup routine is now active with lifetime access! We're sending you access details via email.",
    plan: "No-More-Cakey Makeup",
    reason: "For dry skin and a patchy base",
    offerProduct: "Hydrating Prep Serum",
    homeProduct: "Hydrating Prep Serum",
    step: "Step 1: Hydrate the Flakes",
  },
];

/** Each offer's other answer set: its step and product must not be this one's. */
const other = (p: Purchase) => purchases.find((q) => q.offer === p.offer && q !== p)!;

test.describe("each purchase delivers its own plan, personal to the buyer's answers", () => {
  for (const p of purchases) {
    // Without JavaScript, one answer set per offer (its offer page and checkout as plain forms);
    // the other set differs only in data, which the desktop project checks.
    const tags = p === purchases.find((q) => q.offer === p.offer) ? "@no-js" : "";
    test(`${p.name}: quiz → offer → payment → home and player${tags ? ` ${tags}` : ""}`, async ({ page, baseURL }, testInfo) => {
      // Payment success e-mails a sign-in link, and sign-in e-mails are limited per client address.
      await useOwnIp(page.context());
      await takeQuiz(page, baseURL!, p.quiz, p.answers);
      await page.getByRole("link", { name: p.cta }).click();
      await expect(page).toHaveURL(p.offer);

      if (p.offerProduct) {
        // "Chosen for your skin": the plan's own rules, on the answers just given.
        await expect(page.getByTestId("offer-reason")).toHaveText(p.reason);
        await expect(page.getByTestId("product-match").first()).toContainText(p.offerProduct);
        await expect(page.getByTestId("product-match").first()).not.toContainText(other(p).offerProduct!);
      }
      // The preview of the routine and tips (pages that have one): kept to find again in the plan delivered.
      // Counted once the whole page is in: the address changes before a streamed page has arrived
      // (CI of 4b75499 counted none on a busy machine, without JavaScript).
      await page.waitForLoadState("load");
      const preview = (await page.getByTestId("routine-preview").count())
        ? {
            steps: await page.getByTestId("routine-step-name").allTextContents(),
            firstStep: await page.getByTestId("routine-step-detail").first().textContent(),
            tips: await page.locator('[data-testid="offer-tip"][data-locked="false"] [data-testid="offer-tip-text"]').allTextContents(),
          }
        : null;
      if (p.offer !== "/sales") expect(preview?.tips.length).toBe(2);

      await page.getByRole("article", { name: p.card }).getByRole("button", { name: p.button }).click();
      await expect(page).toHaveURL(/\/checkout\/test\/cs_local_/);
      const email = uniqueEmail("plan-buyer", testInfo);
      await page.getByLabel("E-mail").fill(email);
      await page.getByRole("button", { name: "Complete test payment" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();
      await expect(page.getByText(p.paid)).toBeVisible();

      await page.getByRole("link", { name: "Go to My Plan" }).click();
      await expect(page).toHaveURL("/home");
      await expect(page.getByRole("heading", { level: 1, name: p.plan })).toBeVisible();
      await expect(page.getByText("Personalized", { exact: true })).toBeVisible();
      await expect(page.getByTestId("plan-reason")).toHaveText(p.reason);
      const recommended = page.getByRole("region", { name: "Recommended for You" });
      await expect(recommended.getByRole("heading", { level: 3 }).first()).toHaveText(p.homeProduct);
      await expect(recommended).not.toContainText(other(p).homeProduct);
      if (preview) {
        // The tips the offer showed unlocked are the plan's first tips.
        const tips = await page.getByRole("region", { name: "Tips & Tricks" }).getByRole("listitem").allTextContents();
        expect(tips.slice(0, preview.tips.length).map((t) => t.trim())).toEqual(preview.tips.map((t) => t.trim()));
      }

      await page.getByRole("link", { name: "Do Today's Routine" }).click();
      await expect(page).toHaveURL(/\/plan\/[a-z-]+$/);
      await expect(page.getByText(p.plan, { exact: true })).toBeVisible();
      const steps = page.getByRole("list", { name: "Steps" });
      await expect(steps.getByRole("link", { name: p.step })).toBeVisible();
      if (other(p).step !== p.step) await expect(steps.getByRole("link", { name: other(p).step })).toHaveCount(0);
      if (p.stepNote) await expect(page.getByTestId("step-note")).toHaveText(p.stepNote);
      if (preview) {
        // Exactly the steps the offer previewed, and step 1 as it read there.
        expect(await steps.getByRole("link").evaluateAll((links) => links.map((a) => a.getAttribute("aria-label") ?? a.textContent))).toEqual(
          preview.steps.map((name, i) => `Step ${i + 1}: ${name}`),
        );
        await expect(page.getByText(preview.firstStep!.trim(), { exact: true })).toBeVisible();
      }

      // The answers are on the account now, and the purchase is one entitlement to this plan.
      const userId = await userIdOf(email);
      const [entitlement, ...more] = await entitlementsOf(userId);
      expect(more).toEqual([]);
      expect(entitlement).toMatchObject({ status: "active", states: 1 });
      const answers = await rows<{ funnelId: string; answers: string }>(`SELECT "funnelId", "answers" FROM "MemberAnswers" WHERE "userId" = ?`, userId);
      expect(answers).toHaveLength(1);
      expect(JSON.parse(answers[0].answers)).toMatchObject(p.answers);
    });
  }
});

async function expectOwnedNotice(page: Page, headline: string) {
  await expect(
    page
      .getByRole("heading", { name: headline })
      .or(page.getByText(headline, { exact: true }))
      .first(),
  ).toBeVisible();
  await expect(page.getByRole("link", { name: "Go to My Plan" }).first()).toBeVisible();
}

test.describe("the offer previews the plan for the answers in this browser", () => {
  test("no answers: the spec's six steps; answered one way then another: each preview follows, also when the page is answered from memory @no-js", async ({
    page,
    baseURL,
  }) => {
    const stepOne = page.getByTestId("routine-step-detail");
    const tips = page.locator('[data-testid="offer-tip"][data-locked="false"] [data-testid="offer-tip-text"]');
    await page.goto("/subscribe");
    await expect(page.getByTestId("routine-step-name")).toHaveText([
      "Morning Gentle Cleanser",
      "Targeted Serum",
      "Hydrating Moisturizer",
      "Evening Deep Clean",
      "Night Repair",
      "Weekly Treatment",
    ]);
    const general = { step: await stepOne.textContent(), tips: await tips.allTextContents() };

    const seen: { step: string | null; tips: string[] }[] = [];
    for (const answers of [
      { skinType: "oily", mainConcern: ["acne"] },
      { skinType: "dry", mainConcern: ["fine-lines"] },
    ]) {
      await takeQuiz(page, baseURL!, "/quiz", answers);
      // Again until a view is the stored page (ADR 26), which must key on the answers: the second
      // with one instance; with several behind round robin each keeps its own, so a few more.
      await page.goto("/subscribe");
      let again = await page.goto("/subscribe");
      for (let i = 0; i < 4 && again!.headers()["server-timing"] !== "stored-page"; i++) again = await page.goto("/subscribe");
      expect(again!.headers()["server-timing"]).toBe("stored-page");
      await expect(page.getByTestId("routine-step-name").first()).toHaveText("Morning Gentle Cleanser");
      seen.push({ step: await stepOne.textContent(), tips: await tips.allTextContents() });
    }
    expect(new Set([general, ...seen].map((s) => s.step)).size).toBe(3);
    expect(seen[0].tips).not.toEqual(seen[1].tips);
    // Tip 3 stays locked, its own words never on the page.
    await expect(page.locator('[data-testid="offer-tip"][data-locked="true"]')).toHaveCount(1);
    await expect(page.getByText("Patch test new products behind your ear for two days.")).toHaveCount(0);
  });
});

test.describe("one purchase per product", () => {
  test("an annual member choosing Monthly is shown what they have, never reaches checkout, and switches in the portal: one subscription, history kept @no-js", async ({
    page,
    context,
    baseURL,
  }, testInfo) => {
    const { userId } = await signedInMember(context, baseURL!);
    const { entitlementId } = await seedEntitlement(userId, { tier: "annual" });
    await page.goto("/subscribe");
    await expectOwnedNotice(page, "You already have the Annual plan");
    await expect(page.getByRole("button", { name: "Manage Subscription" })).toBeVisible();
    // Nothing on the page can start a second checkout, and there is no countdown for a member.
    await expect(page.getByRole("button", { name: "Continue with Monthly – $9.99" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Unlock My Clear Skin Plan - $59/year" })).toHaveCount(0);
    await expect(page.locator("[data-countdown]")).toHaveCount(0);

    // A page opened before they bought still posts the Monthly button: no checkout, what they have instead.
    const sessionsBefore = await checkoutSessionsOf(userId);
    const stale = await page.request.post("/subscribe", {
      form: { intent: "checkout", planId: "monthly" },
      headers: { Origin: new URL(baseURL!).origin },
      maxRedirects: 0,
    });
    expect(stale.status()).toBe(409);
    expect(await stale.text()).toContain("You already have the Annual plan");
    expect(await checkoutSessionsOf(userId)).toBe(sessionsBefore);

    // Switching is confirmed on the switch page, after it says what happens to the money paid (ADR 33).
    await page.getByRole("article", { name: "Monthly Plan" }).getByRole("button", { name: "Switch to Monthly Plan" }).click();
    await expect(page).toHaveURL(new RegExp(`/billing/switch\\?entitlement=${entitlementId}&to=monthly$`));
    await expect(page.getByText("Test mode — no real charge")).toBeVisible();
    await expect(page.getByRole("heading", { name: "What happens to what you paid" })).toBeVisible();
    await page.getByRole("button", { name: "Switch to Monthly Plan" }).click();
    await expect(page).toHaveURL("/profile");
    await expect(page.getByText("Monthly Plan", { exact: true })).toBeVisible();
    if (jsEnabled(testInfo)) await expect(page.getByRole("status").filter({ hasText: "Plan changed" })).toBeVisible();

    const owned = await entitlementsOf(userId);
    expect(owned).toHaveLength(1);
    expect(owned.filter((e) => e.status === "active")).toHaveLength(1);
    expect(owned[0]).toMatchObject({ id: entitlementId, tier: "monthly", planId: "monthly", priceMinor: 999, states: 2 });
    expect(await checkoutSessionsOf(userId)).toBe(sessionsBefore);

    // The offer page now says Monthly, and offers the way back to Annual.
    await page.goto("/subscribe");
    await expectOwnedNotice(page, "You already have the Monthly plan");
    await expect(page.getByRole("article", { name: "Annual Plan" }).getByRole("button", { name: "Switch to Annual Plan" })).toBeVisible();
  });

  test("a lifetime owner sees 'Lifetime Access Active' and their plan, not a second checkout", async ({ page, context, baseURL }) => {
    const { userId } = await signedInMember(context, baseURL!);
    await seedEntitlement(userId, { tier: "single_payment", routinePlanId: "no-more-cakey" });
    await page.goto("/cakey-otp");
    await expectOwnedNotice(page, "Lifetime Access Active");
    await expect(page.getByRole("button", { name: "Manage Subscription" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Get My Plan" })).toHaveCount(0);
    await page.getByRole("link", { name: "Go to My Plan" }).first().click();
    await expect(page).toHaveURL("/plan/no-more-cakey");
    // Other products can still be bought.
    await page.goto("/sales");
    await expect(page.getByRole("button", { name: "Get My Personalized Routine" })).toBeVisible();
  });
});

async function checkoutSessionsOf(userId: string): Promise<number> {
  const [{ n }] = await rows<{ n: number }>(`SELECT COUNT(*) AS "n" FROM "CheckoutSession" WHERE "startedByUserId" = ?`, userId);
  return Number(n);
}

test.describe("several plans, one followed", () => {
  test("a member with two plans picks the one to follow on /home; a plan they don't own leads to its offer @no-js", async ({ page, context, baseURL }) => {
    const { userId } = await signedInMember(context, baseURL!);
    await seedEntitlement(userId, { tier: "annual", startedAt: new Date("2026-01-05T10:00:00Z") });
    await seedEntitlement(userId, { tier: "single_payment", routinePlanId: "crease-free", startedAt: new Date("2026-02-05T10:00:00Z") });

    // The latest purchase is followed until the member picks.
    await page.goto("/home");
    await expect(page.getByRole("heading", { level: 1, name: "Crease-Free Makeup" })).toBeVisible();
    const picker = page.getByRole("region", { name: "Your plans" });
    await expect(picker.getByText("Following")).toBeVisible();
    // Without answers: the general plan, and the way to make it personal.
    await expect(page.getByText("Personalized", { exact: true })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Take the quiz" })).toHaveAttribute("href", "/crease-crisis");

    await picker.getByRole("button", { name: /Clear & Healthy Skin/ }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Clear & Healthy Skin" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Do Today's Routine" })).toHaveAttribute("href", "/plan/clear-healthy-skin");
    await page.getByRole("link", { name: "Learn" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Cleansing the Right Way" })).toBeVisible();

    // Both owned plans open; one not owned sends them to its offer page.
    expect((await page.goto("/plan/crease-free"))?.url()).toMatch(/\/plan\/crease-free$/);
    await page.goto("/plan/makeup-prep");
    await expect(page).toHaveURL("/subscribe-otp");
    // Only an owned plan can be followed.
    const refused = await page.request.post("/home", { form: { intent: "choose-plan", planId: "makeup-prep" }, headers: { Origin: new URL(baseURL!).origin } });
    expect(refused.status()).toBe(400);
  });
});

const DAY_MS = 86_400_000;
const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

/** The UTC date and weekday name `offsetMs` from now (the test clock's "today" for a UTC member). */
function utcDay(offsetMs: number) {
  const at = new Date(Date.now() + offsetMs);
  return { date: at.toISOString().slice(0, 10), weekday: WEEKDAYS[(at.getUTCDay() + 6) % 7] };
}

/** The player's forms posted straight (quicker than clicking): the six steps of `planId`, then the finish. */
async function postRoutine(request: APIRequestContext, planId: string) {
  for (let step = 1; step <= 6; step++) {
    const answer = await request.post(`/plan/${planId}`, { form: { intent: "complete-step", step: String(step) }, maxRedirects: 0 });
    expect(answer.status()).toBe(303);
  }
  const finished = await request.post(`/plan/${planId}`, { form: { intent: "finish", step: "6" }, maxRedirects: 0 });
  expect(finished.headers().location).toBe("/home");
}

/** Does the six steps of `planId` in the player and finishes: back on /home with the success toast. */
async function finishRoutine(page: Page, planId: string) {
  await page.goto(`/plan/${planId}`);
  for (let step = 1; step <= 5; step++) {
    await page.getByRole("button", { name: "Complete & Next" }).click();
    await page.waitForURL(`**/plan/${planId}?step=${step + 1}`);
  }
  await page.getByRole("button", { name: "Complete Step" }).click();
  await expect(page.getByTestId("completed-count")).toHaveText("6 of 6 completed");
  await page.getByRole("button", { name: "Finish Today's Routine" }).click();
  await page.waitForURL("**/home");
  await expect(page.getByText("Congratulations! 🎉")).toBeVisible();
}

test.describe("one streak per person", () => {
  // The member's day is the UTC date, with or without JavaScript, so the test knows which circle is which.
  test.use({ timezoneId: "UTC" });

  test("buying a second plan keeps the streak and the week; the next day either plan's routine adds to it", async ({ page, context, baseURL }) => {
    // Two days in one Monday-to-Sunday week (test clock): today and tomorrow, or tomorrow and the day after on a Sunday.
    const first = utcDay(0).weekday === "Sunday" ? DAY_MS : 0;
    const second = first + DAY_MS;
    const day1 = utcDay(first);
    const day2 = utcDay(second);
    const week = page.getByRole("list", { name: "This week, Monday to Sunday" });
    const motivation = page.getByText(/Every glow starts with day one|Today is a lovely day to begin/);

    const { userId } = await signedInMember(context, baseURL!, { subscription: "monthly" });
    await context.setExtraHTTPHeaders({ "x-test-clock-offset-ms": String(first) });
    await postRoutine(context.request, "clear-healthy-skin");
    await page.goto("/home");
    await expectStreak(page, 1);
    await expect(week.getByRole("img", { name: `${day1.weekday} (today): completed` })).toBeVisible();

    // The member buys Makeup Prep the same day: it becomes the followed plan, and the day still counts.
    await seedEntitlement(userId, { tier: "single_payment", routinePlanId: "makeup-prep", startedAt: new Date(Date.now() + first) });
    await page.goto("/home");
    await expect(page.getByRole("heading", { level: 1, name: "Makeup Prep" })).toBeVisible();
    await expectStreak(page, 1);
    await expect(week.getByRole("img", { name: `${day1.weekday} (today): completed` })).toBeVisible();
    await expect(motivation).toHaveCount(0);

    // The next day: yesterday's skincare routine keeps the streak alive while today is open.
    await context.setExtraHTTPHeaders({ "x-test-clock-offset-ms": String(second) });
    await page.goto("/home");
    await expect(page.getByRole("heading", { level: 1, name: "Makeup Prep" })).toBeVisible();
    await expectStreak(page, 1);
    await expect(week.getByRole("img", { name: `${day1.weekday}: completed` })).toBeVisible();
    await expect(week.getByRole("img", { name: `${day2.weekday} (today): not completed` })).toBeVisible();
    await expect(motivation).toHaveCount(0);

    // Finishing the other plan's routine today makes it two days in a row.
    await finishRoutine(page, "makeup-prep");
    await expectStreak(page, 2);
    await expect(week.getByRole("img", { name: `${day1.weekday}: completed` })).toBeVisible();
    await expect(week.getByRole("img", { name: `${day2.weekday} (today): completed` })).toBeVisible();
    // Following the first plan again shows the same streak: it is the person's, not the plan's.
    await page
      .getByRole("region", { name: "Your plans" })
      .getByRole("button", { name: /Clear & Healthy Skin/ })
      .click();
    await expect(page.getByRole("heading", { level: 1, name: "Clear & Healthy Skin" })).toBeVisible();
    await expectStreak(page, 2);
    expect(await completionsOf(userId)).toEqual([
      { planId: "clear-healthy-skin", date: day1.date },
      { planId: "makeup-prep", date: day2.date },
    ]);
  });
});

test.describe("answers on the account", () => {
  test("a member's quiz answers personalise their plan, and taking the quiz again updates it @no-js", async ({ page, context, baseURL }) => {
    const { userId } = await signedInMember(context, baseURL!);
    await seedEntitlement(userId, { tier: "monthly" });
    await takeQuiz(page, baseURL!, "/quiz", { skinType: "oily", mainConcern: ["acne"] });
    await page.goto("/home");
    await expect(page.getByTestId("plan-reason")).toHaveText("For your oily, acne-prone skin");
    await expect(page.getByText("Personalized", { exact: true })).toBeVisible();

    await takeQuiz(page, baseURL!, "/quiz", { skinType: "dry", mainConcern: ["fine-lines"] });
    await page.goto("/home");
    await expect(page.getByTestId("plan-reason")).toHaveText("For your dry skin and fine lines");
    await page.getByRole("link", { name: "Do Today's Routine" }).click();
    await expect(page.getByTestId("step-note")).toHaveText("Dry or sensitive skin: a cleanse that leaves comfort behind");

    // The answers are the account's now: another device (no quiz cookies) sees the same plan.
    const other = await context.browser()!.newContext({ javaScriptEnabled: jsEnabled(test.info()) });
    await other.addCookies((await context.cookies()).filter((c) => c.name === "gc_session"));
    const phone = await other.newPage();
    await phone.goto(`${baseURL}/home`);
    await expect(phone.getByTestId("plan-reason")).toHaveText("For your dry skin and fine lines");
    await other.close();
  });
});
