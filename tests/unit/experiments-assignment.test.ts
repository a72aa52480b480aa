/**
 * Who sees which variant: the weighted hash (stable, near the weights, independent between
 * experiments), the stored assignment (once per visitor, kept when weights change, carried to
 * the account and to the member's other devices), the variants recorded with every event, and
 * offers and funnels as a visitor in a variant sees them.
 */
import crypto from "node:crypto";
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { ResolvedExperiment } from "~/content-model/experiment";

// The experiments the content holds, as each test sets them (a spy: the modules are shared with other files).
const content = { experiments: [] as ResolvedExperiment[] };
const contentModule = await import("~/content/content.server");
const experimentsInContent = vi.spyOn(contentModule, "getExperiments").mockImplementation(async () => content.experiments);
afterAll(() => experimentsInContent.mockRestore());

const { assignVariants, bucketOf, linkToAccount, pickVariant, storedAssignments } = await import("~/experiments/assignment.server");
const { funnelForViewer, offerForViewer, storedFunnelVersion } = await import("~/experiments/experiments.server");
const { recordEvent, recordOfferViewed } = await import("~/analytics/events.server");
const { flushEvents } = await import("~/analytics/event-batch.server");
const { getFunnelByRoute, getOfferByPath } = await import("~/content/content.server");
const { db } = await import("~/utils/db.server");

const id = () => crypto.randomUUID();

/** A visitor id whose hash puts them in `key` of `experiment` (fresh ids until one does). */
function visitorIn(experiment: Pick<ResolvedExperiment, "experimentId" | "variants">, key: string): string {
  for (;;) {
    const visitorId = id();
    if (pickVariant(experiment.variants, bucketOf(experiment.experimentId, visitorId)) === key) return visitorId;
  }
}

function priceTest(experimentId = `price-${id().slice(0, 8)}`, status: "running" | "stopped" = "running"): ResolvedExperiment {
  return {
    _id: `experiment-${experimentId}`,
    _type: "experiment",
    experimentId,
    name: "Crease-free price",
    status,
    kind: "offer",
    offer: "crease-free",
    variants: [
      { key: "control", name: "$29.99", weight: 50 },
      { key: "lower", name: "$24.99", weight: 50, offer: { plans: [{ id: "lifetime", priceMinor: 2499 }], hero: { headline: "Crease-free for less" } } },
    ],
  };
}

beforeEach(() => {
  content.experiments = [];
});

describe("the weighted hash", () => {
  it("is the same for the same experiment and visitor, and pinned (changing it would move every visitor)", () => {
    expect(bucketOf("price", "6f1c2d7e-0000-4000-8000-000000000001")).toBe(bucketOf("price", "6f1c2d7e-0000-4000-8000-000000000001"));
    expect(bucketOf("price", "6f1c2d7e-0000-4000-8000-000000000001")).toBe(0.1620577741471827);
    expect(bucketOf("other", "6f1c2d7e-0000-4000-8000-000000000001")).not.toBe(bucketOf("price", "6f1c2d7e-0000-4000-8000-000000000001"));
  });

  it("gives each variant its share of the weights, boundaries included", () => {
    const variants = [
      { key: "a", weight: 1 },
      { key: "b", weight: 3 },
    ];
    expect(pickVariant(variants, 0)).toBe("a");
    expect(pickVariant(variants, 0.2499)).toBe("a");
    expect(pickVariant(variants, 0.25)).toBe("b");
    expect(pickVariant(variants, 0.999999)).toBe("b");
  });

  it("splits 20,000 visitors near the weights (30/70 within 4 standard deviations)", () => {
    const variants = [
      { key: "a", weight: 30 },
      { key: "b", weight: 70 },
    ];
    const n = 20_000;
    const inA = Array.from({ length: n }, () => pickVariant(variants, bucketOf("split", id()))).filter((k) => k === "a").length;
    const sd = Math.sqrt((0.3 * 0.7) / n);
    expect(Math.abs(inA / n - 0.3)).toBeLessThan(4 * sd);
  });

  it("assigns one experiment independently of another", () => {
    const half = [
      { key: "a", weight: 1 },
      { key: "b", weight: 1 },
    ];
    const n = 20_000;
    let both = 0;
    let first = 0;
    for (let i = 0; i < n; i++) {
      const visitor = id();
      const x = pickVariant(half, bucketOf("one", visitor)) === "a";
      const y = pickVariant(half, bucketOf("two", visitor)) === "a";
      if (x) first++;
      if (x && y) both++;
    }
    // Independent: half of those in "a" of the first are in "a" of the second.
    expect(Math.abs(both / first - 0.5)).toBeLessThan(4 * Math.sqrt(0.25 / first));
  });
});

describe("stored assignments", () => {
  it("assign once: the same variant on every visit, and one experiment_viewed", async () => {
    const experiment = priceTest();
    const visitorId = visitorIn(experiment, "lower");
    for (let visit = 0; visit < 3; visit++) expect(await assignVariants([experiment], { visitorId })).toEqual({ [experiment.experimentId]: "lower" });
    const viewed = await db.analyticsEvent.findMany({ where: { visitorId, name: "experiment_viewed" } });
    expect(viewed).toHaveLength(1);
    expect(JSON.parse(viewed[0].props)).toEqual({ experiment: experiment.experimentId, variant: "lower" });
    expect(await storedAssignments(visitorId)).toEqual({ [experiment.experimentId]: "lower" });
  });

  it("keep a visitor's variant when the weights change later", async () => {
    const experiment = priceTest();
    const visitorId = visitorIn(experiment, "control");
    await assignVariants([experiment], { visitorId });
    const everyoneLower = {
      ...experiment,
      variants: [
        { ...experiment.variants[0], weight: 1 },
        { ...experiment.variants[1], weight: 1000 },
      ],
    };
    expect(pickVariant(everyoneLower.variants, bucketOf(experiment.experimentId, visitorId))).toBe("lower");
    expect(await assignVariants([everyoneLower], { visitorId })).toEqual({ [experiment.experimentId]: "control" });
  });

  it("follow the member to another device once linked (sign-in or purchase), and link a browser's own rows on sight", async () => {
    const experiment = priceTest();
    const phone = visitorIn(experiment, "lower");
    const laptop = visitorIn(experiment, "control");
    const user = await db.user.create({ data: { email: `exp-${id()}@glowcoach.test` } });
    await assignVariants([experiment], { visitorId: phone });
    await linkToAccount(phone, user.id);
    // The laptop's own hash says control; the account says lower.
    expect(await assignVariants([experiment], { visitorId: laptop, userId: user.id })).toEqual({ [experiment.experimentId]: "lower" });
    const rows = await db.experimentAssignment.findMany({ where: { experimentId: experiment.experimentId }, orderBy: { assignedAt: "asc" } });
    expect(rows.map((r) => [r.visitorId, r.variant, r.userId])).toEqual([
      [phone, "lower", user.id],
      [laptop, "lower", user.id],
    ]);

    // A browser assigned before its member signed in is linked the next time it is seen signed in.
    const other = await db.user.create({ data: { email: `exp-${id()}@glowcoach.test` } });
    const tablet = visitorIn(experiment, "control");
    await assignVariants([experiment], { visitorId: tablet });
    expect(await assignVariants([experiment], { visitorId: tablet, userId: other.id })).toEqual({ [experiment.experimentId]: "control" });
    expect((await db.experimentAssignment.findFirst({ where: { visitorId: tablet } }))?.userId).toBe(other.id);
  });

  it("signing in carries this browser's assignments to the account", async () => {
    const { completeSignIn } = await import("~/auth/sign-in.server");
    const experiment = priceTest();
    const phone = visitorIn(experiment, "lower");
    await assignVariants([experiment], { visitorId: phone });
    const email = `exp-${id()}@glowcoach.test`;
    const { user } = await completeSignIn({ email, proof: "email-link", visitorId: phone });
    expect((await db.experimentAssignment.findFirst({ where: { visitorId: phone } }))?.userId).toBe(user.id);
    // On a laptop that never saw the offer, the member's variant.
    expect(await assignVariants([experiment], { visitorId: visitorIn(experiment, "control"), userId: user.id })).toEqual({
      [experiment.experimentId]: "lower",
    });
  });

  it("a browser that already saw a variant keeps it after signing in to an account that saw the other", async () => {
    const experiment = priceTest();
    const user = await db.user.create({ data: { email: `exp-${id()}@glowcoach.test` } });
    const first = visitorIn(experiment, "lower");
    await assignVariants([experiment], { visitorId: first, userId: user.id });
    const second = visitorIn(experiment, "control");
    await assignVariants([experiment], { visitorId: second });
    expect(await assignVariants([experiment], { visitorId: second, userId: user.id })).toEqual({ [experiment.experimentId]: "control" });
  });
});

describe("variants recorded with every event", () => {
  it("of running experiments only, written at once or in a batch", async () => {
    const running = priceTest();
    const stopped = priceTest(undefined, "stopped");
    content.experiments = [running, stopped];
    const visitorId = visitorIn(running, "lower");
    await assignVariants([running, stopped], { visitorId });
    const eventId = await recordEvent({ visitorId, name: "initiate_checkout", props: { offer: "crease-free" } });
    recordOfferViewed({ visitorId, offer: "crease-free" });
    await flushEvents();
    const events = await db.analyticsEvent.findMany({ where: { visitorId }, orderBy: { createdAt: "asc" } });
    expect(events.map((e) => [e.name, e.variants ? JSON.parse(e.variants) : null])).toEqual([
      ["experiment_viewed", { [running.experimentId]: "lower" }],
      ["experiment_viewed", { [running.experimentId]: "lower" }],
      ["initiate_checkout", { [running.experimentId]: "lower" }],
      ["offer_viewed", { [running.experimentId]: "lower" }],
    ]);
    expect(events.some((e) => e.id === eventId)).toBe(true);

    content.experiments = [];
    const later = await recordEvent({ visitorId, name: "purchase" });
    expect((await db.analyticsEvent.findUnique({ where: { id: later! } }))?.variants).toBeNull();
  });
});

describe("an offer as a visitor in a variant sees it", () => {
  it("prices and copy from the variant, the same on every visit; the offer as written when stopped", async () => {
    const experiment = priceTest();
    content.experiments = [experiment];
    const offer = (await getOfferByPath("/sales"))!;
    const lower = visitorIn(experiment, "lower");
    const control = visitorIn(experiment, "control");
    for (let visit = 0; visit < 2; visit++) {
      const seen = await offerForViewer(offer, { visitorId: lower });
      expect(seen.variant).toBe(`${experiment.experimentId}:lower`);
      expect(seen.offer.plans[0].priceMinor).toBe(2499);
      expect(seen.offer.sections.find((s) => s._type === "hero")).toMatchObject({ headline: "Crease-free for less" });
      // One object per variant and content version: the page's presentation is cached by it.
      expect((await offerForViewer(offer, { visitorId: lower })).offer).toBe(seen.offer);
    }
    expect((await offerForViewer(offer, { visitorId: control })).offer).toBe(offer);

    content.experiments = [{ ...experiment, status: "stopped" }];
    expect(await offerForViewer(offer, { visitorId: lower })).toEqual({ offer, variant: null });
  });

  it("a variant that does not apply (a plan the offer lacks) sits the experiment out: nobody is assigned", async () => {
    const broken = priceTest();
    broken.variants[1].offer = { plans: [{ id: "annual", priceMinor: 4900 }] };
    content.experiments = [broken];
    const offer = (await getOfferByPath("/sales"))!;
    const visitorId = id();
    expect(await offerForViewer(offer, { visitorId })).toEqual({ offer, variant: null });
    expect(await storedAssignments(visitorId)).toEqual({});
  });
});

describe("a funnel as a visitor in a variant runs it", () => {
  it("the step's copy and result target changed; the page cache waits until the visitor is assigned", async () => {
    const experiment: ResolvedExperiment = {
      _id: "experiment-skin-result",
      _type: "experiment",
      experimentId: `skin-result-${id().slice(0, 8)}`,
      name: "Skin result to the sales page",
      status: "running",
      kind: "funnel",
      funnel: "skin",
      step: "14",
      variants: [
        { key: "a", name: "Subscription", weight: 1 },
        { key: "b", name: "Lifetime", weight: 1, step: { title: "Your routine is ready", cta: { href: "/sales" } } },
      ],
    };
    content.experiments = [experiment];
    const visitorId = visitorIn(experiment, "b");
    expect(await storedFunnelVersion("/quiz", visitorId)).toBe("unassigned");
    const version = (await funnelForViewer("/quiz", visitorId, async () => null))!;
    expect(version.variant).toBe(`${experiment.experimentId}:b`);
    const result = version.funnel.steps.find((s) => s.id === "14")!;
    expect(result).toMatchObject({ type: "result", title: "Your routine is ready", cta: { href: "/sales", label: expect.any(String) } });
    const stored = await storedFunnelVersion("/quiz", visitorId);
    expect(stored).not.toBe("unassigned");
    expect((stored as typeof version).funnel).toBe(version.funnel);
    // Other steps and other funnels are untouched.
    const base = (await getFunnelByRoute("/quiz"))!;
    expect(version.funnel.steps.filter((s) => s.id !== "14")).toEqual(base.steps.filter((s) => s.id !== "14"));
    expect((await funnelForViewer("/makeup", visitorId, async () => null))?.variant).toBeNull();

    // The step's view names the variant: both page caches key on the view.
    const { planFunnelStep } = await import("~/funnels/flow.server");
    const planned = await planFunnelStep({ cookieHeader: null, route: "/quiz", stepParam: "1", version });
    expect(planned.kind === "view" && planned.view.variant).toBe(`${experiment.experimentId}:b`);
    const plain = await planFunnelStep({ cookieHeader: null, route: "/quiz", stepParam: "1" });
    expect(plain.kind === "view" && "variant" in plain.view).toBe(false);
  });
});
