/**
 * People in attack and account-state tests, each in a browser context of their own (own
 * cookies, own client address), acting through plain HTTP requests the way a form post or
 * a script on another site would.
 */
import { expect, type APIRequestContext, type APIResponse, type Browser, type BrowserContext, type TestInfo } from "@playwright/test";
import { useOwnIp } from "./accounts";
import { codeFrom, E2E_MAIL_DIR, signInLinkFrom, waitForEmail, type ReceivedEmail } from "./mail-server";
import { jsEnabled } from "./support";

export type Actor = { context: BrowserContext; request: APIRequestContext; ip: string };

export async function newActor(browser: Browser, testInfo: TestInfo): Promise<Actor> {
  const context = await browser.newContext({ javaScriptEnabled: jsEnabled(testInfo), baseURL: testInfo.project.use.baseURL });
  const ip = await useOwnIp(context);
  return { context, request: context.request, ip };
}

/** Whether this browser is signed in (the endpoint the Google popup's opener asks). */
export async function isSignedIn(request: APIRequestContext): Promise<boolean> {
  const answer = await request.get("/auth/status");
  return ((await answer.json()) as { signedIn: boolean }).signedIn;
}

/** The sign-up form, posted as a browser without JavaScript would. */
export function postRegistration(request: APIRequestContext, input: { email: string; password: string; name?: string }): Promise<APIResponse> {
  return request.post("/registration", {
    form: { name: input.name ?? "Ada Glow", email: input.email, password: input.password, confirmPassword: input.password },
    maxRedirects: 0,
  });
}

export function postPasswordSignIn(request: APIRequestContext, email: string, password: string, redirectTo = "/home"): Promise<APIResponse> {
  return request.post("/login", { form: { intent: "password", email, password, redirectTo }, maxRedirects: 0 });
}

/** Asks for a sign-in link and returns the e-mail that arrives. */
export async function requestLink(request: APIRequestContext, email: string, redirectTo = "/home"): Promise<ReceivedEmail> {
  const sentAfter = new Date(Date.now() - 1000);
  const answer = await request.post("/login", { form: { intent: "email-link", email, redirectTo }, maxRedirects: 0 });
  expect(answer.status(), `sign-in link for ${email}`).toBe(303);
  return waitForEmail(E2E_MAIL_DIR, email, { after: sentAfter });
}

/** Presses the link page's button: POST /magic with the link's token and id. */
export function spendLink(request: APIRequestContext, link: string, override: { token?: string; id?: string } = {}): Promise<APIResponse> {
  const url = new URL(link);
  const token = override.token ?? url.searchParams.get("token") ?? "";
  const id = override.id ?? url.searchParams.get("id") ?? "";
  return request.post(`/magic?${new URLSearchParams({ token, id })}`, { form: { token, id }, maxRedirects: 0 });
}

/** Signs `email` in through a link sent to it; returns the answer to the button press. */
export async function signInByLink(request: APIRequestContext, email: string): Promise<APIResponse> {
  const answer = await spendLink(request, signInLinkFrom(await requestLink(request, email)));
  expect(answer.status()).toBe(303);
  return answer;
}

/** Types the code from an e-mail on the 'Check Your Email!' page of this browser. */
export function postCode(request: APIRequestContext, mail: ReceivedEmail): Promise<APIResponse> {
  return request.post("/login/check-email", { form: { code: codeFrom(mail) }, maxRedirects: 0 });
}

/** Buys the crease-free routine on the local test checkout, typing `email`; ends on payment success. */
export async function buyWithEmail(request: APIRequestContext, email: string): Promise<{ successPath: string; answer: APIResponse }> {
  const started = await request.post("/sales", { form: { intent: "checkout", planId: "lifetime" }, maxRedirects: 0 });
  expect(started.status()).toBe(303);
  const checkout = started.headers().location;
  expect(checkout).toMatch(/^\/checkout\/test\/cs_local_/);
  const completed = await request.post(checkout, { form: { intent: "complete", email }, maxRedirects: 0 });
  expect(completed.status()).toBe(303);
  const successPath = completed.headers().location;
  expect(successPath).toMatch(/^\/payment-success\?session_id=cs_local_/);
  // The first visit welcomes the buyer (session, e-mail) and redirects to itself.
  const answer = await request.get(successPath, { maxRedirects: 0 });
  return { successPath, answer };
}
