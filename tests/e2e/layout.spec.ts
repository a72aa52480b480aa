/**
 * Every page laid out at the width it is seen at (tagged @phone: desktop and Pixel 7; the public
 * pages and the funnel steps also without JavaScript on the phone): nothing makes the page scroll
 * sideways, and every control a person can use (links, buttons, fields, disclosures, in the
 * header and the page) lies inside the window and is not covered by anything else where a
 * finger or the mouse would land on it. This is what the phone copies of the journeys used to
 * prove by clicking their way through; the journeys themselves run on desktop (ADR 36).
 */
import { expect, test, type Page } from "@playwright/test";
import { requestSignInEmail, uniqueEmail, useOwnIp } from "./accounts";
import { funnelsInDataset, type FunnelOutline } from "./funnel-list";
import { signedInMember } from "./members-helpers";
import { takeQuiz } from "./quiz-helpers";
import { stayingOn } from "./support";

test.beforeEach(async ({ context }) => {
  await useOwnIp(context);
});
// Rectangles are measured where the page comes to rest, not mid-animation.
test.use({ reducedMotion: "reduce" });

/** What is wrong with the layout of the page as it is now, in words; empty when nothing is. */
function layoutProblems(): string[] {
  const problems: string[] = [];
  const width = document.documentElement.clientWidth;
  const name = (el: Element) => {
    const text = (el.getAttribute("aria-label") ?? el.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 40);
    return `<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}> "${text}"`;
  };
  if (document.documentElement.scrollWidth > width + 1)
    problems.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} px wide in a ${width} px window`);
  const controls = document.querySelectorAll(
    "header a[href], header button, header summary, main a[href], main button, main summary, main input:not([type=hidden]), main select, main textarea",
  );
  for (const control of controls) {
    const style = getComputedStyle(control);
    const box = control.getBoundingClientRect();
    // Not shown (a closed menu, display none), kept from people on purpose (the bots' trap field),
    // or visually hidden for screen readers (skip links, inputs behind their label).
    if (!control.checkVisibility({ visibilityProperty: true }) || control.closest("[aria-hidden=true], [inert]")) continue;
    if (box.width <= 1 || box.height <= 1) continue;
    control.scrollIntoView({ block: "center", inline: "nearest" });
    const rect = control.getBoundingClientRect();
    if (rect.left < -1 || rect.right > width + 1)
      problems.push(`${name(control)} reaches outside the window (${Math.round(rect.left)} to ${Math.round(rect.right)} px of ${width})`);
    if (style.opacity === "0" || style.pointerEvents === "none") continue;
    const x = Math.min(Math.max(rect.left + rect.width / 2, 0), width - 1);
    const y = rect.top + rect.height / 2;
    const hit = document.elementFromPoint(x, y);
    const labelOf = hit?.closest("label");
    const ownLabel = labelOf && (labelOf.contains(control) || (control.id && labelOf.htmlFor === control.id));
    // A toast floats over the page for a few seconds and can be dismissed: not a layout fault.
    const toast = hit?.closest("[aria-live]") && getComputedStyle(hit.closest("[aria-live]")!).position === "fixed";
    if (hit && !control.contains(hit) && !hit.contains(control) && !ownLabel && !toast) problems.push(`${name(control)} is covered by ${name(hit)}`);
  }
  window.scrollTo(0, 0);
  return problems;
}

async function expectLaidOut(page: Page, what: string) {
  await page.waitForLoadState("load");
  expect(await page.evaluate(layoutProblems), `${what} (${new URL(page.url()).pathname})`).toEqual([]);
}

const PUBLIC_PAGES = [
  "/",
  "/subscribe",
  "/subscribe-otp",
  "/sales",
  "/cakey-otp",
  "/email-instructions",
  "/partnerships",
  "/privacy-policy",
  "/terms-of-service",
  "/home",
  "/login",
  "/login?method=password",
  "/registration",
  "/no-such-page",
  "/payment-success",
];

test.describe("public pages @phone", () => {
  test("landing, offers, legal, sign-in and error pages @phone-no-js", async ({ page }) => {
    for (const path of PUBLIC_PAGES) {
      await page.goto(path);
      await expectLaidOut(page, path);
    }
  });

  test("check your e-mail, the test checkout and payment success", async ({ page }, testInfo) => {
    await requestSignInEmail(page, uniqueEmail("layout", testInfo));
    await expectLaidOut(page, "check your e-mail");
    await page.goto("/subscribe");
    await page.getByRole("button", { name: /Continue with Monthly/ }).click();
    await expect(page).toHaveURL(/\/checkout\/test\//);
    await expectLaidOut(page, "test checkout");
    await page.getByLabel("E-mail").fill(uniqueEmail("layout-buyer", testInfo));
    await page.getByRole("button", { name: "Complete test payment" }).click();
    await expect(page).toHaveURL(/\/payment-success\?session_id=/);
    await expectLaidOut(page, "payment success");
  });
});

/** Lays out every step of `funnel` on the path its answers take (given over HTTP, quickly; each question's first option). */
async function layOutFunnel(page: Page, baseURL: string, funnel: FunnelOutline) {
  // A funnel that hands over to the next one stops there: its answers are given all the same.
  await takeQuiz(page, baseURL, funnel.route, {}).catch((error: Error) => {
    if (!error.message.includes("leaves for")) throw error;
  });
  const laidOut: FunnelOutline["steps"] = [];
  for (const step of funnel.steps) {
    const path = step === funnel.steps[0] ? funnel.route : `${funnel.route}/${step.id}`;
    const layOut = async () => {
      await page.goto(path);
      // A step off this answer path sends the visitor back to where they belong.
      if (new URL(page.url()).pathname !== path) return;
      await expect(page.locator("main h1")).toBeVisible();
      await expectLaidOut(page, `${funnel.id} step ${step.id} (${step.type})`);
      laidOut.push(step);
    };
    // An analysing step moves on by itself: held on it while it is measured.
    await (step.type === "analysing" ? stayingOn(page, path, layOut) : layOut());
  }
  expect(laidOut.length, `${funnel.id}: steps laid out`).toBeGreaterThan(0);
  return laidOut;
}

test.describe("every funnel step @phone", () => {
  const funnels = funnelsInDataset();
  const routes = new Set(funnels.map((f) => f.route));
  const handsOver = (f: FunnelOutline) => f.leavesFor.some((href) => routes.has(href));
  const handedTo = (f: FunnelOutline) => funnels.some((other) => other.leavesFor.includes(f.route));
  for (const funnel of funnels.filter((f) => !handsOver(f) && !handedTo(f))) {
    test(`${funnel.id} (${funnel.route}) @phone-no-js`, async ({ page, baseURL }) => {
      const laidOut = await layOutFunnel(page, baseURL!, funnel);
      expect(laidOut.map((step) => step.type)).toEqual(expect.arrayContaining(["question", "result"]));
    });
  }
  // Funnels that lead into one another (the app's flow) are one visitor's walk: in that order,
  // each with the answers of the ones before.
  const chained = funnels.filter((f) => handsOver(f) || handedTo(f));
  test(`the funnels that lead into each other: ${chained.map((f) => f.id).join(", ")} @phone-no-js`, async ({ page, baseURL }) => {
    test.setTimeout(150_000);
    const pending = [...chained];
    while (pending.length) {
      const next = pending.find((f) => !pending.some((other) => other !== f && other.leavesFor.includes(f.route))) ?? pending[0];
      pending.splice(pending.indexOf(next), 1);
      await layOutFunnel(page, baseURL!, next);
    }
  });
});

test.describe("members and admin @phone", () => {
  test("a subscribed admin's pages", async ({ page, context, baseURL }) => {
    await signedInMember(context, baseURL!, { subscription: "monthly", role: "admin" });
    for (const path of [
      "/home",
      "/plan/clear-healthy-skin",
      "/plan/clear-healthy-skin?step=6",
      "/path1",
      "/path3",
      "/path6",
      "/completion",
      "/profile",
      "/billing/test-portal",
      "/admin",
    ]) {
      await page.goto(path);
      await expectLaidOut(page, path);
    }
  });
});
