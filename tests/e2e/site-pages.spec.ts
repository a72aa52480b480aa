/**
 * The landing, brands and legal pages, every page's meta tags, first-party
 * analytics capture (UTM, referrer, step answers), no third party without a pixel id, and
 * the admin dashboard over a seeded scenario.
 */
import { expect, test, type Page } from "@playwright/test";
import { signedInMember } from "./members-helpers";
import { uniqueEmail } from "./accounts";
import { eventsFor, hydrated, jsEnabled, visitorId } from "./support";
import {
  DAY_MS,
  extendSessions,
  roleOf,
  seedCompletion,
  seedEvents,
  seedSubscriptionAt,
  seedUser,
  seedVisitor,
  visitorByCampaign,
  visitorRow,
} from "./site-pages-helpers";

const BOOKING_URL = "https://cal.com/glowcoach/brand-demo";

test.describe("landing page @phone", () => {
  for (const path of ["/", "/app"]) {
    test(`${path} shows the hero, the four quizzes, the claims and the links`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Skin you feel good in, one simple routine at a time");
      for (const [title, href] of [
        ["Skin quiz", "/quiz"],
        ["Makeup prep quiz", "/makeup"],
        ["Cakey makeup quiz", "/cakey-makeup"],
        ["Crease quiz", "/crease-crisis"],
      ]) {
        await expect(page.getByRole("link", { name: new RegExp(`^\\d min ${title}`) })).toHaveAttribute("href", href);
      }
      for (const claim of ["Rated 4.7 by our members", "10,000+ women coached", "Dermatologist approved", "1,000+ learners"]) {
        await expect(page.getByRole("list", { name: "Why people trust us" }).getByText(claim)).toBeVisible();
      }
      await expect(page.getByRole("heading", { name: "How it works" })).toBeVisible();
      await expect(page.getByRole("heading", { name: "What our members say" })).toBeVisible();
      await expect(page.getByRole("link", { name: "See partnerships" })).toHaveAttribute("href", "/partnerships");
      const footer = page.getByRole("navigation", { name: "Footer" });
      await expect(footer.getByRole("link", { name: "Privacy Policy" })).toHaveAttribute("href", "/privacy-policy");
      await expect(footer.getByRole("link", { name: "Terms of Service" })).toHaveAttribute("href", "/terms-of-service");
    });
  }

  test("a quiz card opens its quiz", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("link", { name: /Crease quiz/ }).click();
    await expect(page).toHaveURL("/crease-crisis");
  });
});

test.describe("partnerships page", () => {
  test("has every section the issue lists, with the booking link from site settings @phone", async ({ page }) => {
    await page.goto("/partnerships");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Turn every product you sell into a routine your customers keep");
    for (const title of [
      "Low Engagement",
      "Single Purchase",
      "Limited AOV",
      "Routine Builder",
      "Video Education",
      "Smart Upsells",
      "Buy Product",
      "Unlock Experience",
      "Get Personalized Routine",
      "Engage & Repurchase",
    ]) {
      await expect(page.getByRole("heading", { name: title, exact: true })).toBeVisible();
    }
    await expect(page.getByRole("img", { name: /Demo of the coach app/ })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Proven Business Impact" })).toBeVisible();
    for (const stat of ["+75%", "+40%", "+90%"]) await expect(page.getByText(stat, { exact: true })).toBeVisible();
    await expect(page.getByText("Median lifts across pilot brands (n>=5) over 60-90 days.")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Free Pilot" })).toBeVisible();
    await expect(page.getByText("$0", { exact: true })).toBeVisible();
    await expect(page.getByText("Free until 500 users").first()).toBeVisible();
    await expect(page.getByRole("heading", { name: "Trusted by Beauty Brands" })).toBeVisible();
    const logos = page.locator("#brands + ul img");
    await expect(logos).toHaveCount(4);
    // Below the fold the logos load lazily: once scrolled to, each one shows.
    for (const logo of await logos.all()) {
      await logo.scrollIntoViewIfNeeded();
      await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    }
    await expect(page.getByText("Sofia Marquez")).toBeVisible();
    for (const name of ["Book Demo", "See Example"]) {
      const links = page.getByRole("link", { name, exact: true });
      expect(await links.count()).toBeGreaterThan(0);
      for (const link of await links.all()) await expect(link).toHaveAttribute("href", BOOKING_URL);
    }
    const legal = page.getByRole("navigation", { name: "Legal" });
    await expect(legal.getByRole("link", { name: "Terms" })).toHaveAttribute("href", "/terms-of-service");
    await expect(legal.getByRole("link", { name: "Privacy" })).toHaveAttribute("href", "/privacy-policy");
    await expect(page.getByText(new RegExp(`© ${new Date().getFullYear()} Glow Coach`))).toBeVisible();
  });
});

test.describe("legal pages", () => {
  test("terms state refunds, renewal, cancellation and price changes; Back returns to the page before", async ({ page }) => {
    await page.goto("/partnerships");
    await page.getByRole("navigation", { name: "Legal" }).getByRole("link", { name: "Terms" }).click();
    await expect(page).toHaveURL("/terms-of-service");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Terms of Service");
    for (const fact of [
      "you can have a full refund from your profile (Request a refund)",
      "Crease-Free Makeup Routine: 14 days from your purchase.",
      "Refunds take 5-10 business days",
      "at least 30 days before the new price applies",
      "Monthly and annual plans auto-renew",
      "Cancellation takes effect at the end of the current billing period",
    ]) {
      await expect(page.getByText(fact)).toBeVisible();
    }
    await page.getByTestId("legal-back").click();
    await expect(page).toHaveURL("/partnerships");
  });

  test("privacy policy says account data is deleted within 30 days; Back from a direct visit goes home", async ({ page }) => {
    await page.goto("/privacy-policy");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Privacy Policy");
    await expect(page.getByText("your account data is deleted within 30 days")).toBeVisible();
    await expect(page.getByTestId("legal-back")).toHaveText("Back");
    await page.getByTestId("legal-back").click();
    await expect(page).toHaveURL("/");
  });
});

test.describe("meta tags", () => {
  const PAGES = [
    "/",
    "/app",
    "/partnerships",
    "/privacy-policy",
    "/terms-of-service",
    "/quiz",
    "/crease-crisis",
    "/login",
    "/registration",
    "/email-instructions",
    "/home",
    "/app-prototype",
  ];
  test("every page has a title, a description, Open Graph tags and a canonical URL", async ({ page, baseURL }) => {
    for (const path of PAGES) {
      await page.goto(path);
      const head = page.locator("head");
      const canonical = `${baseURL}${path}`;
      await expect(page, path).toHaveTitle(/\S/);
      const description = await head.locator('meta[name="description"]').getAttribute("content");
      expect(description, path).toMatch(/\S{3,}/);
      await expect(head.locator('link[rel="canonical"]'), path).toHaveAttribute("href", canonical);
      await expect(head.locator('meta[property="og:url"]'), path).toHaveAttribute("content", canonical);
      await expect(head.locator('meta[property="og:title"]'), path).toHaveAttribute("content", await page.title());
      await expect(head.locator('meta[property="og:description"]'), path).toHaveAttribute("content", description!);
      await expect(head.locator('meta[property="og:type"]'), path).toHaveAttribute("content", /website|article/);
    }
    const image = await page.locator('head meta[property="og:image"]').getAttribute("content");
    const card = await page.request.get(image!);
    expect(card.status()).toBe(200);
    expect(card.headers()["content-type"]).toBe("image/png");
  });
});

test.describe("first-party analytics", () => {
  test("UTM parameters and the referrer of the first landing are stored once; answers join the same visitor", async ({ page, context }) => {
    const campaign = `spring-${crypto.randomUUID()}`;
    await page.goto(`/crease-crisis?utm_source=newsletter&utm_medium=email&utm_campaign=${campaign}`, {
      referer: "https://news.example.com/issue/12?token=secret",
    });
    const visitor = await visitorId(context);
    const row = await visitorByCampaign(campaign);
    expect(row).toMatchObject({
      id: visitor,
      landingPath: "/crease-crisis",
      utmSource: "newsletter",
      utmMedium: "email",
      referrer: "https://news.example.com/issue/12",
    });

    // A later landing with other tags does not overwrite the first touch.
    await page.goto("/?utm_source=other&utm_campaign=later");
    expect(await visitorRow(visitor)).toMatchObject({ utmCampaign: campaign, utmSource: "newsletter" });

    // Answering a step records step_answered for the same visitor.
    await page.goto("/crease-crisis");
    await page.getByRole("button", { name: "By lunchtime", exact: true }).click();
    await expect(page).toHaveURL("/crease-crisis/2");
    await expect
      .poll(async () => (await eventsFor(visitor)).map((e) => `${e.name}:${e.step}`))
      .toEqual(expect.arrayContaining(["funnel_viewed:1", "step_answered:1"]));
    const answered = (await eventsFor(visitor)).find((e) => e.name === "step_answered")!;
    expect(Object.keys(JSON.parse(answered.props).answers)).toHaveLength(1);
  });

  test("without META_PIXEL_ID nothing third-party loads", async ({ page, baseURL }) => {
    const elsewhere: string[] = [];
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (!["data:", "blob:"].includes(url.protocol) && url.origin !== new URL(baseURL!).origin) elsewhere.push(request.url());
    });
    for (const path of ["/", "/partnerships", "/crease-crisis", "/terms-of-service"]) {
      await page.goto(path);
      await page.waitForLoadState("load");
      expect(await page.content()).not.toContain("connect.facebook.net");
    }
    expect(elsewhere).toEqual([]);
  });
});

async function expectStat(page: Page, funnel: string, stat: string, value: string, note?: string) {
  const box = page.getByTestId(`funnel-${funnel}`).getByTestId(stat);
  await expect(box.locator("[data-value]"), `${funnel} ${stat}`).toHaveText(value);
  if (note) await expect(box.locator("dd").last(), `${funnel} ${stat} note`).toHaveText(note);
}

test.describe("admin dashboard", () => {
  test("shows the numbers a seeded scenario implies", async ({ page, context, baseURL }) => {
    // The scenario lives 400 days ahead (test clock), where no other test writes.
    const offset = 400 * DAY_MS;
    const at = new Date(Date.now() + offset);
    const ago = (days: number, hours = 0) => new Date(at.getTime() - days * DAY_MS + hours * 3_600_000);
    const { userId: adminId } = await signedInMember(context, baseURL!, { role: "admin" });
    await extendSessions(adminId, new Date(at.getTime() + 30 * DAY_MS));
    await context.setExtraHTTPHeaders({ "x-test-clock-offset-ms": String(offset) });

    const v = Array.from({ length: 5 }, () => crypto.randomUUID());
    const funnel = "crease-crisis";
    const buyer = await seedUser(uniqueEmail("buyer"));
    const lapsed = await seedUser(uniqueEmail("lapsed"));
    await seedEvents([
      ...v.map((visitorId) => ({ visitorId, name: "funnel_viewed", funnel, step: "1", at: ago(2) })),
      ...v.slice(0, 4).map((visitorId) => ({ visitorId, name: "step_answered", funnel, step: "1", at: ago(2, 1) })),
      ...v.slice(0, 3).map((visitorId) => ({ visitorId, name: "step_answered", funnel, step: "2", at: ago(2, 1) })),
      ...v.slice(0, 3).map((visitorId) => ({ visitorId, name: "funnel_completed", funnel, step: "7", at: ago(2, 2) })),
      ...v.slice(0, 2).map((visitorId) => ({
        visitorId,
        name: "initiate_checkout",
        props: { offer: "crease-free", plan: "lifetime", price: 29.99, currency: "USD" },
        at: ago(2, 3),
      })),
      {
        visitorId: v[0],
        name: "purchase",
        props: { offer: "crease-free", plan: "lifetime", tier: "single_payment", price: 29.99, currency: "USD", eventId: "e1" },
        at: ago(2, 4),
      },
      // Older buyers from the same funnel, for retention (outside the 7 and 30 day windows).
      ...[buyer, lapsed].flatMap((userId) => {
        const visitorId = crypto.randomUUID();
        return [
          { visitorId, name: "funnel_completed", funnel, at: ago(45) },
          { visitorId, name: "purchase", userId, props: { offer: "crease-free", price: 29.99, currency: "USD" }, at: ago(40) },
        ];
      }),
    ]);
    const day = (n: number) =>
      ago(40 - (n - 1))
        .toISOString()
        .slice(0, 10);
    await seedCompletion(buyer, day(3));
    await seedCompletion(buyer, day(25));
    for (const tier of ["monthly", "monthly", "annual"] as const)
      await seedSubscriptionAt(await seedUser(uniqueEmail("sub")), tier, new Date(at.getTime() + 20 * DAY_MS));
    await seedSubscriptionAt(await seedUser(uniqueEmail("ended")), "monthly", ago(1));

    await page.goto("/admin");
    await expect(page.getByText("Admin Access Granted")).toBeVisible();
    await expect(page.getByRole("button", { name: "Coming Soon" })).toHaveCount(0);
    await expectStat(page, funnel, "views", "5");
    await expectStat(page, funnel, "completions", "3", "60% of views");
    await expectStat(page, funnel, "checkouts", "2", "67% of completions");
    await expectStat(page, funnel, "purchases", "1", "50% of checkouts · 20% of views");
    // The drop-off chart: viewed 5, step 1 answered by 4, step 2 by 3, ..., completed 3.
    const chart = page.getByTestId(`funnel-${funnel}`).getByRole("img", { name: /Visitors at each step/ });
    await expect(chart.locator('[data-step="viewed"]')).toContainText("5 · 100%");
    await expect(chart.locator('[data-step="1"]')).toContainText("4 · 80%");
    await expect(chart.locator('[data-step="2"]')).toContainText("3 · 60%");
    await expect(chart.locator('[data-step="completed"]')).toContainText("3 · 60%");
    // Other funnels had nobody in this window.
    await expectStat(page, "skin", "views", "0");

    await expect(page.getByTestId("active-monthly").locator("[data-value]")).toHaveText("2");
    await expect(page.getByTestId("active-annual").locator("[data-value]")).toHaveText("1");
    await expect(page.getByTestId("revenue-table").locator("tbody tr")).toHaveText([/crease-free\s*1\s*\$29\.99/]);
    // Both older buyers were past both windows; one completed on days 3 and 25, one never.
    const retention = page.getByTestId("retention-table").locator(`tr[data-funnel="${funnel}"] td`);
    await expect(retention.nth(1)).toHaveText("50% (1 of 2)");
    await expect(retention.nth(2)).toHaveText("50% (1 of 2)");

    // Over 30 days the 40-day-old purchases are still outside the revenue window.
    await page.getByRole("link", { name: "Last 30 days" }).click();
    await expect(page).toHaveURL(/days=30/);
    await expect(page.getByTestId("revenue-table").locator("tbody tr")).toHaveText([/crease-free\s*1\s*\$29\.99/]);
  });

  test("an admin finds a member by e-mail and changes the role after confirming @no-js", async ({ page, context, baseURL }) => {
    await signedInMember(context, baseURL!, { role: "admin" });
    const email = uniqueEmail("findme");
    const member = await seedUser(email);
    await seedSubscriptionAt(member, "monthly", new Date(Date.now() + 20 * DAY_MS));
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - DAY_MS).toISOString().slice(0, 10);
    await seedCompletion(member, yesterday);
    await seedCompletion(member, today);
    // The member bought after the crease quiz, having landed from a newsletter.
    const buyerVisitor = crypto.randomUUID();
    await seedVisitor(buyerVisitor, { utmSource: "newsletter", landingPath: "/crease-crisis" });
    await seedEvents([
      {
        visitorId: buyerVisitor,
        name: "funnel_completed",
        funnel: "crease-crisis",
        props: { answers: { when: "lunch", where: "eyes", feel: "self-conscious" } },
        at: new Date(Date.now() - 3 * DAY_MS),
      },
      {
        visitorId: buyerVisitor,
        name: "purchase",
        userId: member,
        props: { offer: "crease-free", price: 29.99, currency: "USD" },
        at: new Date(Date.now() - 3 * DAY_MS + 60_000),
      },
    ]);

    await page.goto("/admin");
    await page.getByLabel("Search by e-mail").fill(email);
    await page.getByRole("button", { name: "Search" }).click();
    const row = page.locator(`tr[data-email="${email}"]`);
    await expect(row).toContainText("user");
    await expect(row).toContainText("Monthly · active");
    await expect(row).toContainText("2 days");
    await expect(row.getByTestId("source")).toHaveText("Crease quiz · 3 answers · newsletter");
    await hydrated(page, test.info()); // with JavaScript the confirmation is a dialog on this page
    // The table scrolls sideways on a phone; follow the link as a keyboard user would.
    await row.getByRole("link", { name: "Make admin" }).focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("alertdialog")).toContainText(`Change the role of ${email} from user to admin?`);
    expect(await roleOf(member)).toBe("user");
    await page.getByRole("button", { name: "Yes, make admin" }).click();
    await expect(page.locator(`tr[data-email="${email}"]`).locator("td").nth(1)).toHaveText("admin");
    expect(await roleOf(member)).toBe("admin");
    if (jsEnabled(test.info())) await expect(page.getByText(`${email} is now an admin.`)).toBeVisible();
  });

  test("a member and an anonymous visitor are refused, and cannot change roles", async ({ page, context, baseURL }) => {
    const target = await seedUser(uniqueEmail("target"));
    const form = { intent: "set-role", userId: target, role: "admin", confirm: "yes" };
    const anonymous = await page.request.post("/admin", { form, maxRedirects: 0 });
    expect(anonymous.status()).toBe(302);
    expect(anonymous.headers().location).toMatch(/\/login(\?|$)/);
    await signedInMember(context, baseURL!);
    const member = await context.request.post("/admin", { form, maxRedirects: 0 });
    expect(member.status()).toBe(302);
    expect(member.headers().location).toMatch(/\/home$/);
    await page.goto("/admin");
    await expect(page).toHaveURL("/home");
    expect(await roleOf(target)).toBe("user");
  });
});
