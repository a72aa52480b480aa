/**
 * Every funnel in the content dataset, completed with the keyboard alone: Tab, Space and
 * Enter (no clicks, no fills). Each new step must move focus to its question (the step's
 * heading), and every control that takes focus on the way must show a focus ring.
 */
import { expect, test, type Page, type TestInfo } from "@playwright/test";
import { funnelsInDataset, stepAt, type FunnelOutline } from "./funnel-list";
import { signedInMember } from "./members-helpers";
import { hydrated } from "./support";

// Desktop with JavaScript only (untagged): moving focus after a navigation is the engine's
// client-side work, and one width is enough for the keyboard path (the same markup and focus
// code serve both).

type Focused = { tag: string; type: string; name: string; ariaPressed: string | null; primary: boolean; text: string; ring: string | null };

/**
 * What has focus, and whether it shows a ring: an outline that is drawn (style not none,
 * width > 0, not transparent). The app draws every focus ring as an outline; a box-shadow is
 * not accepted, as cards and buttons carry one whether focused or not. A visually hidden
 * radio or checkbox is drawn by its card (the <label> around it), so the ring is looked for there.
 */
function focused(page: Page): Promise<Focused | null> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return null;
    const input = el instanceof HTMLInputElement ? el : null;
    const drawn = (input && el.closest("label")) || el;
    const style = getComputedStyle(drawn);
    const box = drawn.getBoundingClientRect();
    const transparent = /rgba\(.*,\s*0\)$|transparent/.test(style.outlineColor);
    const outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0 && !transparent;
    let ring: string | null = null;
    if (box.width < 2 || box.height < 2) ring = "the focused element is not visible";
    else if (!outline) ring = `no focus ring (outline ${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor})`;
    return {
      tag: el.tagName.toLowerCase(),
      type: input?.type ?? "",
      name: input?.name ?? "",
      ariaPressed: el.getAttribute("aria-pressed"),
      primary: el.matches(".btn-primary, .continue-button, button[type=submit]"),
      text: (el.innerText || el.getAttribute("aria-label") || input?.value || "").trim().slice(0, 60),
      ring,
    };
  });
}

/** Tab once; the new focus must be on a control with a visible ring. */
async function tab(page: Page, where: string): Promise<Focused> {
  await page.keyboard.press("Tab");
  const now = await focused(page);
  expect(now, `${where}: Tab left nothing focused`).not.toBeNull();
  expect(now!.ring, `${where}: ${now!.tag} "${now!.text}"`).toBeNull();
  return now!;
}

/** The step's question (its h1) has focus: the engine moved it there after the navigation. */
async function expectFocusOnQuestion(page: Page, where: string) {
  const heading = page.locator("main h1");
  await expect(heading, `${where}: focus on the step's heading`).toBeFocused();
}

/** Answers a question step and moves on: options with Space, option cards and Continue with Enter. */
async function answerQuestion(page: Page, where: string) {
  const answered = new Set<string>();
  for (let i = 0; i < 30; i++) {
    const now = await tab(page, where);
    if (now.ariaPressed !== null) return page.keyboard.press("Enter"); // an option card: choosing it moves on
    if (now.type === "radio" || now.type === "checkbox") {
      if (!answered.has(now.name)) {
        await page.keyboard.press("Space");
        answered.add(now.name);
      }
      continue;
    }
    if (now.primary) return page.keyboard.press("Enter");
    throw new Error(`${where}: Tab reached ${now.tag} "${now.text}" before the step's Continue`);
  }
  throw new Error(`${where}: no way forward found with Tab`);
}

/** The e-mail step (ADR 44): types an address, leaves consent unticked, and goes on with the main button. */
async function giveEmail(page: Page, where: string) {
  // Its code is a chunk of its own: the step is on screen (and its heading focused) once it has loaded.
  await expect(page.locator("main input[type=email]")).toBeVisible();
  await expect(page.locator("main h1"), `${where}: focus on the step's heading`).toBeFocused();
  for (let i = 0; i < 10; i++) {
    const now = await tab(page, where);
    if (now.type === "email") await page.keyboard.type("keyboard-visitor@glowcoach.test");
    else if (now.primary) return page.keyboard.press("Enter");
    else if (now.type !== "checkbox") throw new Error(`${where}: Tab reached ${now.tag} "${now.text}" before the step's button`);
  }
  throw new Error(`${where}: no way forward found with Tab`);
}

/** Tabs to the step's main action (the intro's button, an insight's Continue) and presses Enter. */
async function pressPrimary(page: Page, where: string) {
  for (let i = 0; i < 15; i++) {
    const now = await tab(page, where);
    if (now.primary) return page.keyboard.press("Enter");
  }
  throw new Error(`${where}: no main action reached with Tab`);
}

/** Longer than any analysing step of the dataset (3 s each today). */
const ANALYSING_AT_MOST_MS = 60_000;

/**
 * Opens `target`, then goes on with the keyboard (through the funnels a step leads to, when
 * it must start elsewhere) until `target` is finished: its result, or its last step leading
 * out of it. Returns the steps of `target` seen.
 */
async function completeWithKeyboard(page: Page, funnels: FunnelOutline[], target: FunnelOutline, testInfo: TestInfo): Promise<string[]> {
  const seen = new Set<string>();
  // The page's timers on a clock the test can move: an analysing step moves on when its time
  // is up, without the test sitting through its seconds.
  await page.clock.install();
  await page.goto(target.route);
  await expect(page.locator("main h1")).toBeVisible();
  await hydrated(page, testInfo);
  // A full page load leaves focus at the top of the document: the skip link leads to the step.
  const skip = await tab(page, "first Tab");
  expect(skip.text).toBe("Skip to content");
  await page.keyboard.press("Enter");
  let first = true;
  for (let i = 0; i < 60; i++) {
    const path = new URL(page.url()).pathname;
    const funnel = funnels.find((f) => stepAt(f, path));
    if (!funnel) break;
    if (funnel !== target && seen.size) break; // left the target funnel: it is finished
    const step = stepAt(funnel, path)!;
    const where = `${funnel.id} step ${step.id} (${step.type})`;
    if (!first) await expectFocusOnQuestion(page, where);
    first = false;
    if (funnel === target) seen.add(step.id);
    if (step.type === "result") {
      if (funnel === target) {
        // The result's call to action is the next stop, with its ring.
        await tab(page, where);
        break;
      }
    } else if (step.type === "question") await answerQuestion(page, where);
    else if (step.type === "email") await giveEmail(page, where);
    else if (step.type === "analysing")
      await page.clock.fastForward(ANALYSING_AT_MOST_MS); // moves on by itself when its time is up
    else await pressPrimary(page, where);
    await page.waitForURL((url) => url.pathname !== path, { timeout: 15_000 });
  }
  return [...seen];
}

test.describe("every funnel with the keyboard alone", () => {
  const funnels = funnelsInDataset();
  for (const funnel of funnels) {
    test(`${funnel.id} (${funnel.route})`, async ({ page }, testInfo) => {
      test.setTimeout(90_000);
      const seen = await completeWithKeyboard(page, funnels, funnel, testInfo);
      expect(seen.sort()).toEqual(funnel.steps.map((s) => s.id).sort());
    });
  }
});

test.describe("a focus ring on every control", () => {
  /** Tabs through the whole page, from the top to the last control, checking each stop. */
  async function tabThrough(page: Page, path: string) {
    await page.goto(path);
    await expect(page.locator("main")).toBeVisible();
    const stops: string[] = [];
    for (let i = 0; i < 120; i++) {
      await page.keyboard.press("Tab");
      const now = await focused(page);
      if (!now) break; // past the last control
      const name = `${now.tag} "${now.text}"`;
      if (stops[0] === name && i > 0) break;
      stops.push(name);
      expect.soft(now.ring, `${path}: ${name}`).toBeNull();
    }
    expect(stops.length, `${path}: controls reached with Tab`).toBeGreaterThan(1);
  }

  test("public pages", async ({ page }) => {
    test.setTimeout(90_000);
    for (const path of [
      "/",
      "/subscribe",
      "/subscribe-otp",
      "/sales",
      "/cakey-otp",
      "/partnerships",
      "/privacy-policy",
      "/email-instructions",
      "/login",
      "/login?method=password",
      "/registration",
      "/no-such-page",
    ]) {
      await tabThrough(page, path);
    }
  });

  test("members' pages and the admin dashboard", async ({ page, context, baseURL }) => {
    test.setTimeout(90_000);
    await signedInMember(context, baseURL!, { role: "admin", subscription: "monthly" });
    for (const path of ["/home", "/plan/clear-healthy-skin", "/path1", "/completion", "/profile", "/admin"]) await tabThrough(page, path);
  });
});
