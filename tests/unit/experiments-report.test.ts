/** An experiment's report (app/admin/experiment-report.ts) on a seeded event log. */
import { describe, expect, it } from "vitest";
import { experimentReport, type ExperimentEvent, type ReportedExperiment } from "~/admin/experiment-report";

const T0 = new Date("2026-10-01T12:00:00Z");
const day = (n: number, hours = 0) => new Date(T0.getTime() + n * 86_400_000 + hours * 3_600_000);

const PRICE: ReportedExperiment = {
  experimentId: "sales-price",
  name: "Sales page price",
  status: "running",
  kind: "offer",
  offer: "crease-free",
  variants: [
    { key: "control", name: "$29.99", weight: 1 },
    { key: "lower", name: "$24.99", weight: 3 },
  ],
};

function ev(visitorId: string, variant: string | null, name: string, when: Date, extra: Partial<ExperimentEvent> = {}): ExperimentEvent {
  return { visitorId, name, funnel: null, props: {}, userId: null, variants: variant ? { "sales-price": variant } : {}, createdAt: when, ...extra };
}
const viewed = (visitorId: string, variant: string) => ev(visitorId, variant, "experiment_viewed", day(0), { props: { experiment: "sales-price", variant } });
const bought = (visitorId: string, variant: string, userId: string, price: number, offer = "crease-free", when = day(0, 1)) =>
  ev(visitorId, variant, "purchase", when, { userId, props: { offer, price, currency: "USD" } });

/**
 * control: c1-c4 (c1, c2 start a checkout, c1 buys at $29.99); lower: l1-l6 (l1, l2, l3
 * check out, l1 and l2 buy at $24.99, l2 also buys another offer). l1 is seen on a second
 * device (l1b) after signing in. An event without the variant (before the experiment) and
 * one of another experiment do not count.
 */
const LOG: ExperimentEvent[] = [
  ...["c1", "c2", "c3", "c4"].map((v) => viewed(v, "control")),
  ...["l1", "l2", "l3", "l4", "l5", "l6"].map((v) => viewed(v, "lower")),
  ev("c1", null, "funnel_completed", day(-1), { funnel: "crease-crisis" }),
  ev("c1", "control", "funnel_completed", day(0), { funnel: "crease-crisis" }),
  ev("l4", "lower", "funnel_completed", day(0), { funnel: "crease-crisis" }),
  ...["c1", "c2"].map((v) => ev(v, "control", "initiate_checkout", day(0), { props: { offer: "crease-free" } })),
  ...["l1", "l2", "l3"].map((v) => ev(v, "lower", "initiate_checkout", day(0), { props: { offer: "crease-free" } })),
  ev("l3", "lower", "initiate_checkout", day(0), { props: { offer: "skincare" } }),
  bought("c1", "control", "u-c1", 29.99),
  bought("l1", "lower", "u-l1", 24.99),
  bought("l2", "lower", "u-l2", 24.99),
  bought("l2", "lower", "u-l2", 59, "skincare"),
  ev("l1b", "lower", "experiment_viewed", day(3), { userId: "u-l1" }),
  ev("x", null, "purchase", day(0), { props: { offer: "crease-free", price: 29.99 } }),
];

describe("experimentReport", () => {
  const report = experimentReport(PRICE, LOG, [], day(2));
  const [control, lower] = report.variants;

  it("counts distinct visitors at each stage, its own offer's checkouts and purchases only", () => {
    expect(control).toMatchObject({ key: "control", share: 0.25, visitors: 4, completions: 1, checkouts: 2, purchases: 1 });
    expect(lower).toMatchObject({ key: "lower", share: 0.75, visitors: 7, completions: 1, checkouts: 3, purchases: 2 });
    expect(control.rates).toEqual({ completion: 0.25, checkout: 0.5, purchase: 0.25 });
  });

  it("adds revenue in cents, per visitor", () => {
    expect(control.revenueMinor).toBe(2999);
    expect(control.revenuePerVisitorMinor).toBeCloseTo(2999 / 4, 10);
    expect(lower.revenueMinor).toBe(4998);
    expect(lower.revenuePerVisitorMinor).toBeCloseTo(4998 / 7, 10);
  });

  it("gives chances that add up to 1 on every measure, and warns while samples are small", () => {
    for (const metric of ["completion", "checkout", "purchase", "revenuePerVisitor", "week1", "month"] as const)
      expect(control.best[metric] + lower.best[metric]).toBeCloseTo(1, 10);
    expect(report.warning).toBe("Too early to call: every variant needs at least 100 visitors ($29.99 has 4, $24.99 has 7).");
    expect(report.retentionWarning).toContain("at least 10 buyers past their first week");
  });

  it("retention: buyers still doing the routine in days 1-7 and 22-30, once the window has passed", () => {
    const completions = [
      { userId: "u-c1", date: "2026-10-03" },
      { userId: "u-l1", date: "2026-10-05" },
      { userId: "u-l1", date: "2026-10-25" },
    ];
    const week = experimentReport(PRICE, LOG, completions, day(10));
    expect(week.variants[0].retention.week1).toEqual({ eligible: 1, active: 1, share: 1 });
    expect(week.variants[1].retention.week1).toEqual({ eligible: 2, active: 1, share: 0.5 });
    expect(week.variants[1].retention.month).toEqual({ eligible: 0, active: 0, share: null });
    const month = experimentReport(PRICE, LOG, completions, day(40));
    expect(month.variants[1].retention.month).toEqual({ eligible: 2, active: 1, share: 0.5 });
  });

  it("a quiz experiment counts its own quiz's completions and any offer's purchases", () => {
    const quiz: ReportedExperiment = { ...PRICE, experimentId: "sales-price", kind: "funnel", offer: undefined, funnel: "crease-crisis", step: "7" };
    const other = [...LOG, ev("c2", "control", "funnel_completed", day(0), { funnel: "skin" })];
    const [c, l] = experimentReport(quiz, other, [], day(2)).variants;
    expect(c.completions).toBe(1);
    expect(l.purchases).toBe(2);
    expect(l.revenueMinor).toBe(4998 + 5900);
  });

  it("with enough data, says nothing and favours the variant that earns more", () => {
    const big: ExperimentEvent[] = [];
    for (let i = 0; i < 1000; i++) big.push(viewed(`c${i}`, "control"), viewed(`l${i}`, "lower"));
    for (let i = 0; i < 40; i++) big.push(bought(`c${i}`, "control", `uc${i}`, 29.99));
    for (let i = 0; i < 44; i++) big.push(bought(`l${i}`, "lower", `ul${i}`, 24.99));
    const result = experimentReport(PRICE, big, [], day(2));
    expect(result.warning).toBeNull();
    const [c, l] = result.variants;
    // Lower sells a little more often but earns less per visitor ($1.10 against $1.20).
    expect(l.best.purchase).toBeGreaterThan(c.best.purchase);
    expect(c.best.revenuePerVisitor).toBeGreaterThan(l.best.revenuePerVisitor);
  });
});
