/**
 * People in cross-site tests, each in a browser context of their own (own cookies, own client
 * address). The server tests' people without a browser are tests/server/visitor.ts.
 */
import type { APIRequestContext, Browser, BrowserContext, TestInfo } from "@playwright/test";
import { useOwnIp } from "./accounts";
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
