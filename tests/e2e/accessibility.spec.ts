/**
 * axe on every page of the app and the states a visitor can reach on it (form errors,
 * expired links, the test checkout, signed-in member and admin pages, 404 and 429):
 * no serious or critical violation anywhere. Every funnel is walked step by step from the
 * content dataset, so a new funnel or step is scanned without editing this file.
 */
import crypto from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { requestSignInEmail, uniqueEmail, useOwnIp } from "./accounts";
import { funnelsInDataset, stepAt, type FunnelOutline } from "./funnel-list";
import { codeFrom, E2E_MAIL_DIR, signInLinkFrom, waitForEmail } from "./mail-server";
import { seedEntitlement, signedInMember } from "./members-helpers";
import { takeQuiz } from "./quiz-helpers";
import { DAY_MS, seedCompletion, seedEvents, seedSubscriptionAt, seedUser } from "./site-pages-helpers";
import { ownLimitMinute, stayingOn } from "./support";

test.beforeEach(async ({ context }) => {
  await useOwnIp(context);
});
// The end of each entrance animation is what people read: scan that, not a half-faded frame.
test.use({ reducedMotion: "reduce" });

/**
 * One scan's budget. An idle machine scans a page in 1–2 s; this leaves room for a machine
 * several times busier, and says which scan ran out instead of the test's own time limit.
 */
const SCAN_BUDGET_MS = 40_000;

/** Runs axe on the page as it is now; serious and critical violations fail the test (softly, so one run lists every page). */
async function scan(page: Page, name: string) {
  await page.waitForLoadState("load");
  // What people read is the end of an entrance animation (reduced motion makes it 0.01 ms, but a
  // busy machine may not have drawn that frame yet): scan once every animation has finished.
  await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))));
  let budget: NodeJS.Timeout | undefined;
  const overBudget = new Promise<never>((_, reject) => {
    budget = setTimeout(() => reject(new Error(`axe: scanning ${name} took longer than its budget of ${SCAN_BUDGET_MS / 1000} s`)), SCAN_BUDGET_MS);
  });
  const { violations } = await Promise.race([new AxeBuilder({ page }).options({ resultTypes: ["violations"] }).analyze(), overBudget]).finally(() =>
    clearTimeout(budget),
  );
  const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const found = serious.flatMap((v) => v.nodes.map((node) => `${v.id} (${v.impact}): ${node.target.join(" ")} — ${v.help}`));
  // One annotation per page scanned, for the JSON reporter's tally.
  test.info().annotations.push({ type: "axe", description: `${name}: ${found.length}` });
  expect.soft(found, `axe: ${name} (${new URL(page.url()).pathname}${new URL(page.url()).search})`).toEqual([]);
}

async function visitAndScan(page: Page, path: string, name = path) {
  await page.goto(path);
  await scan(page, name);
}

/** Pages whose layout changes with width beyond the shared header (heroes, offer cards, forms): scanned on the phone too. */
const PAGES_LAID_OUT_FOR_PHONES = [
  "/",
  "/subscribe",
  "/subscribe-otp",
  "/sales",
  "/cakey-otp",
  "/partnerships",
  "/login",
  "/registration",
  "/no-such-page",
  "/payment-success",
];
/** The rest: one column at every width, so their colours and markup are the same on a phone. */
const OTHER_PUBLIC_PAGES = [
  "/app",
  "/email-instructions",
  "/privacy-policy",
  "/terms-of-service",
  "/home",
  "/login?method=password",
  "/dev/mailbox",
  "/payment-success?session_id=cs_local_doesnotexist12345",
  "/checkout/test/cs_local_doesnotexist12345",
  "/plan/no-such-plan",
];

test("legal, sign-in variants and error pages", async ({ page }) => {
  for (const path of OTHER_PUBLIC_PAGES) await visitAndScan(page, path);
});

test.describe("public pages @phone", () => {
  test("landing, offers, partnerships, sign-in and error pages", async ({ page }) => {
    for (const path of PAGES_LAID_OUT_FOR_PHONES) await visitAndScan(page, path);
  });

  test("open states: the FAQ and the account menu", async ({ page, context, baseURL }) => {
    await page.goto("/sales");
    await page.locator("details summary").first().click();
    await scan(page, "offer FAQ item open");
    await signedInMember(context, baseURL!);
    await page.goto("/");
    await page.locator("summary[aria-label*='Account menu']").click();
    await scan(page, "account menu open");
  });
});

/** Takes the step forward the way a visitor would; the step's own controls only. */
async function advance(page: Page, type: FunnelOutline["steps"][number]["type"]) {
  const main = page.locator("main");
  if (type === "intro") return main.locator("form button[type=submit]").first().click();
  if (type === "insight" || type === "summary") return main.locator("a.btn-primary").first().click();
  // The e-mail step (ADR 44): on to the result without an address, as a visitor may.
  if (type === "email") return main.locator("button[value=skip]").click();
  if (type !== "question") return; // analysing moves on by itself; a result is the end
  const optionButtons = main.locator("fieldset button[aria-pressed]");
  if (await optionButtons.count()) return optionButtons.first().click();
  for (const fieldset of await main.locator("form fieldset").all()) await fieldset.locator("label").first().click();
  await main.locator(".continue-button").click();
}

/**
 * Walks funnels from `start`, scanning each step template once, and goes on into the funnel a step leads
 * to, until `target` has been seen whole (or a result or a page outside the funnels).
 */
async function walkFunnels(page: Page, funnels: FunnelOutline[], target: FunnelOutline) {
  const seen = new Map<string, Set<string>>(funnels.map((f) => [f.id, new Set()]));
  // Once per template of each funnel (funnel-list.ts): steps that share one differ only in words.
  const scanned = new Set<string>();
  await page.goto(target.route);
  for (let i = 0; i < 80; i++) {
    const path = new URL(page.url()).pathname;
    const funnel = funnels.find((f) => stepAt(f, path));
    if (!funnel) break;
    const step = stepAt(funnel, path)!;
    await expect(page.locator("main h1")).toBeVisible();
    const template = `${funnel.id} ${step.template}`;
    if (!scanned.has(template)) await stayingOn(page, path, () => scan(page, `${funnel.id} step ${step.id} (${step.type})`));
    scanned.add(template);
    seen.get(funnel.id)!.add(step.id);
    if (step.type === "result" || seen.get(target.id)!.size === target.steps.length) break;
    await advance(page, step.type);
    await page.waitForURL((url) => url.pathname !== path, { timeout: 15_000 });
  }
  return [...seen.get(target.id)!];
}

test.describe("every funnel, every step template", () => {
  const funnels = funnelsInDataset();
  for (const funnel of funnels) {
    test(`${funnel.id} (${funnel.route})`, async ({ page }) => {
      // A step's markup and colours are the same at both widths: scanned at desktop width; the
      // phone scans the pages whose chrome changes with width (tagged @phone above).
      test.setTimeout(120_000);
      // Every step is visited; each template is scanned once (walkFunnels).
      const visited = await walkFunnels(page, funnels, funnel);
      expect(visited.sort()).toEqual(funnel.steps.map((s) => s.id).sort());
    });
  }
});

test.describe("the result's progress chart", () => {
  test("the skin result with its chart, the numbers table open @phone", async ({ page, baseURL }) => {
    await takeQuiz(page, baseURL!, "/quiz", { skinType: "dry", mainConcern: ["dark-spots"], timeWillingness: "10-plus" });
    // The walk above scans this template too; here the chart must be there, and its table open.
    await expect(page.getByRole("img", { name: /typical, not promised/ })).toBeVisible();
    await page.getByText("See the numbers", { exact: true }).click();
    await expect(page.getByRole("rowheader", { name: "Week 8" })).toBeVisible();
    await scan(page, "skin result with its progress chart, numbers open");
  });
});

test.describe("sign-in states", () => {
  test("check your e-mail, wrong code, the link's confirm page, used, superseded, expired and broken links", async ({ page, browser }, testInfo) => {
    test.setTimeout(90_000);
    const email = uniqueEmail("a11y-link", testInfo);
    const first = await requestSignInEmail(page, email);
    await scan(page, "check your e-mail");
    await page.locator("input[name=code]").fill("ZZZZZZ");
    await page.getByRole("button", { name: "Sign in with code" }).click();
    await expect(page.locator("[role=alert], [aria-invalid]").first()).toBeVisible();
    await scan(page, "check your e-mail, wrong code");

    const second = await requestSignInEmail(page, email);
    await page.goto(signInLinkFrom(first));
    await scan(page, "superseded link");
    const link = signInLinkFrom(second);
    await page.goto(link);
    await scan(page, "magic link confirm");
    const broken = new URL(link);
    broken.searchParams.set("token", `${broken.searchParams.get("token")!.slice(0, -4)}AAAA`);
    await visitAndScan(page, broken.pathname + broken.search, "broken link");

    await page.goto(link);
    await page.getByRole("button", { name: `Sign in as ${email}` }).click();
    await expect(page).toHaveURL("/home");
    await scan(page, "home after sign-in");
    const other = await browser.newContext({ reducedMotion: "reduce" });
    await useOwnIp(other);
    const otherPage = await other.newPage();
    await visitAndScan(otherPage, link, "used link");
    await other.close();

    const late = uniqueEmail("a11y-expired", testInfo);
    const fresh = await browser.newContext({ reducedMotion: "reduce" });
    await useOwnIp(fresh);
    const latePage = await fresh.newPage();
    const mail = await requestSignInEmail(latePage, late);
    await useOwnIp(fresh, { "X-Test-Clock-Offset-Ms": String(16 * 60_000) });
    await visitAndScan(latePage, signInLinkFrom(mail), "expired link");
    await fresh.close();
  });

  test("form errors: login, password sign-in, registration, too many e-mails", async ({ page }, testInfo) => {
    await page.goto("/login?method=password");
    await page.getByLabel("E-mail").fill(uniqueEmail("a11y-nopass", testInfo));
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.locator("[role=alert], [aria-invalid]").first()).toBeVisible();
    await scan(page, "password sign-in refused");

    await page.goto("/registration");
    await page.locator("main form button.btn-primary").click();
    await expect(page.locator("[role=alert], [aria-invalid]").first()).toBeVisible();
    await scan(page, "registration with errors");

    const email = uniqueEmail("a11y-limit", testInfo);
    for (let i = 0; i < 5; i++) await requestSignInEmail(page, email);
    await page.goto("/login");
    await page.getByLabel("E-mail").fill(email);
    await page.getByRole("button", { name: "Send Magic Link" }).click();
    await expect(page.getByText(/Too many sign-in e-mails/)).toBeVisible();
    await scan(page, "login: too many e-mails (429)");
  });

  test("sign-up: check your e-mail, confirm your e-mail, and a request from another site (403)", async ({ page }, testInfo) => {
    const email = uniqueEmail("a11y-signup", testInfo);
    await page.goto("/registration");
    await page.getByLabel("Full Name").fill("Ada Glow");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("rosewater-2026");
    await page.getByLabel("Confirm Password").fill("rosewater-2026");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page).toHaveURL("/login/check-email");
    await scan(page, "sign-up: check your e-mail");
    await page.goto(signInLinkFrom(await waitForEmail(E2E_MAIL_DIR, email)));
    await expect(page.getByRole("heading", { name: "Confirm your e-mail" })).toBeVisible();
    await scan(page, "sign-up: confirm your e-mail");
    await page.route("https://elsewhere.example/**", (route) =>
      route.fulfill({
        contentType: "text/html",
        body: `<form method="post" action="${new URL("/login", page.url()).href}"></form><script>document.forms[0].submit()</script>`,
      }),
    );
    await page.goto("https://elsewhere.example/");
    await expect(page.getByRole("heading", { name: "This request didn't come from our site" })).toBeVisible();
    await scan(page, "403 page");
  });

  test("the request limit's 429 page", async ({ page, context }) => {
    // One visitor may post 30 times a minute to one endpoint; the 31st gets the page.
    await context.setExtraHTTPHeaders(ownLimitMinute());
    for (let i = 0; i < 30; i++) await context.request.post("/quiz", { maxRedirects: 0 });
    await page.goto("/quiz");
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST"),
      // A plain form post (not the app's fetch), so the browser shows the answer as a page.
      page.evaluate(() => {
        const form = document.createElement("form");
        form.method = "post";
        form.action = "/quiz";
        document.body.append(form);
        form.submit();
      }),
    ]);
    expect(response.status()).toBe(429);
    await expect(page.getByRole("heading", { name: "Too many requests" })).toBeVisible();
    await scan(page, "429 page");
  });
});

test.describe("checkout", () => {
  test("offer → local test checkout (with its error) → payment success → home", async ({ page }, testInfo) => {
    await page.goto("/subscribe");
    await page.getByRole("button", { name: /Continue with Monthly/ }).click();
    await expect(page).toHaveURL(/\/checkout\/test\//);
    await scan(page, "test checkout");
    await page.getByRole("button", { name: "Complete test payment" }).click();
    await expect(page.getByText("Please enter a valid e-mail address.")).toBeVisible();
    await scan(page, "test checkout with an error");
    const buyer = uniqueEmail("a11y-buyer", testInfo);
    await page.getByLabel("E-mail").fill(buyer);
    await page.getByRole("button", { name: "Complete test payment" }).click();
    await expect(page).toHaveURL(/\/payment-success\?session_id=/);
    await scan(page, "payment success (routine until the address is confirmed)");
    // The account's own pages ask a purchase session to confirm the address first.
    await page.goto("/billing/test-portal");
    await expect(page).toHaveURL(/\/login\?redirectTo=/);
    await scan(page, "login: confirm the address after buying");
    await page.goto("/login/check-email");
    await page.getByLabel(/Enter the code/).fill(codeFrom(await waitForEmail(E2E_MAIL_DIR, buyer)));
    await page.getByRole("button", { name: "Sign in with code" }).click();
    await expect(page).toHaveURL("/home");
    await visitAndScan(page, "/billing/test-portal");

    // The same, now verified, address bought from another browser: asked to sign in by link.
    await page.context().clearCookies();
    await page.goto("/sales");
    await page.getByRole("button", { name: "Get My Personalized Routine" }).click();
    await page.getByLabel("E-mail").fill(buyer);
    await page.getByRole("button", { name: "Complete test payment" }).click();
    await expect(page.getByRole("link", { name: "Sign in with the code" })).toBeVisible();
    await scan(page, "payment success (sign in by link)");
  });
});

// Member pages share one chrome: the phone project scans a subscribed member's pages, where the
// phone's header and navigation show; the other member and admin states are scanned on desktop.
test.describe("members and admin", () => {
  const MEMBER_PAGES = ["/home", "/plan/clear-healthy-skin", "/path1", "/path2", "/path3", "/path4", "/path5", "/path6", "/completion", "/profile"];

  test("a free member's pages", async ({ page, context, baseURL }) => {
    test.setTimeout(90_000);
    await signedInMember(context, baseURL!);
    for (const path of MEMBER_PAGES) await visitAndScan(page, path, `free member ${path}`);
  });

  test("a subscribed member's pages @phone", async ({ page, context, baseURL }) => {
    test.setTimeout(90_000);
    await signedInMember(context, baseURL!, { subscription: "monthly" });
    for (const path of MEMBER_PAGES) await visitAndScan(page, path, `subscribed member ${path}`);
    await visitAndScan(page, "/billing/test-portal", "subscribed member test portal");
  });

  test("a member with every plan, personal answers, the picker, owned offers and product details", async ({ page, context, baseURL }) => {
    test.setTimeout(120_000);
    const { userId } = await signedInMember(context, baseURL!);
    const plans = ["clear-healthy-skin", "makeup-prep", "crease-free", "no-more-cakey"] as const;
    for (const routinePlanId of plans)
      await seedEntitlement(userId, { routinePlanId, tier: routinePlanId === "clear-healthy-skin" ? "annual" : "single_payment" });
    await takeQuiz(page, baseURL!, "/quiz", { skinType: "oily", mainConcern: ["acne"] });
    await takeQuiz(page, baseURL!, "/crease-crisis", { creasingLocation: "under-eyes" });
    // Each offer page is its own layout, shown here as owned.
    for (const path of ["/subscribe", "/subscribe-otp", "/sales", "/cakey-otp"]) await visitAndScan(page, path, `owner ${path}`);
    // Home, the player and a tutorial are one template for every plan (the plans differ in
    // words and pictures, and every picture's description is required by the content schema):
    // scanned for a subscription plan and for a one-time plan followed from the picker.
    for (const plan of ["clear-healthy-skin", "crease-free"]) {
      await page.goto("/home");
      const follow = page.getByRole("region", { name: "Your plans" }).locator("form", { has: page.locator(`input[value="${plan}"]`) });
      if (await follow.count()) await follow.getByRole("button").click();
      await page.waitForURL("**/home");
      await page.locator("summary", { hasText: "Learn More" }).first().click();
      await scan(page, `home following ${plan}, product details open`);
      await visitAndScan(page, `/plan/${plan}?step=4`, `player ${plan}`);
      await visitAndScan(page, "/path3", `tutorial ${plan}`);
    }
    await visitAndScan(page, "/billing/test-portal", "test portal with a plan switch");
  });

  test("the routine in progress and done", async ({ page, context, baseURL }) => {
    test.setTimeout(90_000);
    await signedInMember(context, baseURL!, { subscription: "monthly" });
    await page.goto("/plan/clear-healthy-skin");
    for (let step = 1; step <= 5; step++) {
      await page.getByRole("button", { name: "Complete & Next" }).click();
      await page.waitForURL(`**/plan/clear-healthy-skin?step=${step + 1}`);
      await scan(page, `routine step ${step + 1}`);
    }
    await page.getByRole("button", { name: "Complete Step" }).click();
    await page.getByRole("button", { name: "Finish Today's Routine" }).click();
    await page.waitForURL("**/home");
    await scan(page, "home after finishing the routine");
  });

  test("the admin dashboard with numbers, a member search and the role confirmation", async ({ page, context, baseURL }) => {
    test.setTimeout(90_000);
    // Its own window, 700 days back (test clock), so every table has rows and no other test's numbers change.
    const offset = -700 * DAY_MS;
    const at = Date.now() + offset;
    const ago = (days: number) => new Date(at - days * DAY_MS);
    await signedInMember(context, baseURL!, { role: "admin" });
    await useOwnIp(context, { "X-Test-Clock-Offset-Ms": String(offset) });
    const email = uniqueEmail("a11y-buyer");
    const buyer = await seedUser(email);
    await seedSubscriptionAt(buyer, "monthly", new Date(at + 20 * DAY_MS));
    await seedCompletion(buyer, ago(38).toISOString().slice(0, 10));
    const visitorId = crypto.randomUUID();
    await seedEvents([
      { visitorId, name: "funnel_viewed", funnel: "crease-crisis", step: "1", at: ago(2) },
      { visitorId, name: "step_answered", funnel: "crease-crisis", step: "1", at: ago(2) },
      { visitorId, name: "funnel_completed", funnel: "crease-crisis", step: "7", at: ago(2) },
      { visitorId, name: "purchase", userId: buyer, props: { offer: "crease-free", price: 29.99, currency: "USD" }, at: ago(2) },
      { visitorId: crypto.randomUUID(), name: "purchase", userId: buyer, props: { offer: "crease-free", price: 29.99, currency: "USD" }, at: ago(40) },
    ]);
    await page.goto("/admin");
    await expect(page.getByTestId("revenue-table")).toBeVisible();
    await scan(page, "admin");
    await visitAndScan(page, `/admin?${new URLSearchParams({ q: email })}`, "admin member search");
    await visitAndScan(page, `/admin?${new URLSearchParams({ q: email, confirm: buyer })}`, "admin role confirmation");
    await visitAndScan(page, `/admin?${new URLSearchParams({ q: "nobody-here" })}`, "admin search without matches");
  });
});
