/**
 * The one-tap offer in Stripe mode (ADR 45), through the real `stripe` SDK against the fake
 * Stripe API: one PaymentIntent however the taps overlap, a charge made by a server that died
 * before storing it is stored by the next tap (Stripe answers the same key with the same
 * PaymentIntent), and a bank asking for authentication gets one Checkout Session.
 */
import { afterAll, describe, expect, it } from "vitest";
import { startFakeStripeForApp, type FakeStripe } from "./fake-stripe";

const fake: FakeStripe = await startFakeStripeForApp("whsec_one_tap");

const { startCheckout } = await import("~/payments/checkout.server");
const { fulfilCheckout } = await import("~/payments/fulfilment.server");
const { buyOneTap } = await import("~/payments/one-tap.server");
const { oneTapCheckoutId, oneTapIdempotencyKey } = await import("~/payments/one-tap");
const { getOfferByPath } = await import("~/content/content.server");
const { entitlementsOf } = await import("~/billing/entitlements.server");
const { db } = await import("~/utils/db.server");
const { listMessages, mailboxDir } = await import("~/email/dev-mailbox.server");

afterAll(() => fake.close());

/** A paid Crease-Free checkout at (fake) Stripe, the card `card` saved with the buyer's agreement. */
async function paidWithSavedCard(visitorId: string, card: string) {
  const offer = (await getOfferByPath("/sales"))!;
  const started = await startCheckout({ offer, planId: "lifetime", user: null, visitorId, cookieHeader: null, saveCard: true });
  if (!started.ok) throw new Error(started.reason);
  expect(fake.checkoutRequests.at(-1)).toMatchObject({ mode: "payment", "payment_intent_data[setup_future_usage]": "off_session" });
  const id = started.url.split("/").pop()!;
  const email = `${visitorId}-${Date.now()}@example.com`;
  fake.paymentIntents.set(`pi_${id}`, {
    id: `pi_${id}`,
    object: "payment_intent",
    amount: 2999,
    currency: "usd",
    customer: `cus_${id}`,
    payment_method: card,
    status: "succeeded",
    metadata: {},
  });
  Object.assign(fake.sessions.get(id)!, { status: "complete", payment_status: "paid", customer: `cus_${id}`, payment_intent: `pi_${id}` });
  const { userId } = await fulfilCheckout({
    checkoutSessionId: id,
    email,
    offerId: "crease-free",
    planId: "lifetime",
    at: new Date(),
    customerId: `cus_${id}`,
    paymentIntentId: `pi_${id}`,
  });
  return { id, email, userId };
}

const chargesFor = (purchaseId: string) => [...fake.paymentIntents.values()].filter((pi) => pi.metadata.follows === purchaseId);
const receiptsTo = async (email: string) =>
  (await listMessages(mailboxDir(process.env.DATA_DIR!), 1000)).filter((m) => m.to === email && m.subject.startsWith("Your receipt"));

describe("one tap in Stripe mode", () => {
  it("overlapping taps make one PaymentIntent on the saved card, and one purchase", async () => {
    const bought = await paidWithSavedCard("visitor-stripe-tap", "pm_card_visa");
    const taps = await Promise.all([1, 2, 3].map(() => buyOneTap({ purchaseId: bought.id, visitorId: "visitor-stripe-tap" })));
    for (const tap of taps) expect(tap).toEqual({ go: `/payment-success?session_id=${bought.id}`, cookies: [] });
    const [charge] = chargesFor(bought.id);
    expect(chargesFor(bought.id)).toHaveLength(1);
    expect(charge).toMatchObject({ amount: 1900, customer: `cus_${bought.id}`, payment_method: "pm_card_visa", status: "succeeded" });
    const sent = fake.paymentIntentRequests.filter((r) => r.fields["metadata[follows]"] === bought.id);
    expect(new Set(sent.map((r) => r.idempotencyKey))).toEqual(
      new Set([oneTapIdempotencyKey(oneTapCheckoutId(bought.id, { offerId: "makeup-prep", planId: "lifetime" }), "charge")]),
    );
    expect(sent[0].fields).toMatchObject({ off_session: "true", confirm: "true" });
    const prep = (await entitlementsOf(bought.userId)).find((e) => e.routinePlanId === "makeup-prep")!;
    expect(prep).toMatchObject({ tier: "single_payment", subscribed: true });
    expect((await db.entitlement.findUniqueOrThrow({ where: { id: prep.id } })).stripePaymentIntentId).toBe(charge.id);
    expect(await receiptsTo(bought.email)).toHaveLength(1);
    // A real charge keeps the real wording.
    expect((await receiptsTo(bought.email))[0]).toMatchObject({ subject: "Your receipt: Makeup Prep, $19" });
    expect((await receiptsTo(bought.email))[0].text).toContain(
      "We charged $19 for your Makeup Prep Plan (a one-time payment) to the card you used at checkout.",
    );
  });

  it("a charge a dead server never stored is stored by the next tap, never charged again", async () => {
    const bought = await paidWithSavedCard("visitor-stripe-died", "pm_card_visa");
    const oneTapId = oneTapCheckoutId(bought.id, { offerId: "makeup-prep", planId: "lifetime" });
    // The earlier tap's request reached Stripe; its server died before the row was stored.
    const response = await fetch(`http://127.0.0.1:${fake.port}/v1/payment_intents`, {
      method: "POST",
      headers: {
        Authorization: "Bearer sk_test_fake",
        "Idempotency-Key": oneTapIdempotencyKey(oneTapId, "charge"),
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({
        amount: "1900",
        currency: "usd",
        customer: `cus_${bought.id}`,
        payment_method: "pm_card_visa",
        off_session: "true",
        confirm: "true",
        "metadata[follows]": bought.id,
      }),
    });
    const earlier = (await response.json()) as { id: string };
    expect(await buyOneTap({ purchaseId: bought.id, visitorId: "visitor-stripe-died" })).toMatchObject({ go: `/payment-success?session_id=${bought.id}` });
    expect(chargesFor(bought.id).map((pi) => pi.id)).toEqual([earlier.id]);
    const prep = (await entitlementsOf(bought.userId)).find((e) => e.routinePlanId === "makeup-prep")!;
    expect((await db.entitlement.findUniqueOrThrow({ where: { id: prep.id } })).stripePaymentIntentId).toBe(earlier.id);
  });

  it("a bank asking for authentication: one Checkout Session for the one-tap price, nothing stored before it is paid", async () => {
    fake.cardsNeedingAuthentication.add("pm_card_authenticationRequired");
    const bought = await paidWithSavedCard("visitor-stripe-3ds", "pm_card_authenticationRequired");
    const first = await buyOneTap({ purchaseId: bought.id, visitorId: "visitor-stripe-3ds" });
    const second = await buyOneTap({ purchaseId: bought.id, visitorId: "visitor-stripe-3ds" });
    expect(first).toMatchObject({ go: expect.stringMatching(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/) });
    expect(second).toEqual(first);
    expect(fake.checkoutRequests.at(-1)).toMatchObject({ mode: "payment", customer: `cus_${bought.id}`, "line_items[0][price_data][unit_amount]": "1900" });
    const confirmId = (first as { go: string }).go.split("/").pop()!;
    expect(await db.checkoutSession.findUniqueOrThrow({ where: { id: confirmId } })).toMatchObject({
      status: "open",
      amountMinor: 1900,
      followsCheckoutId: bought.id,
    });
    expect((await entitlementsOf(bought.userId)).map((e) => e.routinePlanId)).toEqual(["crease-free"]);
    expect(await receiptsTo(bought.email)).toHaveLength(0);
  });

  it("another browser's tap is nobody's: nothing asked of Stripe", async () => {
    const bought = await paidWithSavedCard("visitor-stripe-owner", "pm_card_visa");
    const before = fake.paymentIntentRequests.length;
    expect(await buyOneTap({ purchaseId: bought.id, visitorId: "someone-else" })).toBeNull();
    expect(await buyOneTap({ purchaseId: "cs_test_doesnotexist", visitorId: "visitor-stripe-owner" })).toBeNull();
    expect(fake.paymentIntentRequests.length).toBe(before);
  });
});
