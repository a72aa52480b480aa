/**
 * Every purchase delivers its own plan, made personal by the buyer's quiz answers: for each
 * offer and two different answer sets, quiz → offer → test checkout → payment success names
 * the plan → /home and the player show that plan's steps and products for those answers.
 * Then what a member who already has a product sees, and switching monthly ↔ annual.
 */
import { expect, test, type Page } from "@playwright/test";
import { uniqueEmail, useOwnIp } from "./accounts";
import { entitlementsOf, seedEntitlement, signedInMember, userIdOf } from "./members-helpers";
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
    step: "Step 1: Balancing Gel Cleanse",
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
    step: "Step 1: Cream Cleanse",
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
    test(`${p.name}: quiz → offer → payment → home and player`, async ({ page, baseURL }, testInfo) => {
      // Phones check one answer set per offer; desktops both.
      test.skip(testInfo.project.name.startsWith("phone") && p !== purchases.find((q) => q.offer === p.offer), "one answer set per offer at phone width");
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

      await page.getByRole("link", { name: "Do Today's Routine" }).click();
      await expect(page).toHaveURL(/\/plan\/[a-z-]+$/);
      await expect(page.getByText(p.plan, { exact: true })).toBeVisible();
      const steps = page.getByRole("list", { name: "Steps" });
      await expect(steps.getByRole("link", { name: p.step })).toBeVisible();
      await expect(steps.getByRole("link", { name: other(p).step })).toHaveCount(0);

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

test.describe("one purchase per product", () => {
  test("an annual member choosing Monthly is shown what they have, never reaches checkout, and switches in the portal: one subscription, history kept", async ({
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
  test("a member with two plans picks the one to follow on /home; a plan they don't own leads to its offer", async ({ page, context, baseURL }) => {
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

test.describe("answers on the account", () => {
  test("a member's quiz answers personalise their plan, and taking the quiz again updates it", async ({ page, context, baseURL }) => {
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
    await expect(page.getByRole("list", { name: "Steps" }).getByRole("link", { name: "Step 1: Cream Cleanse" })).toBeVisible();

    // The answers are the account's now: another device (no quiz cookies) sees the same plan.
    const other = await context.browser()!.newContext({ javaScriptEnabled: jsEnabled(test.info()) });
    await other.addCookies((await context.cookies()).filter((c) => c.name === "gc_session"));
    const phone = await other.newPage();
    await phone.goto(`${baseURL}/home`);
    await expect(phone.getByTestId("plan-reason")).toHaveText("For your dry skin and fine lines");
    await other.close();
  });
});
