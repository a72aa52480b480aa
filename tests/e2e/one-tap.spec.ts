/**
 * The one-tap offer after a purchase (ADR 45), on the local test checkout: agreed to on the
 * offer page, bought from /payment-success with one tap, charged once on a double tap and on
 * a reload, and, when the saved card asks for authentication, confirmed on a checkout page.
 * The Stripe path is in payments-stripe.spec.ts.
 */
import { expect, test, type Page } from "@playwright/test";
import { useOwnIp } from "./accounts";
import { codeFrom, E2E_MAIL_DIR, readAll, waitForEmail } from "./mail-server";
import { eventsFor, visitorId } from "./support";
import { entitlementsOf, userIdOf } from "./members-helpers";
import { rows as query } from "./test-db";

const SAVE_CARD = "Save my card for a one-tap offer after this purchase. Nothing more is charged unless I tap to buy it.";
const buyer = (project: string, what: string) => `${what}-${project}-${Date.now()}@example.com`.toLowerCase();

/** The skincare monthly plan bought on the test checkout, the card saved (or not) for the one-tap offer. */
async function buySkincare(
  page: Page,
  email: string,
  card: { save: boolean; answer?: "Approves one-tap payments" | "Asks for authentication (like a bank's 3-D Secure)" },
) {
  await page.goto("/subscribe");
  const monthly = page.getByRole("article", { name: "Monthly Plan" });
  const box = monthly.getByRole("checkbox", { name: SAVE_CARD });
  await expect(box).not.toBeChecked();
  if (card.save) await box.check();
  await monthly.getByRole("button", { name: "Continue with Monthly – $9.99" }).click();
  await expect(page).toHaveURL(/\/checkout\/test\/cs_local_/);
  await page.getByLabel("E-mail").fill(email);
  if (card.answer) await page.getByRole("radio", { name: card.answer }).check();
  else await expect(page.getByRole("radio")).toHaveCount(0);
  await page.getByRole("button", { name: "Complete test payment" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();
  return page.url();
}

async function receiptsTo(email: string) {
  return (await readAll(E2E_MAIL_DIR)).filter((mail) => mail.to === email && mail.subject.startsWith("Your receipt"));
}

test.describe("one-tap offer after purchase", () => {
  // Each test its own client address (TRUST_PROXY=1 in tests): the per-address limit on sign-in
  // e-mails (20 an hour) then counts this test's purchases only, not the whole suite's.
  test.beforeEach(async ({ context }) => {
    await useOwnIp(context);
  });

  test("bought once on a double tap and a reload; the plan is on /home and the receipt in the mailbox @no-js", async ({ page, context }, testInfo) => {
    const email = buyer(testInfo.project.name, "one-tap");
    const successUrl = await buySkincare(page, email, { save: true, answer: "Approves one-tap payments" });
    const offer = page.getByRole("region", { name: "Add Makeup Prep for $19" });
    // The local test checkout moves no money, and says so (Stripe mode keeps "Charged once, … to the card you just used").
    await expect(offer.getByText("A test payment of $19 on your saved test card: no real money moves. No subscription.")).toBeVisible();

    // A double tap: two posts at the same moment, then the button itself.
    const taps = await Promise.all([1, 2].map(() => page.request.post(successUrl, { form: { intent: "one-tap" }, maxRedirects: 0 })));
    expect(taps.map((tap) => tap.status())).toEqual([303, 303]);
    await offer.getByRole("button", { name: "Add Makeup Prep - $19" }).click();
    const added = page.getByRole("region", { name: "Makeup Prep Plan added" });
    await expect(added.getByText("Your test payment of $19 went through (no real money moved) and we e-mailed you a receipt.", { exact: false })).toBeVisible();
    // A reload, and the form posted again (a browser's "resend").
    await page.reload();
    await expect(added).toBeVisible();
    expect((await page.request.post(successUrl, { form: { intent: "one-tap" }, maxRedirects: 0 })).status()).toBe(303);

    const userId = await userIdOf(email);
    const owned = await entitlementsOf(userId);
    expect(owned.map((row) => [row.routinePlanId, row.tier, row.priceMinor]).sort()).toEqual([
      ["clear-healthy-skin", "monthly", 999],
      ["makeup-prep", "single_payment", 1900],
    ]);
    const oneTapRows = await query<{ status: string }>(`SELECT "status" FROM "CheckoutSession" WHERE "followsCheckoutId" IS NOT NULL AND "userId" = ?`, userId);
    expect(oneTapRows).toEqual([{ status: "complete" }]);
    const events = await eventsFor(await visitorId(context));
    expect(events.filter((e) => e.name === "upsell_bought")).toHaveLength(1);
    expect(events.filter((e) => e.name === "purchase")).toHaveLength(2);
    expect(events.filter((e) => e.name === "upsell_shown").length).toBeGreaterThanOrEqual(1);

    const receipt = await waitForEmail(E2E_MAIL_DIR, email, { timeoutMs: 10_000 }).then(() => receiptsTo(email));
    expect(receipt.map((mail) => mail.subject)).toEqual(["Your receipt (test payment): Makeup Prep, $19"]);
    expect(receipt[0].text).toContain("This was a test payment of $19 for your Makeup Prep Plan (one-time) on the saved test card: no real money was charged.");

    // Signed in with the e-mailed code, the plan just added is the one /home shows.
    const signIn = (await readAll(E2E_MAIL_DIR)).find((mail) => mail.to === email && !mail.subject.startsWith("Your receipt"))!;
    await page.goto("/login/check-email");
    await page.getByLabel(/Enter the code/).fill(codeFrom(signIn));
    await page.getByRole("button", { name: "Sign in with code" }).click();
    await expect(page).toHaveURL("/home");
    await expect(page.getByRole("heading", { level: 1, name: "Makeup Prep" })).toBeVisible();
  });

  test("without the buyer's agreement there is no one-tap offer, and a forged tap charges nothing @no-js", async ({ page }, testInfo) => {
    const email = buyer(testInfo.project.name, "no-tap");
    const successUrl = await buySkincare(page, email, { save: false });
    await expect(page.getByRole("button", { name: "Add Makeup Prep - $19" })).toHaveCount(0);
    const forged = await page.request.post(successUrl, { form: { intent: "one-tap" }, maxRedirects: 0 });
    expect(forged.status()).toBe(409);
    expect(await forged.text()).toContain("available for your purchase, so nothing was charged.");
    const garbage = await page.request.post(successUrl, { form: { intent: "something" }, maxRedirects: 0 });
    expect(garbage.status()).toBe(400);
    expect((await entitlementsOf(await userIdOf(email))).map((row) => row.routinePlanId)).toEqual(["clear-healthy-skin"]);
  });

  test("a saved card that asks for authentication: confirmed on the checkout page, bought once @no-js", async ({ page }, testInfo) => {
    const email = buyer(testInfo.project.name, "one-tap-3ds");
    const successUrl = await buySkincare(page, email, { save: true, answer: "Asks for authentication (like a bank's 3-D Secure)" });
    await page.getByRole("button", { name: "Add Makeup Prep - $19" }).click();
    await expect(page).toHaveURL(/\/checkout\/test\/cs_local_onetap_/);
    await expect(page.getByRole("heading", { level: 1, name: "Confirm your payment" })).toBeVisible();
    await expect(page.getByText("Your bank asks you to confirm this payment. Nothing has been charged yet.")).toBeVisible();
    await expect(page.getByRole("region", { name: "Your order" }).getByText("$19").first()).toBeVisible();
    expect((await entitlementsOf(await userIdOf(email))).map((row) => row.routinePlanId)).toEqual(["clear-healthy-skin"]);
    // Tapping again meanwhile lands on the same confirmation, never a second purchase.
    const again = await page.request.post(successUrl, { form: { intent: "one-tap" }, maxRedirects: 0 });
    expect(again.headers().location).toBe(new URL(page.url()).pathname);

    await page.getByRole("button", { name: "Complete test payment" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();
    await expect(page.getByText("Your Makeup Prep routine is now active with lifetime access!", { exact: false })).toBeVisible();
    await page.goto(successUrl);
    await expect(page.getByRole("region", { name: "Makeup Prep Plan added" })).toBeVisible();
    expect((await entitlementsOf(await userIdOf(email))).map((row) => row.routinePlanId).sort()).toEqual(["clear-healthy-skin", "makeup-prep"]);
    await expect.poll(async () => (await receiptsTo(email)).length).toBe(1);
  });
});
