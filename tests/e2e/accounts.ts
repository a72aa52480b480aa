/**
 * Signing in during end-to-end tests, the way a person does: the login form, the real
 * e-mail through the test SMTP server, the link and its 'Sign in as …' button.
 */
import crypto from "node:crypto";
import { expect, type BrowserContext, type Page, type TestInfo } from "@playwright/test";
import { E2E_MAIL_DIR, signInLinkFrom, waitForEmail, type ReceivedEmail } from "./mail-server";

/** An address no other test (or project) uses. */
export function uniqueEmail(label: string, testInfo?: TestInfo): string {
  const project = testInfo ? `-${testInfo.project.name}` : "";
  return `${label}${project}-${crypto.randomBytes(4).toString("hex")}@glowcoach.test`.toLowerCase();
}

/**
 * The app trusts X-Forwarded-For in tests (TRUST_PROXY=1): give each test its own client
 * address, so the per-IP sign-in limit counts this test's requests only.
 */
export async function useOwnIp(context: BrowserContext, extra: Record<string, string> = {}): Promise<string> {
  const ip = `10.${crypto.randomInt(256)}.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`;
  await context.setExtraHTTPHeaders({ "X-Forwarded-For": ip, ...extra });
  return ip;
}

/** Asks for a link on /login and returns the e-mail that arrives. */
export async function requestSignInEmail(page: Page, email: string): Promise<ReceivedEmail> {
  const sentAfter = new Date(Date.now() - 1000);
  await page.goto("/login");
  await page.getByLabel("E-mail").fill(email);
  await page.getByRole("button", { name: "Send Magic Link" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Check Your Email!" })).toBeVisible();
  return waitForEmail(E2E_MAIL_DIR, email, { after: sentAfter });
}

/** Signs `email` in through a real e-mailed link; ends on the page the link leads to. */
export async function signIn(page: Page, email: string): Promise<void> {
  const mail = await requestSignInEmail(page, email);
  await page.goto(signInLinkFrom(mail));
  await page.getByRole("button", { name: `Sign in as ${email}` }).click();
  await expect(accountMenu(page, email)).toBeVisible();
}

/** The header's avatar menu (a <summary>) for a signed-in member. */
export function accountMenu(page: Page, email: string) {
  return page.locator(`summary[aria-label$="Account menu for ${email}"]`);
}
