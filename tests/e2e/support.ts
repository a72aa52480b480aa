import fs from "node:fs";
import { expect, type BrowserContext, type Page, type Route, type TestInfo } from "@playwright/test";
import { rows } from "./test-db";

export { ownLimitMinute } from "./limit-minute";

export function jsEnabled(testInfo: TestInfo): boolean {
  return testInfo.project.use.javaScriptEnabled !== false;
}

/**
 * Waits until React has hydrated the page: scripts start only after the page has loaded
 * (ADR 11), and until then links and forms do their plain HTML thing. Only for checks of
 * what the client adds; a no-JavaScript project returns at once.
 */
export async function hydrated(page: Page, testInfo: TestInfo): Promise<void> {
  if (jsEnabled(testInfo)) await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

/** The visitor id inside the signed gc_vid cookie (value is base64 JSON, then the signature). */
export async function visitorId(context: BrowserContext): Promise<string> {
  const cookie = (await context.cookies()).find((c) => c.name === "gc_vid");
  if (!cookie) throw new Error("no visitor cookie");
  const [payload] = decodeURIComponent(cookie.value).split(".");
  return JSON.parse(Buffer.from(payload, "base64").toString("utf8"));
}

export function eventsFor(visitor: string): Promise<{ name: string; funnel: string | null; step: string | null; props: string }[]> {
  return rows('SELECT "name", "funnel", "step", "props" FROM "AnalyticsEvent" WHERE "visitorId" = ? ORDER BY "createdAt"', visitor);
}

/** Chooses an option by its visible label (radio, checkbox or option button). */
export async function choose(page: Page, label: string) {
  const option = page.getByRole("radio", { name: label, exact: true }).or(page.getByRole("checkbox", { name: label, exact: true }));
  // Inputs are visually hidden behind a styled label: click the label, as a person would.
  await page.locator("label", { has: option }).click();
  await expect(option).toBeChecked();
}

/**
 * Runs `work` while the page cannot leave `path`: a request for another page (a document or its
 * data) waits until `work` is done. An analysing step moves on by itself after a few seconds,
 * which a check on a busy machine can outlast; the check must see the step it names.
 */
export async function stayingOn(page: Page, path: string, work: () => Promise<void>) {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const hold = async (route: Route) => {
    const request = route.request();
    const leaving = new URL(request.url()).pathname !== path && (request.resourceType() === "document" || request.url().includes(".data"));
    if (leaving) await released;
    await route.fallback();
  };
  await page.route("**/*", hold);
  try {
    await work();
  } finally {
    release();
    await page.unroute("**/*", hold);
  }
}

/** Where the queue's turn is kept: a folder that exists while one test holds it (mkdir is atomic). */
export const QUEUE_TURN = "test-results/e2e-queue-turn";

/**
 * Waits for the e-mail queues' turn and returns the function that gives it back. The reminder
 * and recovery queues are one for the whole test server, and each run (POST /test/reminders, at
 * a test's own clock) claims every e-mail due by then, whichever test made it: a run at another
 * test's later clock would send this test's e-mail early. Tests that run the queues take turns,
 * across workers and projects (a turn older than ten minutes was left by a killed run).
 */
export async function queueTurn(): Promise<() => void> {
  for (;;) {
    try {
      fs.mkdirSync(QUEUE_TURN, { recursive: false });
      return () => fs.rmSync(QUEUE_TURN, { recursive: true, force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const age = Date.now() - (fs.statSync(QUEUE_TURN, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 10 * 60_000) fs.rmSync(QUEUE_TURN, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
