/**
 * The e-mail step before the result and the recovery e-mails (ADR 44), on the test clock: every
 * request of a context carries X-Test-Clock-Offset-Ms, and POST /test/reminders (TEST_CLOCK only)
 * runs the e-mail queues (reminders and recovery) once at that request's time, instead of waiting for the minute loop.
 */
import { expect, test, type APIRequestContext, type BrowserContext, type Page } from "@playwright/test";
import { useOwnIp } from "./accounts";
import { E2E_MAIL_DIR, readAll, type ReceivedEmail } from "./mail-server";
import { takeQuiz } from "./quiz-helpers";
import { eventsFor, jsEnabled, queueTurn, visitorId } from "./support";
import { rows } from "./test-db";

const HOUR = 3_600_000;
const ANSWERS = { skinType: "oily", mainConcern: ["acne", "large-pores"] };

test.use({ timezoneId: "UTC" });

/** 10:00 UTC a few days ahead (a different day per project and test), so every e-mail of the sequence falls in the day. */
function morning(daysAhead: number): Date {
  const day = new Date(Date.now() + daysAhead * 24 * HOUR);
  return new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 10));
}

function offset(at: Date) {
  return { "X-Test-Clock-Offset-Ms": String(at.getTime() - Date.now()) };
}

async function setClock(context: BrowserContext, at: Date) {
  await context.setExtraHTTPHeaders(offset(at));
}

async function runRecovery(request: APIRequestContext, at: Date) {
  const answer = await request.post("/test/reminders", { headers: offset(at) });
  expect(answer.status()).toBe(200);
}

/** The recovery e-mails to `email` (not the purchase's sign-in e-mail). */
async function recoveryTo(email: string): Promise<ReceivedEmail[]> {
  return (await readAll(E2E_MAIL_DIR)).filter(
    (mail) => mail.to.toLowerCase() === email.toLowerCase() && /ready when you are|Still thinking it over|one step away/.test(mail.subject),
  );
}

const HTML_ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };
function buttonLink(mail: ReceivedEmail, label: string): string {
  const button = new RegExp(`<a\\b[^>]*\\bhref="([^"]*)"[^>]*>\\s*${label}\\s*</a>`, "i").exec(mail.html);
  if (!button) throw new Error(`no '${label}' link in "${mail.subject}"`);
  return button[1].replace(/&(amp|lt|gt|quot|#39);/g, (entity) => HTML_ENTITIES[entity]);
}

/** Answers the skin quiz and gives an address at its e-mail step, ticking consent or not. */
async function giveAddress(page: Page, baseURL: string, email: string, consent: boolean) {
  await takeQuiz(page, baseURL, "/quiz", ANSWERS, { openStep: "email" });
  await expect(page.getByRole("heading", { level: 1, name: "Where should we send your plan?" })).toBeVisible();
  const box = page.getByRole("checkbox", { name: /send me skincare tips and offers/ });
  await expect(box).not.toBeChecked();
  await page.getByLabel("Your e-mail address").fill(email);
  if (consent) await box.check();
  await page.getByRole("button", { name: "Show My Results" }).click();
  await expect(page).toHaveURL("/quiz/14");
  await expect(page.getByRole("heading", { level: 1, name: "Your personalized clear skin plan is ready" })).toBeVisible();
}

/** What the offer shows of the plan for the answers in this browser. */
async function planPreview(page: Page) {
  await page.goto("/subscribe");
  return { step: await page.getByTestId("routine-step-detail").textContent(), tips: await page.getByTestId("offer-tip-text").allTextContents() };
}

test.describe("e-mail before the result, and recovery e-mails", () => {
  // Each test its own client address (TRUST_PROXY=1 in tests): the per-address limit on sign-in
  // e-mails (20 an hour) then counts this test's purchases only, not the whole suite's.
  test.beforeEach(async ({ context }) => {
    await useOwnIp(context);
  });

  // One queue for the whole server, and each run claims every due lead: these run one at a time.
  test.describe.configure({ mode: "serial" });
  // ...and take turns with every other test that runs the queues (another project's copy too).
  let giveBack = () => {};
  test.beforeEach(async () => {
    giveBack = await queueTurn();
  });
  test.afterEach(() => giveBack());

  test("with and without consent: only the consenting visitor gets the 1-hour e-mail, once with two runs racing; it brings her answers back to her offer; she buys; nothing more @no-js @instances", async ({
    page,
    context,
    browser,
    baseURL,
  }, testInfo) => {
    const start = morning(jsEnabled(testInfo) ? 3 : 5);
    const tag = `${testInfo.project.name}-${Date.now()}`;
    const consenting = `recover-yes-${tag}@glowcoach.test`;
    const declining = `recover-no-${tag}@glowcoach.test`;

    // A bad address is refused with words, and nothing is stored.
    await setClock(context, start);
    await takeQuiz(page, baseURL!, "/quiz", ANSWERS, { openStep: "email" });
    await page.getByLabel("Your e-mail address").fill("not-an-address");
    await page.getByRole("button", { name: "Show My Results" }).click();
    await expect(page.getByRole("alert")).toHaveText("Please enter a valid e-mail address.");
    expect(await rows(`SELECT 1 FROM "Lead" WHERE "visitorId" = ?`, await visitorId(context))).toHaveLength(0);

    await giveAddress(page, baseURL!, consenting, true);
    const visitor = await visitorId(context);
    const original = await planPreview(page);

    const other = await browser.newContext({ timezoneId: "UTC", javaScriptEnabled: jsEnabled(testInfo) });
    await setClock(other, start);
    await giveAddress(await other.newPage(), baseURL!, declining, false);

    const leads = await rows<{ email: string; marketingConsent: number | boolean; answers: string }>(
      `SELECT "email", "marketingConsent", "answers" FROM "Lead" WHERE "email" IN (?, ?) ORDER BY "email"`,
      declining,
      consenting,
    );
    expect(leads.map((l) => [l.email, Boolean(l.marketingConsent)])).toEqual([
      [declining, false],
      [consenting, true],
    ]);
    expect(JSON.parse(leads[1].answers)).toMatchObject(ANSWERS);
    expect((await eventsFor(visitor)).filter((e) => e.name === "email_captured").map((e) => JSON.parse(e.props))).toEqual([{ consent: true }]);

    // (@instances: in the PostgreSQL stage two instances answer in turn, so the two racing runs
    // below land on different instances.)
    // 59 minutes: nothing. An hour (the address was given a few seconds after `start`, as the
    // clock runs on): one e-mail, although two runs race for it; none to the visitor who declined.
    await runRecovery(context.request, new Date(start.getTime() + 59 * 60_000));
    expect(await recoveryTo(consenting)).toHaveLength(0);
    const hourLater = new Date(start.getTime() + HOUR + 60_000);
    await Promise.all([runRecovery(context.request, hourLater), runRecovery(context.request, hourLater)]);
    await runRecovery(context.request, new Date(hourLater.getTime() + 60_000));
    await expect.poll(async () => (await recoveryTo(consenting)).length).toBe(1);
    const mails = await recoveryTo(consenting);
    expect(await recoveryTo(declining)).toHaveLength(0);
    const [mail] = mails;
    expect(mail.subject).toBe("Your plan is ready when you are");
    expect(mail.text).toContain("Your answers: oily skin, breakouts, large pores.");
    const unsubscribe = /Unsubscribe:\n(\S+)/.exec(mail.text)![1];
    expect(mail.headers?.["list-unsubscribe"]?.replace(/\s/g, "")).toBe(`<${unsubscribe}>`);
    expect(mail.headers?.["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");

    // Her mail app loads the e-mail's image (twice): one open. A forged image address is a 400 and counts nothing.
    const image = /<img\b[^>]*\bsrc="([^"]+)"/.exec(mail.html)![1].replace(/&amp;/g, "&");
    const loaded = await context.request.get(image);
    expect(loaded.status()).toBe(200);
    expect(loaded.headers()["content-type"]).toBe("image/gif");
    await context.request.get(image);
    expect((await context.request.get(image.replace(/sig=[^&]+/, "sig=forged"))).status()).toBe(400);
    expect((await eventsFor(visitor)).filter((e) => e.name === "recovery_opened").map((e) => JSON.parse(e.props).email)).toEqual(["1"]);

    // She follows it on another device: her own offer, for her answers; a tampered link is refused.
    const phone = await browser.newContext({ timezoneId: "UTC", javaScriptEnabled: jsEnabled(testInfo) });
    await setClock(phone, new Date(start.getTime() + 2 * HOUR));
    const phonePage = await phone.newPage();
    const back = buttonLink(mail, "See My Plan");
    const tampered = await phone.request.get(back.replace("e=1", "e=2"), { maxRedirects: 0 });
    expect(tampered.status()).toBe(400);
    const general = await planPreview(phonePage);
    expect(general).not.toEqual(original);
    await phonePage.goto(back);
    await expect(phonePage).toHaveURL("/subscribe");
    expect(await planPreview(phonePage)).toEqual(original);

    // She buys there.
    await phonePage.getByRole("button", { name: /Continue with Monthly/ }).click();
    await expect(phonePage).toHaveURL(/\/checkout\/test\//);
    await phonePage.getByLabel("E-mail").fill(consenting);
    await phonePage.getByRole("button", { name: "Complete test payment" }).click();
    await expect(phonePage.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();

    // No further recovery e-mail: not at 24 hours, not ever.
    await runRecovery(context.request, new Date(start.getTime() + 24 * HOUR));
    await runRecovery(context.request, new Date(start.getTime() + 72 * HOUR));
    expect(await recoveryTo(consenting)).toHaveLength(1);
    const phoneEvents = await eventsFor(await visitorId(phone));
    expect(phoneEvents.filter((e) => e.name === "recovery_clicked")).toHaveLength(1);
    const names = (await eventsFor(visitor)).map((e) => e.name);
    expect(names.filter((n) => n === "recovery_sent")).toHaveLength(1);
    expect(names.filter((n) => n === "recovery_purchased")).toHaveLength(1);
    await other.close();
    await phone.close();
  });

  test("a checkout started and not finished is reminded once, an hour later; one-click unsubscribe stops the rest", async ({
    page,
    context,
    baseURL,
  }, testInfo) => {
    const start = morning(7);
    const email = `recover-checkout-${testInfo.project.name}-${Date.now()}@glowcoach.test`;
    await setClock(context, start);
    await giveAddress(page, baseURL!, email, true);

    // Five minutes later she opens her offer and starts a checkout, then leaves.
    await setClock(context, new Date(start.getTime() + 5 * 60_000));
    await page.goto("/subscribe");
    await page.getByRole("button", { name: /Continue with Monthly/ }).click();
    await expect(page).toHaveURL(/\/checkout\/test\//);

    await runRecovery(context.request, new Date(start.getTime() + HOUR + 60_000));
    await expect.poll(async () => (await recoveryTo(email)).map((m) => m.subject)).toEqual(["Your plan is ready when you are"]);
    await Promise.all([
      runRecovery(context.request, new Date(start.getTime() + HOUR + 6 * 60_000)),
      runRecovery(context.request, new Date(start.getTime() + HOUR + 6 * 60_000)),
    ]);
    await runRecovery(context.request, new Date(start.getTime() + 2 * HOUR));
    const reminded = async () => (await recoveryTo(email)).filter((m) => m.subject === "You were one step away from your plan");
    await expect.poll(async () => (await reminded()).length).toBe(1);
    const reminders = await reminded();
    expect(reminders[0].text).toContain("You started checking out the Monthly Plan and didn't finish.");

    // The mail app's one-click POST (RFC 8058): no 24-hour e-mail after it.
    const unsubscribe = /Unsubscribe:\n(\S+)/.exec(reminders[0].text)![1];
    const oneClick = await context.request.post(unsubscribe, { form: { "List-Unsubscribe": "One-Click" }, headers: { Origin: "https://mail.example" } });
    expect(oneClick.status()).toBe(200);
    await runRecovery(context.request, new Date(start.getTime() + 25 * HOUR));
    expect(await recoveryTo(email)).toHaveLength(2);
  });
});
