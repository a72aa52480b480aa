/**
 * The one-tap offer after a purchase (ADR 45), on the local test checkout: what decides that a
 * tap charges once (the ids), and what a tap stores (an entitlement with history, one
 * 'purchase', one 'upsell_bought', one receipt), however often it is pressed.
 */
import { describe, expect, it } from "vitest";
import { entitlementHistory, entitlementsOf } from "~/billing/entitlements.server";
import { getOfferByDocumentId, getOfferByPath } from "~/content/content.server";
import { listMessages, mailboxDir } from "~/email/dev-mailbox.server";
import { startCheckout } from "~/payments/checkout.server";
import { cancelLocalCheckout, completeLocalCheckout, openLocalCheckout } from "~/payments/local-checkout.server";
import { oneTapCheckoutId, oneTapIdempotencyKey, pricedOneTap } from "~/payments/one-tap";
import { buyOneTap, oneTapOfferAfter } from "~/payments/one-tap.server";
import { db } from "~/utils/db.server";
import type { TestCard } from "~/payments/one-tap";

const MAKEUP_PREP = { offerId: "makeup-prep", planId: "lifetime" };

/** A paid skincare purchase on the local test checkout; `saveCard`: the offer page's box. */
async function purchase(visitorId: string, options: { saveCard: boolean; testCard?: TestCard }) {
  const offer = (await getOfferByPath("/subscribe"))!;
  const started = await startCheckout({ offer, planId: "monthly", user: null, visitorId, cookieHeader: null, saveCard: options.saveCard });
  if (!started.ok) throw new Error(started.reason);
  const id = started.url.split("/").pop()!;
  const email = `${visitorId}-${Date.now()}@example.com`;
  await completeLocalCheckout({ id, visitorId, user: null, email, testCard: options.testCard });
  const row = (await db.checkoutSession.findUnique({ where: { id } }))!;
  return { id, email, row, userId: row.userId! };
}

async function receiptsTo(email: string) {
  return (await listMessages(mailboxDir(process.env.DATA_DIR!), 1000)).filter((m) => m.to === email && m.subject.startsWith("Your receipt"));
}

describe("one-tap ids", () => {
  it("name one purchase for good: the same for every tap, different for another purchase or plan", () => {
    const first = oneTapCheckoutId("cs_test_abc12345", MAKEUP_PREP);
    expect(oneTapCheckoutId("cs_test_abc12345", MAKEUP_PREP)).toBe(first);
    expect(oneTapCheckoutId("cs_test_abc12346", MAKEUP_PREP)).not.toBe(first);
    expect(oneTapCheckoutId("cs_test_abc12345", { ...MAKEUP_PREP, planId: "other" })).not.toBe(first);
    expect(first).toMatch(/^cs_onetap_[A-Za-z0-9_-]{32}$/);
    // A local purchase's one-tap checkout is a local test checkout (authentication completes there).
    expect(oneTapCheckoutId("cs_local_abcdefghijkl", MAKEUP_PREP)).toMatch(/^cs_local_onetap_[A-Za-z0-9_-]{32}$/);
    expect(oneTapIdempotencyKey(first, "charge")).not.toBe(oneTapIdempotencyKey(first, "checkout"));
  });

  it("sell a one-time plan at the one-tap price, never a subscription", async () => {
    const target = (await getOfferByDocumentId("offer-makeup-prep"))!;
    const config = (await getOfferByPath("/subscribe"))!.oneTapOffer!;
    expect(pricedOneTap(config, target)).toMatchObject({ offerId: "makeup-prep", planId: "lifetime", tier: "single_payment", amountMinor: 1900 });
    const skincare = (await getOfferByPath("/subscribe"))!;
    expect(pricedOneTap({ ...config, planId: "monthly" }, skincare)).toBeNull();
    expect(pricedOneTap({ ...config, planId: "nope" }, target)).toBeNull();
  });
});

describe("one tap on the local test checkout", () => {
  it("is offered only after the buyer agreed to keep the card, and refused without storing anything otherwise", async () => {
    const bought = await purchase("visitor-tap-no-consent", { saveCard: false });
    expect(bought.row).toMatchObject({ status: "complete", saveCardAgreed: false, testCard: null });
    expect(await oneTapOfferAfter(bought.row)).toBeNull();
    const before = await db.checkoutSession.count();
    expect(await buyOneTap({ purchaseId: bought.id, visitorId: "visitor-tap-no-consent" })).toMatchObject({ refused: true, status: 409 });
    expect(await db.checkoutSession.count()).toBe(before);
    expect((await entitlementsOf(bought.userId)).map((e) => e.offerId)).toEqual(["skincare"]);
  });

  it("charges once on a double tap and a reload: one entitlement with history, one purchase, one receipt", async () => {
    const bought = await purchase("visitor-tap-twice", { saveCard: true, testCard: "approves" });
    expect(bought.row).toMatchObject({ saveCardAgreed: true, testCard: "approves" });
    expect(await oneTapOfferAfter(bought.row)).toMatchObject({
      state: "offer",
      headline: "Add Makeup Prep for $19",
      buttonLabel: "Add Makeup Prep - $19",
      price: "$19",
    });
    // Someone else's browser cannot tap it.
    expect(await buyOneTap({ purchaseId: bought.id, visitorId: "stranger" })).toBeNull();

    const taps = await Promise.all([1, 2, 3].map(() => buyOneTap({ purchaseId: bought.id, visitorId: "visitor-tap-twice" })));
    for (const tap of taps) expect(tap).toEqual({ go: `/payment-success?session_id=${bought.id}`, cookies: [] });
    // A reload of the form post, later.
    expect(await buyOneTap({ purchaseId: bought.id, visitorId: "visitor-tap-twice" })).toMatchObject({ go: `/payment-success?session_id=${bought.id}` });

    const oneTapId = oneTapCheckoutId(bought.id, MAKEUP_PREP);
    expect(await db.checkoutSession.findMany({ where: { followsCheckoutId: bought.id } })).toEqual([
      expect.objectContaining({ id: oneTapId, status: "complete", amountMinor: 1900, tier: "single_payment", userId: bought.userId }),
    ]);
    const owned = await entitlementsOf(bought.userId);
    expect(owned.map((e) => e.offerId).sort()).toEqual(["makeup-prep", "skincare"]);
    const prep = owned.find((e) => e.offerId === "makeup-prep")!;
    expect(prep).toMatchObject({ routinePlanId: "makeup-prep", tier: "single_payment", subscribed: true });
    expect((await entitlementHistory(prep.id)).map((h) => [h.reason, h.priceMinor])).toEqual([["purchase", 1900]]);
    expect(await db.analyticsEvent.count({ where: { name: "purchase", visitorId: "visitor-tap-twice" } })).toBe(2);
    const boughtEvents = await db.analyticsEvent.findMany({ where: { name: "upsell_bought", visitorId: "visitor-tap-twice" } });
    expect(boughtEvents.map((e) => JSON.parse(e.props))).toEqual([expect.objectContaining({ offer: "makeup-prep", price: 19, follows: bought.id })]);
    const receipts = await receiptsTo(bought.email);
    // A local test payment moves no money: the receipt says so.
    expect(receipts.map((m) => m.subject)).toEqual(["Your receipt (test payment): Makeup Prep, $19"]);
    expect(receipts[0].text).toContain(
      "This was a test payment of $19 for your Makeup Prep Plan (one-time) on the saved test card: no real money was charged.",
    );
    expect(receipts[0].text).not.toContain("We charged");

    expect(await oneTapOfferAfter(bought.row)).toEqual({ state: "bought", productName: "Makeup Prep Plan", price: "$19", testPayment: true });
  });

  it("sends the buyer to confirm when the saved card asks for authentication, and charges nothing before", async () => {
    const bought = await purchase("visitor-tap-3ds", { saveCard: true, testCard: "authenticate" });
    const oneTapId = oneTapCheckoutId(bought.id, MAKEUP_PREP);
    const tap = await buyOneTap({ purchaseId: bought.id, visitorId: "visitor-tap-3ds" });
    expect(tap).toEqual({ go: `/checkout/test/${oneTapId}`, cookies: [] });
    expect(await buyOneTap({ purchaseId: bought.id, visitorId: "visitor-tap-3ds" })).toEqual(tap);
    expect((await entitlementsOf(bought.userId)).map((e) => e.offerId)).toEqual(["skincare"]);
    expect(await openLocalCheckout(oneTapId, "visitor-tap-3ds", null)).toMatchObject({ price: "$19", authenticating: true, fixedEmail: bought.email });
    // Cancelled on the confirmation page, then tapped again: the confirmation opens again.
    expect(await cancelLocalCheckout({ id: oneTapId, visitorId: "visitor-tap-3ds" })).toMatchObject({ go: `/payment-success?session_id=${bought.id}` });
    expect(await buyOneTap({ purchaseId: bought.id, visitorId: "visitor-tap-3ds" })).toEqual(tap);
    expect(await openLocalCheckout(oneTapId, "visitor-tap-3ds", null)).toMatchObject({ authenticating: true });

    await completeLocalCheckout({ id: oneTapId, visitorId: "visitor-tap-3ds", user: null });
    await completeLocalCheckout({ id: oneTapId, visitorId: "visitor-tap-3ds", user: null });
    expect((await entitlementsOf(bought.userId)).map((e) => e.offerId).sort()).toEqual(["makeup-prep", "skincare"]);
    expect(await receiptsTo(bought.email)).toHaveLength(1);
    expect(await db.analyticsEvent.count({ where: { name: "upsell_bought", visitorId: "visitor-tap-3ds" } })).toBe(1);
  });
});

describe("the admin's one-tap numbers", () => {
  it("count the purchases it was shown after (not page views), the purchases it made and their revenue, in the period, split by variant", async () => {
    const { oneTapReports } = await import("~/admin/metrics");
    const at = (iso: string) => new Date(iso);
    const A = { "one-tap-price": "19" };
    const B = { "one-tap-price": "24" };
    const row = (name: string, props: Record<string, unknown>, createdAt: string, variants: Record<string, string> | null = null) => ({
      visitorId: "v",
      name,
      props,
      variants,
      createdAt: at(createdAt),
    });
    const events = [
      row("upsell_shown", { follows: "cs_a" }, "2026-11-20T10:00:00Z", A),
      row("upsell_shown", { follows: "cs_a" }, "2026-11-20T10:01:00Z", A),
      row("upsell_shown", { follows: "cs_b" }, "2026-11-21T10:00:00Z", B),
      row("upsell_shown", { follows: "cs_c" }, "2026-11-21T11:00:00Z"),
      row("upsell_bought", { price: 19, currency: "USD", follows: "cs_a" }, "2026-11-20T10:02:00Z", A),
      row("upsell_bought", { price: 0.1 }, "2026-11-21T10:02:00Z", B),
      row("upsell_bought", { price: 0.2, currency: "eur" }, "2026-11-21T10:03:00Z", B),
      row("upsell_bought", { price: 19 }, "2026-11-01T10:00:00Z", A),
      row("purchase", { price: 59 }, "2026-11-20T10:00:00Z", A),
    ];
    expect(oneTapReports(events, at("2026-11-10T00:00:00Z"))).toEqual([
      {
        variant: null,
        shownAfter: 3,
        bought: 3,
        revenue: [
          { currency: "EUR", amount: 0.2 },
          { currency: "USD", amount: 19.1 },
        ],
      },
      { variant: "one-tap-price: 19", shownAfter: 1, bought: 1, revenue: [{ currency: "USD", amount: 19 }] },
      {
        variant: "one-tap-price: 24",
        shownAfter: 1,
        bought: 2,
        revenue: [
          { currency: "EUR", amount: 0.2 },
          { currency: "USD", amount: 0.1 },
        ],
      },
    ]);
  });

  it("on the dashboard equal the event log, for everyone and for each variant", async () => {
    const { oneTapView } = await import("~/admin/dashboard.server");
    const since = new Date(Date.now() - 1000);
    const variantsOf = ['{"one-tap-copy":"short"}', '{"one-tap-copy":"long"}', null];
    for (let i = 0; i < 9; i++) {
      const base = { visitorId: `admin-one-tap-${i}`, variants: variantsOf[i % 3], createdAt: new Date() };
      await db.analyticsEvent.create({ data: { ...base, id: crypto.randomUUID(), name: "upsell_shown", props: JSON.stringify({ follows: `cs_f${i % 4}` }) } });
      if (i % 2 === 0)
        await db.analyticsEvent.create({
          data: { ...base, id: crypto.randomUUID(), name: "upsell_bought", props: JSON.stringify({ price: 19, currency: "USD" }) },
        });
    }
    const log = await db.analyticsEvent.findMany({ where: { name: { in: ["upsell_shown", "upsell_bought"] }, createdAt: { gte: since } } });
    const expected = (variant: string | null) => {
      const [experiment, key] = variant?.split(": ") ?? [];
      const rows = log.filter((e) => !variant || (e.variants && JSON.parse(e.variants)[experiment] === key));
      const bought = rows.filter((e) => e.name === "upsell_bought");
      return {
        shownAfter: new Set(rows.filter((e) => e.name === "upsell_shown").map((e) => JSON.parse(e.props).follows ?? e.visitorId)).size,
        bought: bought.length,
        usd: bought.reduce((sum, e) => sum + Math.round(JSON.parse(e.props).price * 100), 0) / 100,
      };
    };
    const reports = await oneTapView(since);
    expect(reports.map((r) => r.variant)).toEqual([null, "one-tap-copy: long", "one-tap-copy: short"]);
    for (const report of reports) {
      const usd = report.revenue.find((r) => r.currency === "USD")?.amount ?? 0;
      expect({ shownAfter: report.shownAfter, bought: report.bought, usd }, String(report.variant)).toEqual(expected(report.variant));
    }
  });
});
