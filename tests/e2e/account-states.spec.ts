/**
 * The account states and session kinds of docs/decisions/0012-account-states.md, walked in a
 * browser the way buyers meet them (registration is walked in auth.spec.ts, the attacks in
 * tests/server/sign-in.test.ts).
 */
import { expect, test, type Page } from "@playwright/test";
import { accountMenu, signIn, uniqueEmail, useOwnIp } from "./accounts";
import { codeFrom, E2E_MAIL_DIR, waitForEmail } from "./mail-server";

test.beforeEach(async ({ context }) => {
  await useOwnIp(context);
});

/** Buys the crease-free routine on the local test checkout, typing `email`. */
async function buy(page: Page, email: string) {
  await page.goto("/sales");
  await page.getByRole("button", { name: "Get My Personalized Routine" }).click();
  await expect(page).toHaveURL(/\/checkout\/test\/cs_local_/);
  await page.getByLabel("E-mail").fill(email);
  await page.getByRole("button", { name: "Complete test payment" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();
}

test("a new buyer: the routine right away, the rest of the account after confirming the e-mail @no-js", async ({ page }, testInfo) => {
  const email = uniqueEmail("new-buyer", testInfo);
  const sentAfter = new Date(Date.now() - 1000);
  await buy(page, email);
  await expect(page.getByText("You can start your routine on this device now.")).toBeVisible();
  const mail = await waitForEmail(E2E_MAIL_DIR, email, { after: sentAfter });

  // A purchase session: home and the routine it paid for.
  await page.getByRole("link", { name: "Go to My Plan" }).click();
  await expect(page).toHaveURL("/home");
  await expect(accountMenu(page, email)).toBeVisible();
  await page.getByRole("link", { name: "Do Today's Routine" }).click();
  await expect(page).toHaveURL(/\/plan\/crease-free/);
  await expect(page.getByText("Step 1 of 6")).toBeVisible();
  await page.getByRole("button", { name: "Complete & Next" }).click();
  await expect(page.getByTestId("completed-count")).toHaveText("1 of 6 completed");

  // Only the routine this purchase unlocked: another plan is not part of it.
  await page.goto("/plan/clear-healthy-skin");
  await expect(page).toHaveURL(/\/login\?redirectTo=/);

  // Not the account itself: the profile asks to confirm the address first, the tutorial points to the e-mail.
  await page.goto("/profile");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fprofile/);
  await expect(page.getByText("To open your profile and the rest of your account, confirm")).toBeVisible();
  await expect(page.getByLabel("E-mail")).toHaveValue(email);
  await page.goto("/path1");
  await expect(page).toHaveURL("/email-instructions");

  // Confirming with the e-mail's code (the payment page's e-mail) makes it a full session.
  await page.goto("/login/check-email");
  await page.getByLabel(/Enter the code/).fill(codeFrom(mail));
  await page.getByRole("button", { name: "Sign in with code" }).click();
  await expect(page).toHaveURL("/home");
  await page.goto("/profile");
  await expect(page).toHaveURL("/profile");
  await expect(page.getByRole("main").getByText(email)).toBeVisible();
  // The step done before confirming is still there: the same account.
  await page.goto("/plan/crease-free");
  await expect(page.getByTestId("completed-count")).toHaveText("1 of 6 completed");
});

test("a buyer whose address is already verified is asked to sign in by link, and the code signs in here", async ({ page, browser }, testInfo) => {
  const email = uniqueEmail("known-buyer", testInfo);
  const owner = await browser.newContext();
  await useOwnIp(owner);
  await signIn(await owner.newPage(), email);
  await owner.close();

  const sentAfter = new Date(Date.now() - 1000);
  await buy(page, email);
  await expect(page.getByText("already has an account, so your plan was added to it.")).toBeVisible();
  await expect(accountMenu(page, email)).toHaveCount(0);
  const mail = await waitForEmail(E2E_MAIL_DIR, email, { after: sentAfter });
  await page.getByRole("link", { name: "Sign in with the code" }).click();
  await expect(page).toHaveURL("/login/check-email");
  await page.getByLabel(/Enter the code/).fill(codeFrom(mail));
  await page.getByRole("button", { name: "Sign in with code" }).click();
  await expect(page).toHaveURL("/home");
  await expect(accountMenu(page, email)).toBeVisible();
});
