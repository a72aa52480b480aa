/**
 * What the Studio's pickers offer (studio/choices.ts): a quiz's steps, the answers its
 * questions ask (shared questions included) and their options, a plan's quizzes' answers,
 * an offer's plans, quizzes and the pages content creates; in an experiment, the steps and
 * answers of the quiz it changes and the plans of the offer it changes.
 */
import { evaluate, parse } from "groq-js";
import { describe, expect, it } from "vitest";
import { toSanityDocument } from "~/content/sanity-format";
import {
  answerChoices,
  funnelChoices,
  offerPlanChoices,
  pageChoices,
  pickerChoices,
  sharedQuestionRefs,
  stepChoices,
  valueAt,
  type Picker,
} from "../../studio/choices";
import { studioSchema } from "../../studio/validate";
import { embeddedDataset, funnelDocument, sharedQuestions } from "./helpers";

describe("Studio pickers", () => {
  it("a branch picks one of the quiz's own steps", () => {
    const steps = stepChoices(funnelDocument("skin"));
    expect(steps.map((s) => s.value)).toEqual((funnelDocument("skin").steps as { id: string }[]).map((s) => s.id));
    expect(steps[1].title).toMatch(/^1 · /);
    expect(stepChoices(null)).toEqual([]);
  });

  it("a condition picks an answer the quiz asks, then that answer's options; shared questions count", () => {
    const skin = answerChoices([funnelDocument("skin")], new Map());
    const skinType = skin.find((a) => a.field === "skinType")!;
    expect(skinType.options.map((o) => o.value)).toEqual(["normal", "oily", "dry", "combination", "sensitive", "not-sure"]);
    const cakey = funnelDocument("cakey-makeup");
    const refs = sharedQuestionRefs([cakey]);
    expect(refs).toContain("question-makeup-goal");
    const withShared = answerChoices([cakey], sharedQuestions()).map((a) => a.field);
    const sharedField = (sharedQuestions().get("question-makeup-goal") as { field: string }).field;
    expect(withShared).toContain(sharedField);
    expect(answerChoices([cakey], new Map()).map((a) => a.field)).not.toContain(sharedField);
  });

  it("an offer's sections pick its plans; links pick offers and quizzes; quizzes by id", () => {
    const offers = embeddedDataset().filter((d) => d._type === "offer");
    const funnels = embeddedDataset().filter((d) => d._type === "funnel");
    const subscribe = offers.find((o) => o.path === "/subscribe")!;
    expect(offerPlanChoices(subscribe)).toEqual([
      { value: "annual", title: "annual · Annual Plan" },
      { value: "monthly", title: "monthly · Monthly Plan" },
    ]);
    const pages = pageChoices(offers, funnels).map((p) => p.value);
    expect(pages).toEqual(expect.arrayContaining(["/subscribe", "/sales", "/quiz", "/makeup"]));
    expect(funnelChoices(funnels).map((f) => f.value)).toContain("skin");
  });
});

/** The Studio's client for the pickers: GROQ over the dataset as stored in Sanity. */
const stored = () => embeddedDataset().map((d) => toSanityDocument(structuredClone(d)) as Record<string, unknown>);
const fetchFrom =
  (docs: Record<string, unknown>[]) =>
  async (query: string, params: Record<string, unknown> = {}) =>
    (await evaluate(parse(query, { params }), { dataset: docs, params })).get();

type SchemaType = { name: string; fields?: { name: string; type: SchemaType }[]; of?: SchemaType[]; options?: { picker?: string } };

/** The schema type of the field at `path` in `doc` ({_key} steps into an array's item, of the item's own type). */
function fieldType(doc: Record<string, unknown>, path: (string | { _key: string })[]): SchemaType {
  let type = studioSchema.get(String(doc._type)) as SchemaType | undefined;
  path.forEach((step, i) => {
    const itemType = typeof step === "object" ? (valueAt(doc, path.slice(0, i + 1)) as { _type?: string } | undefined)?._type : undefined;
    type = typeof step === "string" ? type?.fields?.find((f) => f.name === step)?.type : (type?.of?.find((t) => t.name === itemType) ?? type?.of?.[0]);
  });
  if (!type) throw new Error(`${String(doc._type)} has no field at ${JSON.stringify(path)}`);
  return type;
}

/** What the field at `path` of `doc` offers in the Studio: the picker its schema names, run as the Studio runs it. */
async function offered(doc: Record<string, unknown>, path: (string | { _key: string })[], docs = stored()) {
  const picker = fieldType(doc, path).options?.picker as Picker | undefined;
  if (!picker) throw new Error(`${JSON.stringify(path)} is typed, not picked`);
  return pickerChoices(picker, doc, path, fetchFrom(docs));
}

describe("Studio pickers in an experiment: the lists come from the quiz or offer it changes", () => {
  const skin = () => stored().find((d) => d._id === "funnel-skin")!;
  const quizExperiment = {
    _id: "drafts.experiment-skin-result",
    _type: "experiment",
    experimentId: "skin-result",
    name: "Skin result: other offer",
    status: "running",
    kind: "funnel",
    funnel: { _type: "reference", _ref: "funnel-skin" },
    step: "13",
    variants: [
      { _key: "a", name: "As written", key: "a", weight: 1 },
      {
        _key: "b",
        name: "Straight on",
        key: "b",
        weight: 1,
        step: {
          next: [{ _key: "n", when: [{ _key: "c", field: "skinType", anyOf: ["dry"] }], to: { step: "14" } }],
          cta: { label: "See the offer", href: "/sales" },
        },
      },
    ],
  };
  const next = ["variants", { _key: "b" }, "step", "next", { _key: "n" }];

  it("the step, and where a variant leads next, pick from the quiz's own steps", async () => {
    const steps = stepChoices(skin());
    expect(steps.length).toBeGreaterThan(10);
    expect(await offered(quizExperiment, ["step"])).toEqual(steps);
    expect(await offered(quizExperiment, [...next, "to", "step"])).toEqual(steps);
  });

  it("a variant's conditions pick the quiz's answers and their options", async () => {
    const answers = await offered(quizExperiment, [...next, "when", { _key: "c" }, "field"]);
    expect(answers.map((a) => a.value)).toEqual(answerChoices([skin()], new Map()).map((a) => a.field));
    expect(answers.map((a) => a.value)).toContain("skinType");
    const options = await offered(quizExperiment, [...next, "when", { _key: "c" }, "anyOf"]);
    expect(options.map((o) => o.value)).toEqual(["normal", "oily", "dry", "combination", "sensitive", "not-sure"]);
  });

  it("the result button picks a page, as the quiz's own result button does", async () => {
    const pages = await offered(quizExperiment, ["variants", { _key: "b" }, "step", "cta", "href"]);
    expect(pages.map((p) => p.value)).toEqual(expect.arrayContaining(["/subscribe", "/sales", "/quiz"]));
    const resultStep = stored().find((d) => d._id === "funnel-skin")!.steps as { _key: string; type: string }[];
    const result = resultStep.find((s) => s.type === "result")!;
    expect(await offered(skin(), ["steps", { _key: result._key }, "cta", "href"])).toEqual(pages);
  });

  it("an offer experiment's plan changes and plans on sale pick the offer's plans", async () => {
    const offerExperiment = {
      _id: "experiment-sales-price",
      _type: "experiment",
      experimentId: "sales-price",
      name: "Price",
      status: "running",
      kind: "offer",
      offer: { _type: "reference", _ref: "offer-skincare-paywall" },
      variants: [{ _key: "b", name: "Lower", key: "lower", weight: 1, offer: { plans: [{ _key: "p", id: "annual", priceMinor: 4900 }], planIds: ["annual"] } }],
    };
    const plans = [
      { value: "annual", title: "annual · Annual Plan" },
      { value: "monthly", title: "monthly · Monthly Plan" },
    ];
    expect(await offered(offerExperiment, ["variants", { _key: "b" }, "offer", "plans", { _key: "p" }, "id"])).toEqual(plans);
    expect(await offered(offerExperiment, ["variants", { _key: "b" }, "offer", "planIds"])).toEqual(plans);
  });

  it("before the quiz or offer is chosen the lists are empty; a quiz and a plan still offer their own", async () => {
    expect(await offered({ ...quizExperiment, funnel: undefined }, ["step"])).toEqual([]);
    expect(await offered({ _id: "x", _type: "experiment", kind: "offer", variants: [] }, ["variants", { _key: "b" }, "offer", "planIds"])).toEqual([]);
    const step = (skin().steps as { _key: string; next?: { _key: string }[] }[]).find((s) => s.next?.length)!;
    expect(await offered(skin(), ["steps", { _key: step._key }, "next", { _key: step.next![0]._key }, "to", "step"])).toEqual(stepChoices(skin()));
    const plan = stored().find((d) => d._id === "makeup-prep")! as Record<string, any>;
    const rule = plan.products.rules[0];
    const fields = await offered(plan, ["products", "rules", { _key: rule._key }, "when", { _key: rule.when[0]._key }, "field"]);
    expect(fields.map((f) => f.value)).toContain(rule.when[0].field);
  });
});
