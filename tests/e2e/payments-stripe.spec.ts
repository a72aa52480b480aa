/**
 * Stripe mode in a browser: a production server started with STRIPE_SECRET_KEY and the Stripe
 * SDK pointed at a local fake API; Stripe's hosted pages are stood in for by route stubs, and
 * its webhooks are sent signed, as Stripe would.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import Stripe from "stripe";
import { expect, test, type BrowserContext } from "@playwright/test";
import { startFakeStripe, type FakeStripe } from "../unit/fake-stripe";
import { entitlementsOf, userIdOf } from "./members-helpers";
import { takeQuiz } from "./quiz-helpers";
import { hydrated, jsEnabled } from "./support";
import { CHROMIUM_ARGS, fullChromiumPath } from "../../scripts/e2e-browser.mjs";

// The full browser: the headless shell does not let a test stand in for a site the server
// redirects to (Stripe's hosted pages below); the redirect fails with ERR_NAME_NOT_RESOLVED.
test.use({ launchOptions: { executablePath: fullChromiumPath(), args: CHROMIUM_ARGS } });

const WEBHOOK_SECRET = "whsec_e2e_secret";
const signer = new Stripe("sk_test_fake", { telemetry: false });

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The e-mails to `to` in the server's dev mailbox (this server has no SMTP), newest first. */
function mailboxOf(dataDir: string, to: string): { to: string; subject: string; text: string }[] {
  const dir = path.join(dataDir, "mailbox");
  return fs
    .readdirSync(dir)
    .sort()
    .reverse()
    .map((name) => JSON.parse(fs.readFileSync(path.join(dir, name), "utf8")) as { to: string; subject: string; text: string })
    .filter((message) => message.to === to);
}

/** The code in the newest e-mail to `to` in the server's dev mailbox. */
function codeInMailbox(dataDir: string, to: string): string {
  const dir = path.join(dataDir, "mailbox");
  const text = mailboxOf(dataDir, to)[0]?.text ?? "";
  const code = /sign-in page:\s*([A-Z0-9]{6})/.exec(text)?.[1];
  if (!code) throw new Error(`no sign-in code for ${to} in ${dir}`);
  return code;
}

async function startStripeModeServer(fake: FakeStripe): Promise<{ base: string; child: ChildProcess; dataDir: string }> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "glow-stripe-e2e-"));
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      APP_ENV: "local",
      STRIPE_SECRET_KEY: "sk_test_fake",
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_HOST: "127.0.0.1",
      STRIPE_API_PORT: String(fake.port),
      STRIPE_API_PROTOCOL: "http",
      // Refund windows are checked on a moved clock (X-Test-Clock-Offset-Ms).
      TEST_CLOCK: "1",
    },
    stdio: "ignore",
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(`${base}/`)).ok) return { base, child, dataDir };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill();
  throw new Error("the Stripe-mode server did not start");
}

function webhook(base: string, type: string, object: Record<string, unknown>, secret = WEBHOOK_SECRET, secondsLater = 0) {
  const payload = JSON.stringify({
    id: `evt_${Math.random().toString(36).slice(2)}`,
    object: "event",
    type,
    created: Math.floor(Date.now() / 1000) + secondsLater,
    data: { object },
  });
  return fetch(`${base}/webhooks/stripe`, {
    method: "POST",
    body: payload,
    headers: { "Content-Type": "application/json", "Stripe-Signature": signer.webhooks.generateTestHeaderString({ payload, secret }) },
  });
}

test("Stripe mode: offer → Stripe Checkout → signed webhooks → payment success → billing portal @no-js", async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const fake = await startFakeStripe();
  const { base, child, dataDir } = await startStripeModeServer(fake);
  try {
    // Stand-ins for Stripe's hosted pages.
    await page.route("https://checkout.stripe.com/**", (route) => route.fulfill({ contentType: "text/html", body: "<h1>Stripe Checkout (fake)</h1>" }));
    await page.route("https://billing.stripe.com/**", (route) => route.fulfill({ contentType: "text/html", body: "<h1>Stripe customer portal (fake)</h1>" }));

    await page.goto(`${base}/subscribe`);
    await page.getByRole("article", { name: "Annual Plan" }).getByRole("button", { name: "Unlock My Clear Skin Plan - $59/year" }).click();
    await expect(page).toHaveURL(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/, { timeout: 15_000 });
    await expect(page.getByRole("heading", { name: "Stripe Checkout (fake)" })).toBeVisible();
    const sent = fake.checkoutRequests.at(-1)!;
    expect(sent).toMatchObject({
      mode: "subscription",
      "line_items[0][price_data][unit_amount]": "5900",
      "line_items[0][price_data][recurring][interval]": "year",
      cancel_url: `${base}/subscribe`,
    });
    const sessionId = page.url().split("/").pop()!;

    // The buyer pays at Stripe; Stripe sends its events (one forged copy is refused).
    const email = `stripe-${testInfo.project.name}-${Date.now()}@example.com`;
    const session = fake.sessions.get(sessionId)!;
    Object.assign(session, {
      status: "complete",
      payment_status: "paid",
      customer: `cus_${sessionId}`,
      subscription: `sub_${sessionId}`,
      customer_details: { email },
    });
    fake.customers.set(`cus_${sessionId}`, { id: `cus_${sessionId}`, object: "customer", email });
    expect((await webhook(base, "checkout.session.completed", session as never, "whsec_forged")).status).toBe(400);
    // Paid two days ago (the event's time is the purchase's), so the refund window can be seen
    // ending below while the sign-in (30 days) still holds.
    expect((await webhook(base, "checkout.session.completed", session as never, WEBHOOK_SECRET, -2 * 86_400)).status).toBe(200);
    const periodEnd = Math.floor(Date.now() / 1000) + 365 * 86400;
    const subscription = {
      id: `sub_${sessionId}`,
      object: "subscription",
      customer: `cus_${sessionId}`,
      status: "active",
      cancel_at_period_end: false,
      start_date: Math.floor(Date.now() / 1000),
      items: { data: [{ current_period_end: periodEnd, price: { unit_amount: 5900, currency: "usd", recurring: { interval: "year" } } }] },
      metadata: session.metadata,
    };
    expect((await webhook(base, "customer.subscription.created", subscription)).status).toBe(200);

    // Stripe sends the browser back to success_url.
    await page.goto(session.success_url.replace("{CHECKOUT_SESSION_ID}", sessionId));
    await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();
    await expect(page.getByText("Your Clear & Healthy Skin subscription is active. We're sending you access details via email.")).toBeVisible();
    await expect(page.getByLabel(`Account menu for ${email}`)).toBeVisible();

    // The billing portal belongs to the account: confirm the address first, with the e-mail's code.
    await page.goto(`${base}/login/check-email`);
    await page.getByLabel(/Enter the code/).fill(codeInMailbox(dataDir, email));
    await page.getByRole("button", { name: "Sign in with code" }).click();
    await expect(page).toHaveURL(`${base}/home`);

    // 'Manage Subscription' goes to Stripe's customer portal, returning to /profile.
    const portal = await page.request.post(`${base}/billing/portal`, { form: {}, maxRedirects: 0 });
    expect(portal.status()).toBe(303);
    expect(portal.headers().location).toMatch(/^https:\/\/billing\.stripe\.com\//);
    expect(fake.portalRequests.at(-1)).toEqual({ customer: `cus_${sessionId}`, return_url: `${base}/profile` });

    // The annual member chooses Monthly on the offer page: no checkout, but the switch page,
    // which shows Stripe's preview of what happens to the $59 already paid before anything changes.
    fake.subscriptions.set(`sub_${sessionId}`, {
      id: `sub_${sessionId}`,
      object: "subscription",
      customer: `cus_${sessionId}`,
      items: {
        object: "list",
        data: [
          { id: `si_${sessionId}`, price: subscription.items.data[0].price, current_period_start: subscription.start_date, current_period_end: periodEnd },
        ],
      },
    });
    const checkoutsBefore = fake.checkoutRequests.length;
    await page.goto(`${base}/subscribe`);
    await expect(page.getByText("You already have the Annual plan")).toBeVisible();
    await page.getByRole("article", { name: "Monthly Plan" }).getByRole("button", { name: "Switch to Monthly Plan" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Change plan" })).toBeVisible();
    const preview = fake.previewRequests.at(-1)!;
    expect(preview).toMatchObject({
      customer: `cus_${sessionId}`,
      subscription: `sub_${sessionId}`,
      "subscription_details[items][0][id]": `si_${sessionId}`,
      "subscription_details[proration_behavior]": "create_prorations",
    });
    const monthly = fake.prices.get(preview["subscription_details[items][0][price]"])!;
    expect(monthly).toMatchObject({ unit_amount: 999, recurring: { interval: "month" } });
    await expect(page.getByText(/^The unused time on your Annual Plan is worth \$5[89](\.\d\d)?: it becomes a credit on your account\.$/)).toBeVisible();
    await expect(
      page.getByText("Your first period of the Monthly Plan ($9.99) is paid from that credit today: nothing is charged to your card."),
    ).toBeVisible();
    await expect(
      page.getByText(/^The \$4[89]\.\d\d of credit left pays your next bills before your card is charged again\. Nothing is refunded to your card\.$/),
    ).toBeVisible();
    await expect(page.getByRole("definition").filter({ hasText: /^\$0$/ })).toBeVisible();
    const creditLine = (await page.getByText(/^The unused time on your Annual Plan/).textContent())!;
    await page.getByRole("button", { name: "Switch to Monthly Plan" }).click();
    await expect(page).toHaveURL(`${base}/profile`);
    // Made at Stripe at the moment the preview was priced, so it costs what the page said.
    expect(fake.subscriptionUpdates.at(-1)).toMatchObject({
      id: `sub_${sessionId}`,
      fields: { "items[0][id]": `si_${sessionId}`, "items[0][price]": monthly.id, proration_date: preview["subscription_details[proration_date]"] },
    });
    const switchMail = mailboxOf(dataDir, email).find((m) => m.subject === "You're now on the Monthly Plan");
    expect(switchMail?.text).toContain(creditLine);
    // Stripe tells us about the same subscription's change too.
    const switched = {
      ...subscription,
      items: {
        data: [
          {
            id: `si_${sessionId}`,
            current_period_end: periodEnd,
            price: { id: monthly.id, unit_amount: 999, currency: "usd", recurring: { interval: "month" }, metadata: monthly.metadata },
          },
        ],
      },
    };
    expect((await webhook(base, "customer.subscription.updated", switched, WEBHOOK_SECRET, 5)).status).toBe(200);
    const owned = await entitlementsOf(await userIdOf(email, dataDir), dataDir);
    expect(owned).toHaveLength(1);
    expect(owned.filter((e) => e.status === "active")).toHaveLength(1);
    expect(owned[0]).toMatchObject({ tier: "monthly", planId: "monthly", priceMinor: 999 });
    // The purchase (and Stripe's word on its period) stays in the history under the switch.
    expect(owned[0].states).toBeGreaterThanOrEqual(2);
    expect(fake.checkoutRequests.length).toBe(checkoutsBefore);
    await page.goto(`${base}/subscribe`);
    await expect(page.getByText("You already have the Monthly plan")).toBeVisible();

    // The refund the offer promised: 30 days from the annual purchase, whatever plan it is on now.
    // Twenty-nine days on (31 days after the purchase) the window has ended: no button, and a forged request reaches no refund.
    await page.setExtraHTTPHeaders({ "X-Test-Clock-Offset-Ms": String(29 * 86_400_000) });
    await page.goto(`${base}/profile`);
    await expect(page.getByText(/^The 30-day refund window ended on \w+ \d+, \d{4}\.$/)).toBeVisible();
    await expect(page.getByRole("link", { name: "Request a refund" })).toHaveCount(0);
    const late = await page.request.post(`${base}/billing/refund`, {
      form: { entitlement: owned[0].id },
      maxRedirects: 0,
      headers: { "X-Test-Clock-Offset-Ms": String(29 * 86_400_000) },
    });
    expect(late.status()).toBe(403);
    expect(fake.refundRequests).toHaveLength(0);
    await page.setExtraHTTPHeaders({});

    // Inside it: the $59 payment is refunded at Stripe (once, by key) and the subscription ends.
    fake.invoicePayments.set(`in_${sessionId}`, `pi_${sessionId}`);
    session.invoice = `in_${sessionId}`;
    await page.goto(`${base}/profile`);
    await page.getByRole("link", { name: "Request a refund" }).click();
    await expect(page.getByText("Test mode — no real charge")).toHaveCount(0);
    await page.getByRole("button", { name: "Refund $59 and end my access" }).click();
    await expect(page).toHaveURL(`${base}/profile`);
    await expect(page.getByText(/^Refunded \$59 on \w+ \d+, \d{4}\.$/)).toBeVisible();
    expect(fake.refundRequests).toHaveLength(1);
    expect(fake.refundRequests[0]).toMatchObject({
      fields: { payment_intent: `pi_${sessionId}`, amount: "5900", reason: "requested_by_customer" },
      idempotencyKey: `glowcoach-refund-${owned[0].id}`,
    });
    expect(fake.cancelledSubscriptions.map((c) => c.id)).toEqual([`sub_${sessionId}`]);
    expect(mailboxOf(dataDir, email).find((m) => m.subject === "Your refund of $59")?.text).toContain("Your access to Clear & Healthy Skin has ended.");
    const again = await page.request.post(`${base}/billing/refund`, { form: { entitlement: owned[0].id }, maxRedirects: 0 });
    expect(again.status()).toBe(409);
    expect(fake.refundRequests).toHaveLength(1);
    // Stripe's own news about the cancelled subscription arrives: the refund stays the last word.
    expect((await webhook(base, "customer.subscription.deleted", { ...switched, status: "canceled" }, WEBHOOK_SECRET, 10)).status).toBe(200);
    expect(await entitlementsOf(await userIdOf(email, dataDir), dataDir)).toMatchObject([{ id: owned[0].id, status: "refunded" }]);
    await page.goto(`${base}/subscribe`);
    await expect(page.getByText("You already have the Monthly plan")).toHaveCount(0);

    if (jsEnabled(testInfo)) {
      // A checkout Stripe refuses: the catalogue's toast, and the page stays.
      await page.goto(`${base}/sales`);
      await hydrated(page, testInfo); // the toast is the client's answer
      fake.failNextCheckout = true;
      await page.getByRole("button", { name: "Get My Personalized Routine" }).click();
      await expect(page.getByRole("alert").filter({ hasText: "Checkout Error" })).toContainText(
        "There was a problem starting your checkout. Please try again.",
      );
      await expect(page).toHaveURL(`${base}/sales`);
    }
  } finally {
    child.kill("SIGTERM");
    await fake.close();
  }
});

test("Stripe mode: the one-tap offer charges the saved card once, and asks for authentication at Checkout when the bank wants it @no-js", async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000);
  const fake = await startFakeStripe();
  const { base, child, dataDir } = await startStripeModeServer(fake);
  try {
    await page.route("https://checkout.stripe.com/**", (route) => route.fulfill({ contentType: "text/html", body: "<h1>Stripe Checkout (fake)</h1>" }));

    /** A Crease-Free purchase at Stripe with the card saved for the one-tap offer; back on /payment-success. */
    const buyWithSavedCard = async (email: string, card: string) => {
      await page.goto(`${base}/sales`);
      const plan = page.getByRole("article", { name: "Crease-Free Makeup Routine" });
      await plan.getByRole("checkbox", { name: /^Save my card for a one-tap offer/ }).check();
      await plan.getByRole("button", { name: "Get My Personalized Routine" }).click();
      await expect(page).toHaveURL(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/, { timeout: 15_000 });
      // The agreement asks Stripe to keep the card for charges without the buyer present.
      expect(fake.checkoutRequests.at(-1)).toMatchObject({
        mode: "payment",
        "payment_intent_data[setup_future_usage]": "off_session",
        customer_creation: "always",
      });
      const sessionId = page.url().split("/").pop()!;
      const session = fake.sessions.get(sessionId)!;
      fake.paymentIntents.set(`pi_${sessionId}`, {
        id: `pi_${sessionId}`,
        object: "payment_intent",
        amount: 2999,
        currency: "usd",
        customer: `cus_${sessionId}`,
        payment_method: card,
        status: "succeeded",
        metadata: session.metadata,
      });
      Object.assign(session, {
        status: "complete",
        payment_status: "paid",
        customer: `cus_${sessionId}`,
        payment_intent: `pi_${sessionId}`,
        customer_details: { email },
      });
      expect((await webhook(base, "checkout.session.completed", session as never)).status).toBe(200);
      const successUrl = session.success_url.replace("{CHECKOUT_SESSION_ID}", sessionId);
      await page.goto(successUrl);
      await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();
      return { sessionId, successUrl };
    };
    const receipts = (email: string) =>
      (fs.existsSync(path.join(dataDir, "mailbox")) ? mailboxOf(dataDir, email) : []).filter((m) => m.subject.startsWith("Your receipt"));

    // The card charges: a double tap, the button, and a resent post make one PaymentIntent.
    const email = `one-tap-stripe-${testInfo.project.name}-${Date.now()}@example.com`;
    const first = await buyWithSavedCard(email, "pm_card_visa");
    await expect(page.getByRole("region", { name: "Add Makeup Prep for $19" })).toBeVisible();
    const taps = await Promise.all([1, 2].map(() => page.request.post(first.successUrl, { form: { intent: "one-tap" }, maxRedirects: 0 })));
    expect(taps.map((tap) => tap.status())).toEqual([303, 303]);
    await page.getByRole("button", { name: "Add Makeup Prep - $19" }).click();
    await expect(page.getByRole("region", { name: "Makeup Prep Plan added" })).toBeVisible();
    await page.reload();
    await expect(page.getByRole("region", { name: "Makeup Prep Plan added" })).toBeVisible();
    const charges = fake.paymentIntentRequests.filter((r) => r.fields["metadata[follows]"] === first.sessionId);
    // A tap that finds the purchase stored asks nothing of Stripe; those that overlap send the same key.
    expect(charges.length).toBeGreaterThanOrEqual(1);
    expect(new Set(charges.map((r) => r.idempotencyKey)).size).toBe(1);
    expect(charges[0].fields).toMatchObject({
      amount: "1900",
      currency: "usd",
      customer: `cus_${first.sessionId}`,
      payment_method: "pm_card_visa",
      off_session: "true",
      confirm: "true",
    });
    expect([...fake.paymentIntents.values()].filter((pi) => pi.metadata.follows === first.sessionId)).toHaveLength(1);
    await expect.poll(() => receipts(email).map((m) => m.subject)).toEqual(["Your receipt: Makeup Prep, $19"]);

    // A bank that wants the buyer present: Stripe Checkout for the one-tap price, on the same customer.
    const strict = `one-tap-3ds-${testInfo.project.name}-${Date.now()}@example.com`;
    fake.cardsNeedingAuthentication.add("pm_card_authenticationRequired");
    // Another buyer, in a browser of their own (this one holds the first buyer's purchase session).
    await page.context().clearCookies();
    const second = await buyWithSavedCard(strict, "pm_card_authenticationRequired");
    const checkoutsBefore = new Set(fake.sessions.keys());
    await page.getByRole("button", { name: "Add Makeup Prep - $19" }).click();
    await expect(page).toHaveURL(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/, { timeout: 15_000 });
    const confirmId = page.url().split("/").pop()!;
    expect(checkoutsBefore.has(confirmId)).toBe(false);
    expect(fake.checkoutRequests.at(-1)).toMatchObject({
      mode: "payment",
      customer: `cus_${second.sessionId}`,
      "line_items[0][price_data][unit_amount]": "1900",
    });
    // Tapping again meanwhile opens the same Checkout, never a second one.
    const again = await page.request.post(second.successUrl, { form: { intent: "one-tap" }, maxRedirects: 0 });
    expect(again.headers().location).toBe(`https://checkout.stripe.com/c/pay/${confirmId}`);
    expect(receipts(strict)).toHaveLength(0);

    const confirm = fake.sessions.get(confirmId)!;
    Object.assign(confirm, { status: "complete", payment_status: "paid", customer: `cus_${second.sessionId}`, customer_details: { email: strict } });
    expect((await webhook(base, "checkout.session.completed", confirm as never)).status).toBe(200);
    await page.goto(confirm.success_url.replace("{CHECKOUT_SESSION_ID}", confirmId));
    await expect(page.getByText("Your Makeup Prep routine is now active with lifetime access!", { exact: false })).toBeVisible();
    await expect.poll(() => receipts(strict).length).toBe(1);
    await page.goto(second.successUrl);
    await expect(page.getByRole("button", { name: "Add Makeup Prep - $19" })).toHaveCount(0);
  } finally {
    child.kill("SIGTERM");
    await fake.close();
  }
});

/** An IANA zone where it is about noon now, so an e-mail due now goes now (never held for the morning). */
function zoneAtNoon(): string {
  const hours = (((12 - new Date().getUTCHours()) % 24) + 24) % 24;
  const ahead = hours > 12 ? hours - 24 : hours;
  // Etc/GMT-5 is five hours ahead of UTC (the sign is POSIX's).
  return ahead === 0 ? "Etc/GMT" : ahead > 0 ? `Etc/GMT-${ahead}` : `Etc/GMT+${-ahead}`;
}

test("Stripe mode: a checkout left unfinished by a visitor who agreed to e-mails is reminded once; read on her phone, the link reopens it there, and she is the buyer there", async ({
  browser,
}, testInfo) => {
  test.setTimeout(90_000);
  const fake = await startFakeStripe();
  const { base, child, dataDir } = await startStripeModeServer(fake);
  const context = await browser.newContext({ timezoneId: zoneAtNoon(), baseURL: base });
  let phoneContext: BrowserContext | undefined;
  try {
    const page = await context.newPage();
    await page.route("https://checkout.stripe.com/**", (route) => route.fulfill({ contentType: "text/html", body: "<h1>Stripe Checkout (fake)</h1>" }));
    const email = `stripe-recovery-${testInfo.project.name}-${Date.now()}@example.com`;
    await takeQuiz(page, base, "/quiz", { skinType: "oily", mainConcern: ["acne"] }, { openStep: "email" });
    await page.getByLabel("Your e-mail address").fill(email);
    await page.getByRole("checkbox", { name: /send me skincare tips and offers/ }).check();
    await page.getByRole("button", { name: "Show My Results" }).click();
    await expect(page).toHaveURL(`${base}/quiz/14`);

    await page.goto(`${base}/subscribe`);
    await page.getByRole("button", { name: /Continue with Monthly/ }).click();
    await expect(page).toHaveURL(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/, { timeout: 15_000 });
    const sessionId = page.url().split("/").pop()!;
    // Consent given: Stripe keeps a recovery link, and expires the session after the quiz's hour.
    const asked = fake.checkoutRequests.at(-1)!;
    expect(asked["after_expiration[recovery][enabled]"]).toBe("true");
    expect(Number(asked.expires_at) - fake.sessions.get(sessionId)!.created).toBeGreaterThan(3500);

    // She leaves; Stripe expires the session and says so, twice (a retried delivery).
    const expired = fake.expire(sessionId);
    const payload = JSON.stringify({
      id: `evt_${sessionId}`,
      object: "event",
      type: "checkout.session.expired",
      created: Math.floor(Date.now() / 1000),
      data: { object: expired },
    });
    for (let i = 0; i < 2; i++) {
      const answer = await fetch(`${base}/webhooks/stripe`, {
        method: "POST",
        body: payload,
        headers: { "Content-Type": "application/json", "Stripe-Signature": signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }) },
      });
      expect(answer.status).toBe(200);
    }
    const reminders = () =>
      (fs.existsSync(path.join(dataDir, "mailbox")) ? mailboxOf(dataDir, email) : []).filter((m) => m.subject === "You were one step away from your plan");
    for (let i = 0; i < 2; i++) expect((await context.request.post(`${base}/test/reminders`, { headers: { Origin: base } })).status()).toBe(200);
    await expect.poll(() => reminders().length).toBe(1);
    expect((await context.request.post(`${base}/test/reminders`, { headers: { Origin: base } })).status()).toBe(200);
    expect(reminders()).toHaveLength(1);

    // She reads it on her phone: the link is ours, and goes on to Stripe's recovery link.
    const seeMyPlan = /See My Plan:\n(\S+)/.exec(reminders()[0].text)![1];
    expect(seeMyPlan.startsWith(`${base}/subscribe?`)).toBe(true);
    const phone = await browser.newContext({ baseURL: base, viewport: { width: 390, height: 844 } });
    phoneContext = phone;
    const onPhone = await phone.newPage();
    // Followed through the phone's own cookie jar: Playwright's routes do not catch a redirect's
    // next request, and Stripe's page is not here to load.
    const followed = await phone.request.get(seeMyPlan, { maxRedirects: 0 });
    expect(followed.status()).toBe(303);
    expect(followed.headers().location).toBe(expired.after_expiration!.recovery.url);
    // She pays there, and Stripe sends the phone back to the success page: the purchase is hers
    // here, and the sign-in e-mail goes to the address she paid with.
    const recovered = fake.recover(expired.after_expiration!.recovery.url!);
    const buyer = `phone-${email}`;
    Object.assign(recovered, { status: "complete", payment_status: "paid", customer: `cus_${recovered.id}`, customer_details: { email: buyer } });
    await onPhone.goto(recovered.success_url.replace("{CHECKOUT_SESSION_ID}", recovered.id));
    await expect(onPhone.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();
    await expect.poll(() => mailboxOf(dataDir, buyer).length).toBe(1);
    expect(codeInMailbox(dataDir, buyer)).toMatch(/^[A-Z0-9]{6}$/);
    // The browser that started the checkout is still the buyer's too; nobody else's is.
    await page.goto(`${base}/payment-success?session_id=${recovered.id}`);
    await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();
    const stranger = await browser.newContext({ baseURL: base });
    const strangerPage = await stranger.newPage();
    expect((await strangerPage.goto(`${base}/payment-success?session_id=${recovered.id}`))!.status()).toBe(404);
    await stranger.close();
    expect(mailboxOf(dataDir, buyer)).toHaveLength(1);
  } finally {
    await phoneContext?.close();
    await context.close();
    child.kill("SIGTERM");
    await fake.close();
  }
});
