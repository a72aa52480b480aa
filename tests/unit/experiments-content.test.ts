/**
 * Experiment documents: variants applied to their offer or funnel step, the checks the Studio
 * and `npm run funnels:check` run on them (the same functions), and the Studio's markers.
 */
import { evaluate, parse } from "groq-js";
import { describe, expect, it } from "vitest";
import { toSanityDocument } from "~/content/sanity-format";
import { readAppRoutes } from "~/funnels/app-routes.server";
import { applyOfferChanges, applyStepChanges } from "~/experiments/apply";
import { experimentProblems, lintExperiments } from "~/content-checks/experiment-lint";
import { ResolvedExperiment } from "~/content-model/experiment";
import { ALL_EXPERIMENTS } from "~/content/queries";
import { stripCmsFields } from "~/content/funnel-resolve";
import { Offer } from "~/content-model/offer";
import { validateWithStudio, type StudioMarker } from "../../studio/validate";
import { embeddedDataset, funnelDocument, loadFunnel, sharedQuestions } from "./helpers";

const offerDoc = (id: string) => structuredClone(embeddedDataset().find((d) => d._id === id)!) as Record<string, any>;
const offer = (id: string) => Offer.parse(offerDoc(id));

/** A running experiment on /sales: the control and a lower price. */
function salesPrice(changes: Record<string, unknown> = { plans: [{ id: "lifetime", priceMinor: 2499 }] }): Record<string, any> {
  return {
    _id: "experiment-sales-price",
    _type: "experiment",
    experimentId: "sales-price",
    name: "Sales page price",
    status: "running",
    kind: "offer",
    offer: { _ref: "offer-crease-free" },
    variants: [
      { key: "control", name: "$29.99", weight: 50 },
      { key: "lower", name: "$24.99", weight: 50, offer: changes },
    ],
  };
}

function skinStep(step: string, changes: Record<string, unknown>): Record<string, any> {
  return {
    _id: `experiment-skin-${step}`,
    _type: "experiment",
    experimentId: `skin-${step}`,
    name: `Skin step ${step}`,
    status: "running",
    kind: "funnel",
    funnel: { _ref: "funnel-skin" },
    step,
    variants: [
      { key: "a", name: "As written", weight: 1 },
      { key: "b", name: "Changed", weight: 1, step: changes },
    ],
  };
}

const problemsOf = (doc: unknown) =>
  experimentProblems(doc, {
    offer: embeddedDataset().find((d) => d._id === (doc as { offer?: { _ref: string } }).offer?._ref),
    funnel: funnelDocument("skin"),
    shared: sharedQuestions(),
  }).map((p) => `${p.path.join(".")}: ${p.message}`);

describe("the app's query", () => {
  it("resolves each experiment's subject to the id the app knows it by, and the result parses", async () => {
    const dataset = [...embeddedDataset(), salesPrice(), skinStep("14", { cta: { href: "/sales" } })].map((d) => toSanityDocument(structuredClone(d) as never));
    const found = (await (await evaluate(parse(ALL_EXPERIMENTS), { dataset })).get()) as unknown[];
    const parsed = found.map((doc) => ResolvedExperiment.parse(stripCmsFields(doc)));
    expect(parsed.map((e) => [e.experimentId, e.kind, e.offer ?? null, e.funnel ?? null])).toEqual([
      ["sales-price", "offer", "crease-free", null],
      ["skin-14", "funnel", null, "skin"],
    ]);
  });
});

describe("a variant applied to an offer", () => {
  it("changes plan prices and texts by id, the hero's copy and the browser title; everything else as written", () => {
    const applied = applyOfferChanges(offer("offer-skincare-paywall"), {
      pageTitle: "Clear skin, for less",
      hero: { headline: "Your plan, now $49" },
      plans: [{ id: "annual", priceMinor: 4900, badge: "Launch price" }],
    });
    expect(applied.ok).toBe(true);
    const changed = applied.ok ? applied.value : null!;
    expect(changed.pageTitle).toBe("Clear skin, for less");
    expect(changed.plans.map((p) => [p.id, p.priceMinor, p.badge])).toEqual([
      ["annual", 4900, "Launch price"],
      ["monthly", 999, undefined],
    ]);
    const hero = changed.sections.find((s) => s._type === "hero")!;
    expect(hero).toMatchObject({ headline: "Your plan, now $49", subheadline: expect.stringContaining("Built from your quiz answers") });
  });

  it("puts only the plans on sale on the page, in the order given: nothing else can be bought", () => {
    const applied = applyOfferChanges(offer("offer-skincare-paywall"), { planIds: ["monthly"] });
    const changed = applied.ok ? applied.value : null!;
    expect(changed.plans.map((p) => p.id)).toEqual(["monthly"]);
    expect(changed.sections.find((s) => s._type === "plans")).toMatchObject({ planIds: ["monthly"] });
  });

  it("the control is the offer itself", () => {
    const base = offer("offer-crease-free");
    expect(applyOfferChanges(base, undefined)).toEqual({ ok: true, value: base });
    expect((applyOfferChanges(base, {}) as { value: unknown }).value).toBe(base);
  });
});

describe("a variant applied to a funnel step", () => {
  it("changes copy and the result button, checked by the funnel schema", () => {
    const funnel = loadFunnel("skin");
    const applied = applyStepChanges(funnel, "14", { title: "Ready", cta: { href: "/sales" } });
    expect(applied.ok && applied.value.steps.find((step) => step.id === "14")).toMatchObject({
      title: "Ready",
      cta: { href: "/sales", label: expect.any(String) },
    });
    const wrong = applyStepChanges(funnel, "3", { headline: "Nope" });
    expect(wrong.ok).toBe(false);
    expect(!wrong.ok && wrong.problems[0].message).toBe('a question step has no "headline"');
  });
});

describe("experimentProblems (the Studio's and the linter's check of one experiment)", () => {
  it("accepts a price test, a copy test and an order test", () => {
    expect(problemsOf(salesPrice())).toEqual([]);
    expect(problemsOf(salesPrice({ hero: { headline: "Crease-free, for good" } }))).toEqual([]);
    expect(problemsOf(skinStep("2", { next: [{ to: { step: "3" } }], title: "Your main concern?" }))).toEqual([]);
  });

  it("names each problem by its field in the experiment", () => {
    const weights = salesPrice();
    weights.variants[0].weight = 0;
    expect(problemsOf(weights)).toEqual(["variants.0.weight: must be more than 0"]);

    const one = salesPrice();
    one.variants.pop();
    expect(problemsOf(one)).toEqual(["variants: an experiment needs at least two variants"]);

    const twins = salesPrice();
    twins.variants[1].key = "control";
    expect(problemsOf(twins)).toEqual(['variants.1.key: another variant is also called "control"']);

    expect(problemsOf(salesPrice({ plans: [{ id: "annual", priceMinor: 4900 }] }))).toEqual(['variants.1.offer.plans.0.id: the offer has no plan "annual"']);
    expect(problemsOf(salesPrice({ plans: [{ id: "lifetime", priceMinor: 8000 }] }))).toEqual(["variants.1.offer.plans.0: must be more than the price"]);
    expect(problemsOf(salesPrice({ plans: [{ id: "lifetime", priceMinor: 20 }] }))).toEqual([
      "variants.1.offer.plans.0.priceMinor: Too small: expected number to be >=50",
    ]);
  });

  it("a plan taken off sale that the page still sells (the final button) is flagged on the plans on sale", () => {
    const doc = salesPrice({ planIds: ["lifetime"] });
    expect(problemsOf(doc)).toEqual([]);
    const withMonthly = offerDoc("offer-skincare-paywall");
    expect(
      experimentProblems({ ...salesPrice({ planIds: ["ghost"] }), offer: { _ref: withMonthly._id } }, { offer: withMonthly }).map(
        (p) => `${p.path.join(".")}: ${p.message}`,
      ),
    ).toEqual(['variants.1.offer.planIds: the offer has no plan "ghost"']);
  });

  it("funnel steps: a field the step type lacks, an order that strands a step, a step that is not there", () => {
    expect(problemsOf(skinStep("3", { headline: "Nope" }))).toEqual(['variants.1.step.headline: a question step has no "headline"']);
    expect(problemsOf(skinStep("2", { next: [{ to: { step: "4" } }] }))).toEqual([
      'variants.1.step.next: step "3": unreachable: no branch leads here from the first step "0"',
    ]);
    expect(problemsOf(skinStep("2", { next: [{ to: { step: "99" } }] }))).toEqual(['variants.1.step.next.0.to.step: no step "99"']);
    expect(problemsOf(skinStep("nope", { title: "x" }))).toEqual(['step: the funnel has no step "nope"']);
  });

  it("a subject that is missing, or of the wrong kind", () => {
    expect(experimentProblems(salesPrice(), {}).map((p) => p.message)).toEqual(["no such offer"]);
    const mixed = salesPrice();
    mixed.funnel = { _ref: "funnel-skin" };
    expect(problemsOf(mixed)).toEqual(["funnel: an offer experiment names no funnel"]);
  });
});

describe("lintExperiments (npm run funnels:check)", () => {
  const files = () =>
    embeddedDataset()
      .filter((d) => d._type === "funnel")
      .map((d) => ({ file: `funnels/${d.id}.json`, doc: structuredClone(d) }));
  const lint = (...experiments: Record<string, unknown>[]) =>
    lintExperiments({ dataset: [...embeddedDataset(), ...(experiments as never[])], files: files(), appRoutes: readAppRoutes() });

  it("passes good experiments", () => {
    expect(lint(salesPrice(), skinStep("14", { cta: { href: "/sales" } }))).toEqual({ errors: [], warnings: [] });
  });

  it("checks where result targets lead, one running experiment per subject, unique ids and references", () => {
    const second = { ...salesPrice(), _id: "experiment-sales-copy", experimentId: "sales-copy" };
    const sameId = { ...salesPrice(), _id: "experiment-old", status: "stopped" };
    const wrongRef = { ...salesPrice(), _id: "experiment-wrong", experimentId: "wrong", status: "stopped", offer: { _ref: "funnel-skin" } };
    const { errors } = lint(salesPrice(), second, sameId, wrongRef, skinStep("14", { cta: { href: "/nowhere" } }));
    expect(errors).toEqual([
      'content: experiment "experiment-old": experimentId: experiment "experiment-sales-price" has the same id',
      'content: experiment "experiment-sales-price": experimentId: experiment "experiment-old" has the same id',
      // Running experiments claim their subject in id order: the later one is told to stop.
      'content: experiment "experiment-sales-price": status: experiment "experiment-sales-copy" already runs on this offer: stop one of them',
      'content: experiment "experiment-skin-14": variants.1.step.cta.href: "/nowhere" is not a page of the app',
      'content: experiment "experiment-wrong": offer: "funnel-skin" is a funnel, not a offer',
    ]);
  });

  it("warns about a running experiment whose variants change nothing", () => {
    const idle = salesPrice();
    delete idle.variants[1].offer;
    expect(lint(idle).warnings).toEqual(['content: experiment "experiment-sales-price": (root): no variant changes anything']);
  });
});

describe("the Studio", () => {
  const stored = () => embeddedDataset().map((d) => toSanityDocument(structuredClone(d)));
  const fetchFrom =
    (docs: Record<string, unknown>[]) =>
    async (query: string, params: Record<string, unknown> = {}) =>
      (await evaluate(parse(query, { params }), { dataset: docs, params })).get();
  const pathText = (path: StudioMarker["path"]) => path.map((p) => (typeof p === "object" ? `[${p._key}]` : String(p))).join(".");
  async function studioErrors(doc: Record<string, unknown>, others: Record<string, unknown>[] = []) {
    const sanity = toSanityDocument(doc as never);
    const docs = [...stored(), ...others.map((o) => toSanityDocument(o as never)), sanity];
    const markers = await validateWithStudio(sanity, fetchFrom(docs));
    return markers.filter((m) => m.level === "error").map((m) => `${pathText(m.path)}: ${m.message}`);
  }

  it("accepts good experiments, including every field's input (cli)", async () => {
    expect(
      await studioErrors(salesPrice({ plans: [{ id: "lifetime", priceMinor: 2499, features: ["Lifetime access"] }], hero: { headline: "Less" } })),
    ).toEqual([]);
    expect(await studioErrors(skinStep("2", { next: [{ to: { step: "3" } }], title: "x", label: "Step 2 of 12" }))).toEqual([]);
    const cli = await validateWithStudio(toSanityDocument(skinStep("14", { cta: { label: "See it", href: "/sales" } }) as never), fetchFrom(stored()), {
      environment: "cli",
    });
    expect(cli.map((m) => `${pathText(m.path)}: ${m.message}`)).toEqual([]);
  });

  it("rejects what the app would, on the field (list items by key)", async () => {
    expect(await studioErrors(salesPrice({ plans: [{ id: "lifetime", priceMinor: 8000 }] }))).toEqual([
      "variants.[lower].offer.plans.[lifetime]: must be more than the price",
    ]);
    const weights = salesPrice();
    weights.variants[0].weight = 0;
    expect(await studioErrors(weights)).toEqual(["variants.[control].weight: must be more than 0"]);
    expect(await studioErrors(skinStep("3", { headline: "Nope" }))).toEqual(['variants.[b].step.headline: a question step has no "headline"']);
  });

  it("a second running experiment on the same offer is flagged on its status", async () => {
    const running = { ...salesPrice(), _id: "experiment-sales-copy", experimentId: "sales-copy", name: "Sales copy" };
    expect(await studioErrors(salesPrice(), [running])).toEqual(['status: "Sales copy" already runs on this offer: stop one of them']);
    expect(await studioErrors({ ...salesPrice(), status: "stopped" }, [running])).toEqual([]);
  });
});
