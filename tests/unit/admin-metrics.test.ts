import { describe, expect, it } from "vitest";
import { percent } from "~/admin/format";
import { activeSubscriptions, attributeToFunnel, dayNumber, funnelReports, retention, revenueByOffer, type EventRow, type FunnelInfo } from "~/admin/metrics";

const T0 = new Date("2026-11-01T12:00:00Z");
const at = (days: number, hours = 0) => new Date(T0.getTime() + days * 86_400_000 + hours * 3_600_000);
function ev(visitorId: string, name: string, when: Date, extra: Partial<EventRow> = {}): EventRow {
  return { visitorId, name, funnel: null, step: null, props: {}, userId: null, createdAt: when, ...extra };
}

const FUNNELS: FunnelInfo[] = [
  {
    id: "skin",
    title: "Skin Quiz",
    steps: [
      { id: "1", label: "Skin type" },
      { id: "2", label: "Concerns" },
    ],
  },
  { id: "crease", title: "Crease Quiz", steps: [{ id: "q1", label: "Where" }] },
];

/**
 * The seeded scenario: 4 visitors view the skin quiz, 3 answer step 1, 2 answer step 2 and
 * complete it, both start a checkout, 1 buys the annual plan ($59). One visitor views the
 * crease quiz, completes it and buys the lifetime plan ($29.99) without a funnel on the event.
 * One old skin view (40 days ago) falls outside every window.
 */
const LOG: EventRow[] = [
  ev("old", "funnel_viewed", at(-40), { funnel: "skin" }),
  ...["a", "b", "c", "d"].map((v) => ev(v, "funnel_viewed", at(0), { funnel: "skin" })),
  ev("a", "funnel_viewed", at(0, 1), { funnel: "skin" }), // a second view by the same visitor counts once
  ...["a", "b", "c"].map((v) => ev(v, "step_answered", at(0, 1), { funnel: "skin", step: "1" })),
  ...["a", "b"].map((v) => ev(v, "step_answered", at(0, 2), { funnel: "skin", step: "2" })),
  ...["a", "b"].map((v) => ev(v, "funnel_completed", at(0, 2), { funnel: "skin", step: "2" })),
  ...["a", "b"].map((v) => ev(v, "initiate_checkout", at(0, 3), { props: { offer: "skincare", plan: "annual", price: 59, currency: "USD" } })),
  ev("a", "purchase", at(0, 4), { props: { offer: "skincare", plan: "annual", tier: "annual", price: 59, currency: "USD" } }),
  ev("e", "funnel_viewed", at(1), { funnel: "crease" }),
  ev("e", "step_answered", at(1), { funnel: "crease", step: "q1" }),
  ev("e", "funnel_completed", at(1), { funnel: "crease" }),
  ev("e", "initiate_checkout", at(1, 1), { props: { offer: "crease-free", price: 29.99, currency: "USD" } }),
  ev("e", "purchase", at(1, 2), { props: { offer: "crease-free", plan: "lifetime", tier: "single_payment", price: 29.99, currency: "usd" } }),
];

describe("funnelReports", () => {
  const [skin, crease] = funnelReports(LOG, FUNNELS, at(-7));

  it("counts distinct visitors at each stage in the window, with conversion rates", () => {
    expect(skin).toMatchObject({ id: "skin", views: 4, completions: 2, checkouts: 2, purchases: 1 });
    expect(skin.rates).toEqual({ completion: 0.5, checkout: 1, purchase: 0.5, overall: 0.25 });
    expect(crease).toMatchObject({ views: 1, completions: 1, checkouts: 1, purchases: 1 });
  });

  it("gives the per-step drop-off from view to completion, in the funnel's step order", () => {
    expect(skin.steps.map((s) => [s.label, s.visitors])).toEqual([
      ["Viewed", 4],
      ["Skin type", 3],
      ["Concerns", 2],
      ["Completed", 2],
    ]);
  });

  it("leaves out events before the window", () => {
    const [wide] = funnelReports(LOG, FUNNELS, at(-60));
    expect(wide.views).toBe(5);
    const [later] = funnelReports(LOG, FUNNELS, at(0, 5));
    expect(later).toMatchObject({ views: 0, completions: 0, checkouts: 0, purchases: 0 });
    expect(later.rates.completion).toBeNull();
  });

  it("attributes a checkout to the visitor's latest completed funnel, or to the funnel it names", () => {
    const checkout = LOG.find((e) => e.visitorId === "e" && e.name === "initiate_checkout")!;
    expect(attributeToFunnel(checkout, LOG)).toBe("crease");
    expect(attributeToFunnel({ ...checkout, funnel: "skin" }, LOG)).toBe("skin");
    // Only events before it count.
    expect(attributeToFunnel({ ...checkout, createdAt: at(-1) }, LOG)).toBeNull();
  });
});

describe("revenueByOffer", () => {
  it("sums purchase prices per offer and currency, without float noise", () => {
    const extra = [0.1, 0.2].map((price) => ev("z", "purchase", at(2), { props: { offer: "tiny", price, currency: "USD" } }));
    expect(revenueByOffer([...LOG, ...extra], at(-7))).toEqual([
      { offer: "skincare", currency: "USD", purchases: 1, amount: 59 },
      { offer: "crease-free", currency: "USD", purchases: 1, amount: 29.99 },
      { offer: "tiny", currency: "USD", purchases: 2, amount: 0.3 },
    ]);
  });
  it("ignores purchases before the window and non-numeric prices", () => {
    expect(revenueByOffer([ev("x", "purchase", at(0), { props: { offer: "o", price: "lots" } })], at(-1))).toEqual([
      { offer: "o", currency: "USD", purchases: 1, amount: 0 },
    ]);
    expect(revenueByOffer(LOG, at(5))).toEqual([]);
  });
});

describe("activeSubscriptions", () => {
  const row = (tier: string, status: string, currentPeriodEnd: Date | null) => ({
    tier,
    status,
    planName: tier,
    priceMinor: 100,
    currency: "usd",
    startedAt: at(-100),
    currentPeriodEnd,
    cancelAtPeriodEnd: false,
  });
  it("counts paid plans by tier; an ended period, a canceled or refunded plan does not count", () => {
    const rows = [
      row("monthly", "active", at(10)),
      row("monthly", "past_due", at(3)),
      row("monthly", "active", at(-1)),
      row("monthly", "canceled", at(10)),
      row("annual", "trialing", at(300)),
      row("single_payment", "active", null),
      row("single_payment", "refunded", null),
    ];
    expect(activeSubscriptions(rows, at(0))).toEqual({ monthly: 2, annual: 1, lifetime: 1 });
  });
});

describe("retention", () => {
  it("numbers days from the purchase day (day 1)", () => {
    expect(dayNumber(new Date("2026-11-01T23:30:00Z"), "2026-11-01")).toBe(1);
    expect(dayNumber(new Date("2026-11-01T23:30:00Z"), "2026-11-07")).toBe(7);
    expect(dayNumber(new Date("2026-11-01T00:10:00Z"), "2026-11-22")).toBe(22);
  });

  it("gives per funnel the share of buyers with a completion in days 1-7 and 22-30, counting only buyers past the window", () => {
    const buyers = [
      { userId: "u1", funnel: "skin", purchasedAt: at(-40) }, // both windows over
      { userId: "u2", funnel: "skin", purchasedAt: at(-40) },
      { userId: "u3", funnel: "skin", purchasedAt: at(-10) }, // only the first week is over
      { userId: "u4", funnel: "crease", purchasedAt: at(-3) }, // nothing over yet
      { userId: "u1", funnel: "crease", purchasedAt: at(-5) }, // a second purchase: the first counts
    ];
    const day = (purchase: Date, n: number) => new Date(purchase.getTime() + (n - 1) * 86_400_000).toISOString().slice(0, 10);
    const completions = [
      { userId: "u1", date: day(at(-40), 2) },
      { userId: "u1", date: day(at(-40), 25) },
      { userId: "u2", date: day(at(-40), 8) }, // between the windows: counts for neither
      { userId: "u3", date: day(at(-10), 7) },
      { userId: "u4", date: day(at(-3), 1) },
    ];
    const rows = retention(buyers, completions, at(0));
    expect(rows).toEqual([
      { funnel: "crease", week1: { eligible: 0, active: 0, share: null }, month: { eligible: 0, active: 0, share: null } },
      { funnel: "skin", week1: { eligible: 3, active: 2, share: 2 / 3 }, month: { eligible: 2, active: 1, share: 0.5 } },
    ]);
    expect(percent(rows[1].week1.share)).toBe("67%");
    expect(percent(null)).toBe("–");
  });

  it("follows the person: a buyer of two plans counts once, active when they finished either plan's routine", () => {
    // Skincare bought 40 days ago, Makeup Prep 20 days ago; completions carry no plan, only the person and the day.
    const buyers = [
      { userId: "p1", funnel: "skin", purchasedAt: at(-40) },
      { userId: "p1", funnel: "makeup", purchasedAt: at(-20) },
    ];
    const day = (n: number) => new Date(at(-40).getTime() + (n - 1) * 86_400_000).toISOString().slice(0, 10);
    // Day 3 on both plans (two rows, one day), day 25 on Makeup Prep only.
    const completions = [
      { userId: "p1", date: day(3) },
      { userId: "p1", date: day(3) },
      { userId: "p1", date: day(25) },
    ];
    expect(retention(buyers, completions, at(0))).toEqual([
      { funnel: "skin", week1: { eligible: 1, active: 1, share: 1 }, month: { eligible: 1, active: 1, share: 1 } },
    ]);
  });
});
