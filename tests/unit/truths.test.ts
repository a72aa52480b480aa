/**
 * Smaller truths (issue 27, item 7) where the rule is pure: each insight shown once, a plan
 * badged personal only when it changed, tutorial products by the plan's rules, the copy
 * after a streak freeze, the admin's funnels grouped by flow, and video promised only where
 * the content has one.
 */
import { evaluate, parse } from "groq-js";
import { describe, expect, it } from "vitest";
import { funnelFlows } from "~/admin/flows";
import { funnelReports, type EventRow } from "~/admin/metrics";
import { PLAN_BY_ID } from "~/content/queries";
import { ResolvedPlan, type Product } from "~/content-model/content-types";
import { canContinue, findStep, nextTarget, pickInsight, type Answers } from "~/funnels/engine";
import type { Funnel, StepOfType } from "~/content-model/funnel";
import { weeklyCompletions } from "~/members/calendar";
import { freezeNote } from "~/members/freeze-note";
import { personalisePlan, tutorialPicks } from "~/members/personalise";
import { embeddedDataset, loadFunnel } from "./helpers";

const docs = embeddedDataset();
async function plan(id: string): Promise<ResolvedPlan> {
  return ResolvedPlan.parse(await (await evaluate(parse(PLAN_BY_ID, { params: { id } }), { dataset: docs, params: { id } })).get());
}

/**
 * A visitor going through a funnel the way a person does: answers arrive one step at a time
 * (the first option of each question), so a branch on a later answer sees it only once given.
 * Returns the insight documents shown, in order, one per insight or result screen.
 */
function insightsShown(funnel: Funnel, choose: (field: string, options: string[]) => string): string[] {
  const answers: Record<string, string | string[]> = {};
  const shown: string[] = [];
  let step = funnel.steps[0];
  for (let guard = 0; guard < 50; guard++) {
    if (step.type === "question") {
      for (const q of step.questions) {
        const value = choose(
          q.field,
          q.options.map((o) => o.value),
        );
        answers[q.field] = q.select === "one" ? value : [value];
      }
      expect(canContinue(step, answers as Answers)).toBe(true);
    }
    if (step.type === "insight" || step.type === "result") shown.push(pickInsight(step.pick, answers as Answers)._ref);
    if (step.type === "result") return shown;
    const target = nextTarget(step.next, answers as Answers);
    if ("href" in target) return shown;
    step = findStep(funnel, target.step)!;
  }
  throw new Error("the funnel never ends");
}

describe("the cakey quiz", () => {
  const cakey = loadFunnel("cakey-makeup");

  it("shows each insight once, whatever the answers", () => {
    for (const pickFirst of [true, false]) {
      for (const skinType of ["oily-combination", "dry", "normal", "sensitive"]) {
        const shown = insightsShown(cakey, (field, options) => (field === "skinType" ? skinType : pickFirst ? options[0] : options[options.length - 1]));
        expect(shown.length, JSON.stringify(shown)).toBe(new Set(shown).size);
        expect(shown.length).toBeGreaterThanOrEqual(1);
      }
    }
  });

  it("still shows its mid-quiz insight after step 4 and ends on a result leading to /cakey-otp", () => {
    const shown = insightsShown(cakey, (_, options) => options[0]);
    expect(shown.length).toBe(2);
    expect(nextTarget((findStep(cakey, "4") as StepOfType<"question">).next, {})).toEqual({ step: "5" });
  });
});

describe("the Personalized badge", () => {
  it("is earned only when the answers changed a step, the products or the tips", async () => {
    const skincare = await plan("clear-healthy-skin");
    // Answered, but nothing in the plan reads these answers: the general plan.
    const untouched = personalisePlan(skincare, { environment: "city" });
    expect(untouched).toMatchObject({ personalised: false, reason: null });
    expect(untouched.steps).toEqual(personalisePlan(skincare, {}).steps);
    // Oily, acne-prone skin changes the steps and the products.
    expect(personalisePlan(skincare, { skinType: "oily", mainConcern: ["acne"] })).toMatchObject({
      personalised: true,
      reason: "For your oily, acne-prone skin",
    });
  });
});

describe("tutorial product picks", () => {
  const product = (id: string, kind: string): Product =>
    ({
      _id: id,
      _type: "product",
      name: id,
      kind,
      description: "d",
      details: ["x"],
      image: { src: "/images/products/jar.svg", width: 240, height: 240, alt: "" },
    }) as unknown as Product;
  const gel = product("gel-cleanser", "Cleanser");
  const balm = product("cleansing-balm", "Cleanser");
  const cream = product("cream-cleanser", "Cleanser");
  const serum = product("ha-serum", "Serum");
  const spf = product("spf", "Sunscreen");

  it("swaps a page's product for the plan's pick of the same kind, keeping the rest", () => {
    expect(tutorialPicks([gel, balm], [cream, serum]).map((p) => p._id)).toEqual(["cream-cleanser", "cleansing-balm"]);
    expect(tutorialPicks([spf, serum], [cream, product("niacinamide", "Serum")]).map((p) => p._id)).toEqual(["spf", "niacinamide"]);
  });

  it("keeps the page as written without picks from the plan's rules, and never shows one product twice", () => {
    expect(tutorialPicks([gel, balm], null)).toEqual([gel, balm]);
    expect(tutorialPicks([gel, balm], [balm]).map((p) => p._id)).toEqual(["cleansing-balm", "gel-cleanser"]);
  });

  it("on the real skincare plan, dry skin's tutorial recommends the plan's cream cleanser", async () => {
    const skincare = await plan("clear-healthy-skin");
    const dry = personalisePlan(skincare, { skinType: "dry", mainConcern: ["fine-lines"] });
    expect(dry.productPicks?.map((p) => p.name)).toContain("Cream Cleanser");
    const page = docs.find((d) => d._id === "tutorial-step-1") as unknown as { recommended: { _ref: string }[] };
    const recommended = page.recommended.map((r) => docs.find((d) => d._id === r._ref) as unknown as Product);
    expect(tutorialPicks(recommended, dry.productPicks).map((p) => p.name)).toContain("Cream Cleanser");
    expect(personalisePlan(skincare, {}).productPicks).toBeNull();
  });
});

describe("the note after a streak freeze", () => {
  const today = "2026-11-19"; // a Thursday
  it("says a freeze covered the missed day, and what comes next", () => {
    const week = weeklyCompletions(["2026-11-16", "2026-11-17", "2026-11-19"], today, ["2026-11-18"]);
    expect(freezeNote({ freezesHeld: 0, weeklyCompletions: week })).toBe(
      "A streak freeze covered Wednesday, so your streak lives on. Finish 7 days in a row to earn another.",
    );
    expect(freezeNote({ freezesHeld: 1, weeklyCompletions: week })).toBe("A streak freeze covered Wednesday, so your streak lives on. 1 streak freeze left.");
  });

  it("otherwise says how to earn one, or how many are held", () => {
    const week = weeklyCompletions(["2026-11-18"], today);
    expect(freezeNote({ freezesHeld: 0, weeklyCompletions: week })).toBe("Finish 7 days in a row to earn a streak freeze.");
    expect(freezeNote({ freezesHeld: 2, weeklyCompletions: week })).toBe("2 streak freezes held: a missed day uses one, so your streak lives on.");
  });
});

describe("the admin's funnels", () => {
  const funnels = ["skin", "makeup", "cakey-makeup", "crease-crisis", "app-prototype", "app-quiz", "app-insights", "app-goal", "app-crease"].map(loadFunnel);

  it("are the quizzes and one prototype app flow, its pages in order, not five funnels", () => {
    const flows = funnelFlows(funnels);
    expect(flows.map((f) => f.id).sort()).toEqual(["app-prototype", "cakey-makeup", "crease-crisis", "makeup", "skin"]);
    const app = flows.find((f) => f.id === "app-prototype")!;
    expect(app.title).toBe("Prototype app");
    expect(app.parts).toEqual(["app-prototype", "app-quiz", "app-insights", "app-goal", "app-crease"]);
    expect(app.steps.map((s) => `${s.funnel}/${s.id}`)).toEqual([
      "app-quiz/1",
      "app-quiz/2",
      "app-quiz/3",
      "app-quiz/4",
      "app-quiz/5",
      "app-quiz/6",
      "app-goal/goal",
      "app-crease/1",
      "app-crease/2",
      "app-crease/3",
    ]);
    expect(flows.find((f) => f.id === "skin")).toMatchObject({ title: "Skin quiz", parts: ["skin"] });
  });

  it("count a flow's visitors once across its pages, and its completions at its last page", () => {
    const at = new Date("2026-11-20T10:00:00Z");
    const ev = (visitorId: string, name: string, funnel: string, step: string | null = null): EventRow => ({
      visitorId,
      name,
      funnel,
      step,
      props: {},
      userId: null,
      createdAt: at,
    });
    const log = [
      ev("a", "funnel_viewed", "app-prototype"),
      ev("a", "funnel_viewed", "app-quiz"),
      ev("a", "step_answered", "app-quiz", "1"),
      ev("a", "funnel_completed", "app-quiz"),
      ev("a", "funnel_viewed", "app-crease"),
      ev("a", "funnel_completed", "app-crease"),
      ev("b", "funnel_viewed", "app-quiz"),
    ];
    const app = funnelReports(log, funnelFlows(funnels), new Date("2026-11-01"), log).find((r) => r.id === "app-prototype")!;
    expect(app).toMatchObject({ title: "Prototype app", views: 2, completions: 1 });
    expect(app.steps.find((s) => s.id === "app-quiz/1")?.visitors).toBe(1);
  });
});

describe("video", () => {
  /** Every string a visitor can read in these documents. */
  function texts(value: unknown, out: string[] = []): string[] {
    if (typeof value === "string") out.push(value);
    else if (Array.isArray(value)) for (const v of value) texts(v, out);
    else if (value && typeof value === "object")
      for (const [key, v] of Object.entries(value)) if (!key.startsWith("_") && key !== "video" && key !== "src" && key !== "href") texts(v, out);
    return out;
  }

  it("is promised to members only when the content has one", () => {
    const hasVideo = docs.some((d) => (d._type === "plan" ? JSON.stringify(d).includes('"video":{') : d._type === "tutorialStep" && !!d.video));
    // The partnerships page sells the platform to brands (it plays their videos): not a promise about this content.
    const memberCopy = docs.filter((d) => !["partnershipsPage", "question"].includes(d._type));
    const promises = memberCopy.flatMap((d) =>
      texts(d)
        .filter((t) => /\bvideos?\b/i.test(t))
        .map((t) => `${d._id}: ${t}`),
    );
    if (!hasVideo) expect(promises).toEqual([]);
  });
});
