import { expect, test, type Page } from "@playwright/test";
import { useOwnIp } from "./accounts";
import { codeFrom, E2E_MAIL_DIR, signInLinkFrom, waitForEmail } from "./mail-server";
import { eventsFor, hydrated, jsEnabled, visitorId } from "./support";
import crypto from "node:crypto";
import { entitlementsOf, seedEntitlement, userIdOf } from "./members-helpers";
import { rows as query, run } from "./test-db";

async function creaseQuizToResult(page: Page) {
  await page.goto("/crease-crisis");
  for (const [label, next] of [
    ["By lunchtime", "/crease-crisis/2"],
    ["Under my eyes", "/crease-crisis/3"],
    ["Self-conscious", "/crease-crisis/4"],
    ["A full workday", "/crease-crisis/5"],
    ["Feeling confident all day", "/crease-crisis/6"],
  ]) {
    await page.getByRole("button", { name: label, exact: true }).click();
    await expect(page).toHaveURL(next);
  }
  await expect(page).toHaveURL("/crease-crisis/7", { timeout: 10_000 });
}

/** Seconds shown by the first countdown on the page ("9:57" → 597). */
async function countdownSeconds(page: Page): Promise<number> {
  const text = (await page.locator("[data-countdown]").first().textContent()) ?? "";
  const [m, s] = text.split(":").map(Number);
  return m * 60 + s;
}

/**
 * A new buyer's browser holds a purchase session (the routine only) until the address is
 * verified: confirm it the way the payment page offers, with the code from the e-mail.
 */
async function confirmByCode(page: Page, email: string) {
  const mail = await waitForEmail(E2E_MAIL_DIR, email);
  await page.goto("/login/check-email");
  await page.getByLabel(/Enter the code/).fill(codeFrom(mail));
  await page.getByRole("button", { name: "Sign in with code" }).click();
  await expect(page).toHaveURL("/home");
}

const buyer = (project: string, what: string) => `${what}-${project}-${Date.now()}@example.com`.toLowerCase();

test.describe("offers and payments", () => {
  // Each test its own client address (TRUST_PROXY=1 in tests): the per-address limit on sign-in
  // e-mails (20 an hour) then counts this test's purchases only, not the whole suite's.
  test.beforeEach(async ({ context }) => {
    await useOwnIp(context);
  });

  test("quiz result → offer → local test checkout → payment success → signed in → /home @no-js @instances", async ({ page, context }, testInfo) => {
    const js = jsEnabled(testInfo);
    await creaseQuizToResult(page);
    await page.getByRole("link", { name: "See My Crease-Free Routine" }).click();
    await expect(page).toHaveURL("/sales");

    await expect(page.getByText("60% Off - Today Only", { exact: true })).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name: "Does Your Foundation Make You Look Older?" })).toBeVisible();
    const plan = page.getByRole("article", { name: "Crease-Free Makeup Routine" });
    await expect(plan.getByText("$29.99", { exact: true })).toBeVisible();
    await expect(plan.locator("s")).toHaveText("$75");
    await expect(page.getByText("Try it for 14 days. If your makeup still creases, you get 100% back.")).toBeVisible();
    await expect(page.locator("[data-countdown]")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Unlock My Crease-Free Routine" })).toBeVisible();

    const button = page.getByRole("button", { name: "Get My Personalized Routine" });
    if (js) {
      // Hold the checkout request a moment to see the busy button.
      await page.route("**/sales*", async (route) => {
        if (route.request().method() === "POST") await new Promise((r) => setTimeout(r, 800));
        await route.continue();
      });
      await button.click();
      await expect(plan.getByRole("button", { name: "Processing" })).toBeDisabled();
    } else {
      await button.click();
    }
    await expect(page).toHaveURL(/\/checkout\/test\/cs_local_/);
    await expect(page.getByText("Test mode — no real charge")).toBeVisible();
    const order = page.getByRole("region", { name: "Your order" });
    await expect(order.getByText("Crease-Free Makeup Routine")).toBeVisible();
    await expect(order.getByText("$29.99").first()).toBeVisible();

    // The e-mail is required, as on Stripe Checkout.
    await page.getByRole("button", { name: "Complete test payment" }).click();
    await expect(page.getByText("Please enter a valid e-mail address.")).toBeVisible();

    const email = buyer(testInfo.project.name, "crease");
    const sentAfter = new Date();
    await page.getByLabel("E-mail").fill(email);
    await page.getByRole("button", { name: "Complete test payment" }).click();
    await expect(page).toHaveURL(/\/payment-success\?session_id=cs_local_/);
    await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();
    // The lifetime-access line, naming the plan this purchase unlocked.
    await expect(
      page.getByText("Your Crease-Free Makeup routine is now active with lifetime access! We're sending you access details via email."),
    ).toBeVisible();
    await expect(page.getByRole("heading", { name: "Check Your Email!" })).toBeVisible();
    await expect(page.getByText("Click the 'Access My Skincare Plan' button in the e-mail.")).toBeVisible();
    await expect(page.getByRole("status").filter({ hasText: "Magic Link Sent!" })).toBeVisible();
    await expect(page.getByRole("link", { name: "support@glowcoach.app" }).first()).toBeVisible();
    // Signed in right here, no login wall.
    await expect(page.getByLabel(`Account menu for ${email}`)).toBeVisible();

    // A sign-in link for other devices arrived.
    const mail = await waitForEmail(E2E_MAIL_DIR, email, { after: sentAfter });
    expect(signInLinkFrom(mail)).toContain("/magic?");

    // Reloading does not sign in or e-mail again, and still shows the result.
    const successUrl = page.url();
    await page.reload();
    await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();

    await page.getByRole("link", { name: "Go to My Plan" }).click();
    await expect(page).toHaveURL("/home");
    await expect(page.getByLabel(`Account menu for ${email}`)).toBeVisible();

    // What was stored: the entitlement, the checkout and the two events.
    expect(await entitlementsOf(await userIdOf(email))).toMatchObject([
      { tier: "single_payment", status: "active", priceMinor: 2999, offerId: "crease-free", routinePlanId: "crease-free", currentPeriodEnd: null },
    ]);
    const visitor = await visitorId(context);
    const events = (await eventsFor(visitor)).filter((e) => e.name === "initiate_checkout" || e.name === "purchase");
    expect(events.map((e) => e.name)).toEqual(["initiate_checkout", "purchase"]);
    expect(JSON.parse(events[0].props)).toMatchObject({ offer: "crease-free", plan: "lifetime", price: 29.99, currency: "USD" });
    expect(JSON.parse(events[1].props)).toMatchObject({ offer: "crease-free", price: 29.99, currency: "USD", eventId: expect.any(String) });
    const [checkout] = await query<{ context: string }>(
      'SELECT "context" FROM "CheckoutSession" WHERE "id" = ?',
      new URL(successUrl).searchParams.get("session_id"),
    );
    expect(JSON.parse(checkout.context)).toMatchObject({ funnel: "crease-crisis", answers: { foundationCreasing: "lunchtime" } });

    // Someone else's browser with the same link learns nothing and is signed in as no one.
    const stranger = await page.context().browser()!.newContext({ javaScriptEnabled: js });
    const other = await stranger.newPage();
    const answer = await other.goto(successUrl);
    expect(answer?.status()).toBe(404);
    await expect(other.getByText("Verification Error")).toBeVisible();
    await expect(other.getByText("We're verifying your payment. Please contact support if you continue to see this message.")).toBeVisible();
    await expect(other.getByText("Payment Successful!")).toHaveCount(0);
    await expect(other.getByRole("link", { name: "Sign in" }).first()).toBeVisible();
    await stranger.close();
  });

  test("skincare paywall: prices, claims and locked content; cancel returns to the offer, monthly subscription @no-js", async ({ page }, testInfo) => {
    await page.goto("/subscribe");
    await expect(page.getByText("Save 40%", { exact: true })).toBeVisible();
    await expect(page.getByText(/^Offer expires in \d:\d\d$/)).toBeVisible();
    const annual = page.getByRole("article", { name: "Annual Plan" });
    await expect(annual.getByText("Most Popular")).toBeVisible();
    await expect(annual.getByText("Just $0.16/day")).toBeVisible();
    await expect(annual.getByText("30-day money-back guarantee")).toBeVisible();
    const monthly = page.getByRole("article", { name: "Monthly Plan" });
    await expect(monthly.getByText("$9.99", { exact: true })).toBeVisible();
    await expect(monthly.getByText("Cancel anytime")).toBeVisible();
    for (const step of ["Morning Gentle Cleanser", "Targeted Serum", "Hydrating Moisturizer", "Evening Deep Clean", "Night Repair", "Weekly Treatment"]) {
      await expect(page.getByText(step, { exact: true })).toBeVisible();
    }
    await expect(page.getByText("+5 steps locked")).toBeVisible();
    await expect(page.getByText("Perfect fit")).toBeVisible();
    await expect(page.getByText("100%")).toBeVisible();
    await expect(page.getByText("90%")).toBeVisible();
    await expect(page.getByText("85%")).toBeVisible();
    await expect(page.getByText(/^Only \d:\d\d left for discount$/)).toBeVisible();
    await expect(page.getByRole("link", { name: "Unlock 50+ Clear Skin Tips" })).toBeVisible();

    // A scroll button goes to the annual card and selects it (in the client).
    await hydrated(page, testInfo);
    await page.getByRole("link", { name: "Claim My Discount" }).click();
    await expect(page).toHaveURL(/#plan-annual$/);
    if (jsEnabled(testInfo)) await expect(annual).toHaveAttribute("data-selected", "true");

    // Cancel on the test checkout returns to the offer.
    await annual.getByRole("button", { name: "Unlock My Clear Skin Plan - $59/year" }).click();
    await expect(page).toHaveURL(/\/checkout\/test\//);
    // The address changes a moment before the page does (the offer's own "annual plan" text
    // would still be there): wait for the checkout's own wording first.
    await expect(page.getByText("Billed every year, renews automatically")).toBeVisible();
    await expect(page.getByText("Annual Plan")).toBeVisible();
    const cancelledId = page.url().split("/").pop()!;
    await page.getByRole("button", { name: "Cancel" }).click();
    await expect(page).toHaveURL("/subscribe");
    // A cancelled checkout never turns into a payment, and the success page says so.
    await page.goto(`/payment-success?session_id=${cancelledId}`);
    await expect(page.getByRole("heading", { name: "Checkout cancelled" })).toBeVisible();
    await page.getByRole("link", { name: "Back to the offer" }).click();
    await expect(page).toHaveURL("/subscribe");

    await monthly.getByRole("button", { name: "Continue with Monthly – $9.99" }).click();
    await expect(page).toHaveURL(/\/checkout\/test\//);
    await expect(page.getByRole("region", { name: "Your order" }).getByText("$9.99").first()).toBeVisible();
    const email = buyer(testInfo.project.name, "monthly");
    await page.getByLabel("E-mail").fill(email);
    await page.getByRole("button", { name: "Complete test payment" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();
    await expect(page.getByText("Your Clear & Healthy Skin subscription is active. We're sending you access details via email.")).toBeVisible();
    await expect(page.getByLabel(`Account menu for ${email}`)).toBeVisible();
    const [row] = await entitlementsOf(await userIdOf(email));
    expect(row).toMatchObject({ tier: "monthly", priceMinor: 999, routinePlanId: "clear-healthy-skin" });
    expect(row.currentPeriodEnd).not.toBeNull();

    // 'Manage Subscription' (the profile's form) opens the local test portal, which cancels at period end.
    await confirmByCode(page, email);
    const portal = await page.request.post("/billing/portal", { form: {}, maxRedirects: 0 });
    expect(portal.status()).toBe(303);
    expect(portal.headers().location).toBe(`/billing/test-portal?entitlement=${row.id}`);
    await page.goto(portal.headers().location);
    await expect(page.getByText("Test mode — no real charge")).toBeVisible();
    await expect(page.getByText("Monthly Plan")).toBeVisible();
    await expect(page.getByText("Renews on")).toBeVisible();
    await page.getByRole("button", { name: "Cancel at period end" }).click();
    await expect(page.getByText("Access ends")).toBeVisible();
    await expect(page.getByRole("button", { name: "Resume subscription" })).toBeVisible();
    // A new state, the purchase kept in the history.
    expect(await entitlementsOf(await userIdOf(email))).toMatchObject([{ id: row.id, cancelAtPeriodEnd: true, status: "active", states: 2 }]);
    // A switch to a plan this subscription can't have (a tampered address) is refused, and changes nothing.
    const tampered = await page.goto(`/billing/switch?entitlement=${row.id}&to=lifetime`);
    expect(tampered?.status()).toBe(404);
    await expect(page.getByText("That plan can't be chosen here.")).toBeVisible();
    const forged = await page.request.post("/billing/switch", { form: { entitlement: row.id, planId: "lifetime" }, maxRedirects: 0 });
    expect(forged.status()).toBe(404);

    // Switching to annual: before confirming, what happens to the $9.99 already paid this month.
    await page.goto(`/billing/test-portal?entitlement=${row.id}`);
    await page.getByRole("link", { name: "Switch to Annual Plan – $59/year" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Change plan" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "What happens to what you paid" })).toBeVisible();
    await expect(page.getByText(/^The unused time on your Monthly Plan is worth \$9\.\d\d: it becomes a credit on your account\.$/)).toBeVisible();
    await expect(page.getByText(/^Today you pay \$49\.\d\d for the Annual Plan: \$59 less your credit\.$/)).toBeVisible();
    const moneyLine = (await page.getByText(/^Today you pay/).textContent())!;
    const switchedAfter = new Date();
    await page.getByRole("button", { name: "Switch to Annual Plan" }).click();
    await expect(page).toHaveURL("/profile");
    await expect(page.getByText("Plan changed")).toBeVisible();
    const confirmation = await waitForEmail(E2E_MAIL_DIR, email, { after: switchedAfter });
    expect(confirmation.subject).toBe("You're now on the Annual Plan");
    expect(confirmation.text).toContain(moneyLine);
    expect(await entitlementsOf(await userIdOf(email))).toMatchObject([{ id: row.id, tier: "annual", planId: "annual", status: "active", states: 3 }]);
  });

  test("the makeup-prep offer charges what it shows, and a signed-in buyer's e-mail is fixed @no-js", async ({ page }, testInfo) => {
    // Buy once to get signed in, then buy the cakey offer as a member.
    await page.goto("/subscribe-otp");
    await expect(page.getByRole("heading", { level: 1, name: "Your Foundation Isn't the Problem. Your Prep Is." })).toBeVisible();
    await expect(page.getByText("Trusted by 10,000 women")).toBeVisible();
    await expect(page.getByText("Save 50%", { exact: true })).toBeVisible();
    const card = page.getByRole("article", { name: "Makeup Prep Plan" });
    await expect(card.getByText("Lifetime access")).toBeVisible();
    await expect(card.locator("s")).toHaveText("$99");
    await expect(card.getByText("$49", { exact: true })).toBeVisible();
    await card.getByRole("button", { name: "Get My Plan" }).click();
    await expect(page.getByRole("region", { name: "Your order" }).getByText("$49").first()).toBeVisible();
    const email = buyer(testInfo.project.name, "prep");
    await page.getByLabel("E-mail").fill(email);
    await page.getByRole("button", { name: "Complete test payment" }).click();
    await expect(page.getByLabel(`Account menu for ${email}`)).toBeVisible();

    await page.goto("/cakey-otp");
    await page.getByRole("article", { name: "No-More-Cakey Makeup Plan" }).getByRole("button", { name: "Get My Plan" }).click();
    const field = page.getByLabel("E-mail");
    await expect(field).toHaveValue(email);
    await expect(field).toHaveAttribute("readonly", "");
    await page.getByRole("button", { name: "Complete test payment" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();
    // The second product is a second entitlement: the first one is kept, not overwritten.
    expect((await entitlementsOf(await userIdOf(email))).map((e) => [e.offerId, e.priceMinor, e.routinePlanId])).toEqual([
      ["cakey-makeup", 2999, "no-more-cakey"],
      ["makeup-prep", 4900, "makeup-prep"],
    ]);

    // A lifetime plan has no subscription to manage: nothing happens, back to the profile.
    await confirmByCode(page, email);
    const portal = await page.request.post("/billing/portal", { form: {}, maxRedirects: 0 });
    expect(portal.status()).toBe(303);
    expect(portal.headers().location).toBe("/profile");
    expect((await page.request.get("/billing/test-portal", { maxRedirects: 0 })).headers().location).toBe("/profile");
  });

  test("refunds: the window each offer promises, claimed from the billing page; none after it; never twice or for someone else @no-js", async ({
    page,
    context,
  }, testInfo) => {
    // The crease-free offer promises 14 days; the Terms list every product's window.
    await page.goto("/terms-of-service");
    await expect(page.getByText("Crease-Free Makeup Routine: 14 days from your purchase.")).toBeVisible();
    await expect(page.getByText("Clear & Healthy Skin, Annual Plan: 30 days from your purchase.")).toBeVisible();
    await expect(page.getByText(/within 7 days of your first purchase/)).toHaveCount(0);

    await page.goto("/sales");
    await page.getByRole("button", { name: "Get My Personalized Routine" }).click();
    const email = buyer(testInfo.project.name, "refund");
    await page.getByLabel("E-mail").fill(email);
    await page.getByRole("button", { name: "Complete test payment" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();
    await confirmByCode(page, email);
    const userId = await userIdOf(email);
    const [bought] = await entitlementsOf(userId);

    // Fifteen days later the 14-day window has ended: no button, the date it ended, and a forged request changes nothing.
    await context.setExtraHTTPHeaders({ "X-Test-Clock-Offset-Ms": String(15 * 86_400_000) });
    await page.goto("/profile");
    await expect(page.getByText(/^The 14-day refund window ended on \w+ \d+, \d{4}\.$/)).toBeVisible();
    await expect(page.getByRole("link", { name: "Request a refund" })).toHaveCount(0);
    const late = await page.request.post("/billing/refund", { form: { entitlement: bought.id }, maxRedirects: 0 });
    expect(late.status()).toBe(403);
    expect(await late.text()).toContain("The 14-day refund window ended on");
    expect(await entitlementsOf(userId)).toMatchObject([{ id: bought.id, status: "active", states: 1 }]);
    await context.setExtraHTTPHeaders({});

    // Inside the window: the billing page offers it, a confirmation says what happens, and the refund is made.
    await page.goto("/profile");
    await expect(page.getByText(/^Money-back guarantee: a full refund until \w+ \d+, \d{4}\.$/)).toBeVisible();
    await page.getByRole("link", { name: "Request a refund" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Request a refund" })).toBeVisible();
    await expect(page.getByText("Test mode — no real charge")).toBeVisible();
    await expect(page.getByText("Your access to Crease-Free Makeup ends as soon as the refund is made.")).toBeVisible();
    const sentAfter = new Date();
    await page.getByRole("button", { name: "Refund $29.99 and end my access" }).click();
    await expect(page).toHaveURL("/profile");
    await expect(page.getByText("Refund made")).toBeVisible();
    await expect(page.getByText(/^Refunded \$29\.99 on \w+ \d+, \d{4}\.$/)).toBeVisible();
    const mail = await waitForEmail(E2E_MAIL_DIR, email, { after: sentAfter });
    expect(mail.subject).toBe("Your refund of $29.99");
    expect(mail.text).toContain("Your access to Crease-Free Makeup has ended.");
    // The purchase and the refund, in the history; the plan is closed again.
    expect(await entitlementsOf(userId)).toMatchObject([{ id: bought.id, status: "refunded", states: 2 }]);
    await page.goto("/plan/crease-free");
    await expect(page).toHaveURL("/sales");

    // A second submit (double click, back button) refunds nothing more.
    const again = await page.request.post("/billing/refund", { form: { entitlement: bought.id }, maxRedirects: 0 });
    expect(again.status()).toBe(409);
    expect(await query('SELECT "id" FROM "Refund" WHERE "entitlementId" = ?', bought.id)).toHaveLength(1);
    expect(await entitlementsOf(userId)).toMatchObject([{ status: "refunded", states: 2 }]);

    // Another member's purchase is not found from this account.
    const otherId = crypto.randomUUID();
    await run(
      `INSERT INTO "User" ("id","email","role","timeZone","createdAt") VALUES (?,?,?,?,?)`,
      otherId,
      buyer(testInfo.project.name, "other"),
      "user",
      "UTC",
      new Date(),
    );
    const { entitlementId: theirs } = await seedEntitlement(otherId, { tier: "single_payment", routinePlanId: "crease-free", startedAt: new Date() });
    const foreign = await page.request.post("/billing/refund", { form: { entitlement: theirs }, maxRedirects: 0 });
    expect(foreign.status()).toBe(404);
    expect((await page.request.get(`/billing/refund?entitlement=${theirs}`)).status()).toBe(404);
    expect(await entitlementsOf(otherId)).toMatchObject([{ status: "active", states: 1 }]);
  });

  test("the countdown keeps its deadline across reloads @no-js", async ({ page }, testInfo) => {
    await page.goto("/subscribe-otp");
    const first = await countdownSeconds(page);
    expect(first).toBeGreaterThanOrEqual(598);
    expect(first).toBeLessThanOrEqual(599);
    if (jsEnabled(testInfo)) {
      // It ticks in the browser...
      await expect.poll(() => countdownSeconds(page), { timeout: 5_000 }).toBeLessThan(first);
    } else {
      // Without scripts the page is as served: the reload comes 5 s later on the server's clock.
      await useOwnIp(page.context(), { "x-test-clock-offset-ms": "5000" });
    }
    // ...and a reload continues from the server's deadline instead of starting again.
    await page.reload();
    const after = await countdownSeconds(page);
    expect(after).toBeLessThan(first);
    expect(after).toBeGreaterThan(580);
    // Another offer has its own countdown.
    await page.goto("/subscribe");
    expect(await countdownSeconds(page)).toBeGreaterThanOrEqual(598);
  });

  test("a countdown that has run out is gone: no timer, no 'left for discount', never a live 0:00, the same price @no-js", async ({
    page,
    context,
  }, testInfo) => {
    await page.goto("/subscribe");
    expect(await countdownSeconds(page)).toBeGreaterThan(590);
    const annual = page.getByRole("article", { name: "Annual Plan" });
    if (jsEnabled(testInfo)) {
      // Seconds before the deadline (the server's clock moved on): the page arrives with the
      // countdown, which ticks out in the browser and disappears instead of showing 0:00.
      await context.setExtraHTTPHeaders({ "X-Test-Clock-Offset-Ms": String(585_000) });
      const response = await page.reload();
      expect(await response!.text()).toMatch(/Offer expires in <time[^>]*data-countdown[^>]*>0:(0[1-9]|1[0-4])</);
      await hydrated(page, testInfo);
      await expect(page.getByText(/Offer expires in/)).toHaveCount(0, { timeout: 25_000 });
      await expect(page.getByText(/left for discount/)).toHaveCount(0);
    }
    // The same visitor comes back ten minutes after their first view.
    await context.setExtraHTTPHeaders({ "X-Test-Clock-Offset-Ms": String(10 * 60_000) });
    await page.reload();
    await expect(page.locator("[data-countdown]")).toHaveCount(0);
    await expect(page.getByText(/Offer expires/)).toHaveCount(0);
    await expect(page.getByText(/left for discount/)).toHaveCount(0);
    await expect(page.getByText("Save 40%", { exact: true })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Claim My Discount" })).toHaveCount(0);
    await expect(page.getByText(/\b0:00\b/)).toHaveCount(0);
    // The price shown is still the price charged.
    await expect(annual.getByText("$59", { exact: true })).toBeVisible();
    await expect(annual.getByRole("button", { name: "Unlock My Clear Skin Plan - $59/year" })).toBeVisible();

    // Someone else's first view starts their own countdown.
    const fresh = await context.browser()!.newContext({ javaScriptEnabled: jsEnabled(testInfo) });
    const other = await fresh.newPage();
    await other.goto(page.url());
    expect(await countdownSeconds(other)).toBeGreaterThan(590);
    await fresh.close();
  });

  test("FAQ: one item open at a time, and it closes again @no-js", async ({ page }) => {
    await page.goto("/sales");
    const items = page.locator("details");
    await expect(items).toHaveCount(4);
    await page.getByText("Will this work for my skin type?").click();
    await expect(items.nth(0)).toHaveAttribute("open", "");
    await page.getByText("Do I need expensive products?").click();
    await expect(items.nth(1)).toHaveAttribute("open", "");
    await expect(items.nth(0)).not.toHaveAttribute("open", "");
    await page.getByText("Do I need expensive products?").click();
    await expect(items.nth(1)).not.toHaveAttribute("open", "");
  });

  test("a plan the offer does not sell is refused with the checkout error", async ({ page, request }, testInfo) => {
    const answer = await request.post("/subscribe", { form: { intent: "checkout", planId: "platinum" }, maxRedirects: 0 });
    expect(answer.status()).toBe(400);
    if (!jsEnabled(testInfo)) return;
    // A tampered request: the plan id is swapped on its way to the server.
    await page.route("**/subscribe*", async (route) => {
      const body = route.request().postData();
      if (route.request().method() !== "POST" || !body) return route.continue();
      await route.continue({ postData: body.replace("planId=monthly", "planId=platinum") });
    });
    await page.goto("/subscribe");
    await page.getByRole("button", { name: "Continue with Monthly – $9.99" }).click();
    const toast = page.getByRole("alert").filter({ hasText: "Checkout Error" });
    await expect(toast).toBeVisible();
    await expect(toast).toContainText("There was a problem starting your checkout. Please try again.");
    await expect(page).toHaveURL("/subscribe");
  });

  test("payment success without a session, and with a made-up one", async ({ page }) => {
    const none = await page.goto("/payment-success");
    expect(none?.status()).toBe(400);
    await expect(page.getByRole("heading", { name: "No payment to check" })).toBeVisible();
    const madeUp = await page.goto("/payment-success?session_id=cs_local_doesnotexist12345");
    expect(madeUp?.status()).toBe(404);
    await expect(page.getByText("Verification Error")).toBeVisible();
    const bogus = await page.goto("/checkout/test/cs_local_doesnotexist12345");
    expect(bogus?.status()).toBe(404);
  });

  test("the webhook endpoint refuses unsigned deliveries without Stripe configured", async ({ request }) => {
    const answer = await request.post("/webhooks/stripe", { data: "{}", headers: { "Content-Type": "application/json", "Stripe-Signature": "t=1,v1=bad" } });
    expect(answer.status()).toBe(404);
  });
});
