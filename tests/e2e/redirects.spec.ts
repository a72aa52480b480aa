/**
 * Redirects stay on our origin: every route that redirects to a target it was given is
 * walked with the same corpus of tricky values as the unit test of safeRedirect().
 */
import { expect, test, type APIRequestContext } from "@playwright/test";
import { uniqueEmail, useOwnIp } from "./accounts";
import { newActor, postCode, spendLink } from "./actors";
import { E2E_MAIL_DIR, signInLinkFrom, waitForEmail } from "./mail-server";
import { REDIRECT_ATTACKS } from "../unit/redirect-corpus";

/** A Location that a browser resolves to a page on our own origin. */
function expectOwnOrigin(location: string | undefined, base: string, what: string) {
  expect(location, what).toBeTruthy();
  const resolved = new URL(location!, base);
  expect(resolved.origin, `${what} → ${location}`).toBe(new URL(base).origin);
  // Browsers strip tabs and newlines and treat "\" as "/": the raw header must be a plain path too.
  expect(location, what).toMatch(/^\/(?![/\\])/);
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  expect(location, what).not.toMatch(/[\u0000-\u001f\\]/);
}

test("/preview/exit?path= stays on our origin", async ({ request, baseURL }) => {
  for (const path of REDIRECT_ATTACKS) {
    const answer = await request.get(`/preview/exit?${new URLSearchParams({ path })}`, { maxRedirects: 0 });
    expect(answer.status(), path).toBe(303);
    expectOwnOrigin(answer.headers().location, baseURL!, JSON.stringify(path));
  }
});

test("sign-in by link, by code and by password keep redirectTo on our origin", async ({ browser, baseURL }, testInfo) => {
  const actor = await newActor(browser, testInfo);
  // A verified account with a password, made the way a person does: register, confirm the e-mail here.
  const email = uniqueEmail("redirect-pw", testInfo);
  await actor.request.post("/registration", { form: { name: "Ada", email, password: "rosewater-2026", confirmPassword: "rosewater-2026" }, maxRedirects: 0 });
  const confirmation = await waitForEmail(E2E_MAIL_DIR, email).catch(() => null);
  if (confirmation) await spendLink(actor.request, signInLinkFrom(confirmation));
  await actor.context.clearCookies();

  for (const [i, redirectTo] of REDIRECT_ATTACKS.entries()) {
    const what = JSON.stringify(redirectTo);
    // Two sign-in e-mails per value: a client address of their own keeps under the per-address limit.
    await useOwnIp(actor.context);
    const linkEmail = uniqueEmail(`redirect-link${i}`, testInfo);
    const sentAfter = new Date(Date.now() - 500);
    await actor.request.post("/login", { form: { intent: "email-link", email: linkEmail, redirectTo }, maxRedirects: 0 });
    const mail = await waitForEmail(E2E_MAIL_DIR, linkEmail, { after: sentAfter });
    const byLink = await spendLink(actor.request, signInLinkFrom(mail));
    expectOwnOrigin(byLink.headers().location, baseURL!, `link ${what}`);
    await actor.context.clearCookies();

    const codeEmail = uniqueEmail(`redirect-code${i}`, testInfo);
    const codeAfter = new Date(Date.now() - 500);
    await actor.request.post("/login", { form: { intent: "email-link", email: codeEmail, redirectTo }, maxRedirects: 0 });
    const byCode = await postCode(actor.request, await waitForEmail(E2E_MAIL_DIR, codeEmail, { after: codeAfter }));
    expectOwnOrigin(byCode.headers().location, baseURL!, `code ${what}`);
    await actor.context.clearCookies();

    // Password tries are limited per address (10 an hour): a sample is enough here.
    if (i % 3 === 0) {
      const byPassword = await actor.request.post("/login", { form: { intent: "password", email, password: "rosewater-2026", redirectTo }, maxRedirects: 0 });
      expect(byPassword.status(), `password ${what}`).toBe(303);
      expectOwnOrigin(byPassword.headers().location, baseURL!, `password ${what}`);
      await actor.context.clearCookies();
    }

    // The login page's own hidden field is cleaned the same way.
    const page = await actor.request.get(`/login?${new URLSearchParams({ redirectTo })}`);
    const field = /name="redirectTo" value="([^"]*)"/.exec(await page.text())?.[1];
    expectOwnOrigin(field?.replace(/&amp;/g, "&"), baseURL!, `login page ${what}`);
  }
  await actor.context.close();
});

/** Google's round trip without a popup: /auth/google → the OpenID server → /auth/callback → redirectTo. */
async function googleRoundTrip(request: APIRequestContext, redirectTo: string): Promise<string | undefined> {
  let answer = await request.post("/auth/google", { form: { redirectTo, popup: "0" }, maxRedirects: 0 });
  for (let hop = 0; hop < 4 && answer.status() >= 300 && answer.status() < 400; hop++) {
    const next = new URL(answer.headers().location, answer.url());
    if (next.pathname === "/auth/callback") return (await request.get(next.href, { maxRedirects: 0 })).headers().location;
    answer = await request.get(next.href, { maxRedirects: 0 });
  }
  throw new Error(`Google round trip for ${JSON.stringify(redirectTo)} ended at ${answer.status()} ${answer.url()}`);
}

test("Google sign-in keeps redirectTo on our origin", async ({ browser, baseURL }, testInfo) => {
  const actor = await newActor(browser, testInfo);
  for (const redirectTo of REDIRECT_ATTACKS) {
    expectOwnOrigin(await googleRoundTrip(actor.request, redirectTo), baseURL!, `google ${JSON.stringify(redirectTo)}`);
    await actor.context.clearCookies();
  }
  await actor.context.close();
});
