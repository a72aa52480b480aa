/**
 * Every funnel's result rules over all combinations of the answers they read, against
 * the rules as the product states them (written here independently of the JSON).
 */
import { describe, expect, it } from "vitest";
import { continueLabel, journey, nextTarget, pickInsight, stepAccess, type Answers } from "~/funnels/engine";
import type { Funnel, Step, StepOfType } from "~/content-model/funnel";
import { loadFunnel } from "./helpers";

function stepOf<T extends Step["type"]>(funnel: Funnel, id: string): StepOfType<T> {
  const step = funnel.steps.find((s) => s.id === id);
  if (!step) throw new Error(`${funnel.id} has no step ${id}`);
  return step as StepOfType<T>;
}

function optionsOf(funnel: Funnel, field: string): string[] {
  for (const step of funnel.steps) {
    if (step.type !== "question") continue;
    const question = step.questions.find((q) => q.field === field);
    if (question) return question.options.map((o) => o.value);
  }
  throw new Error(`${funnel.id} does not ask ${field}`);
}

/** All combinations of the given fields' options. */
function combinations(funnel: Funnel, fields: string[]): Record<string, string>[] {
  return fields.reduce<Record<string, string>[]>(
    (acc, field) => acc.flatMap((partial) => optionsOf(funnel, field).map((value) => ({ ...partial, [field]: value }))),
    [{}],
  );
}

/** One valid answer for every question, then the overrides. */
function fullAnswers(funnel: Funnel, overrides: Record<string, string | string[]>): Answers {
  const answers: Record<string, string | string[]> = {};
  for (const step of funnel.steps) {
    if (step.type !== "question") continue;
    for (const q of step.questions) answers[q.field] = q.select === "one" ? q.options[0].value : [q.options[0].value];
  }
  return { ...answers, ...overrides };
}

describe("makeup prep quiz", () => {
  const makeup = loadFunnel("makeup");
  const result = stepOf<"result">(makeup, "result");

  function expected({ skinType, biggestFrustration: f }: Record<string, string>): string {
    if (skinType === "dry" && (f === "patchy" || f === "textured")) return "insight-makeup-dry-base";
    if ((skinType === "oily" || skinType === "combination") && (f === "short-lasting" || f === "creasing")) return "insight-makeup-oil-control";
    return {
      creasing: "insight-makeup-creasing",
      textured: "insight-makeup-texture",
      patchy: "insight-makeup-patchy",
      "short-lasting": "insight-makeup-longevity",
    }[f]!;
  }

  const cases = combinations(makeup, ["skinType", "biggestFrustration"]);
  it(`covers all ${cases.length} skin type × frustration combinations`, () => {
    expect(cases).toHaveLength(20);
    for (const answers of cases) expect(pickInsight(result.pick, fullAnswers(makeup, answers))._ref, JSON.stringify(answers)).toBe(expected(answers));
  });

  it("has its intro, eight steps at 12.5% each, the analysing step (3000 ms) and a result leading to /subscribe-otp", () => {
    const intro = stepOf<"intro">(makeup, "0");
    expect([intro.headline, intro.buttonLabel]).toEqual(["Tired of Cakey, Patchy Foundation?", "Fix My Makeup Routine"]);
    const questions = makeup.steps.filter((s): s is StepOfType<"question"> => s.type === "question");
    expect(questions.map((s) => s.label)).toEqual([
      "Step 1 of 8",
      "Step 2 of 8",
      "Step 3 of 8",
      "Step 4 of 8",
      "Step 5 of 8",
      "Step 6 of 8",
      "Final Question",
      "Get My Results",
    ]);
    expect(questions.map((s) => s.progress)).toEqual([12.5, 25, 37.5, 50, 62.5, 75, 87.5, 100]);
    expect(questions.map((s) => s.layout)).toEqual(Array(8).fill("list"));
    expect(stepOf<"analysing">(makeup, "9").durationMs).toBe(3000);
    expect(result.title).toBe("Your Personalized Makeup Prep Plan is Ready");
    expect(result.cta.href).toBe("/subscribe-otp");
  });
});

describe("cakey makeup quiz", () => {
  const cakey = loadFunnel("cakey-makeup");
  const makeup = loadFunnel("makeup");
  const result = stepOf<"result">(cakey, "result");
  const insight = stepOf<"insight">(cakey, "5");

  function expected(a: Record<string, string>): string {
    if (a.prepRoutine === "rarely") return "insight-cakey-no-prep";
    if (a.skinType === "oily-combination" && (a.makeupFrequency === "separates" || a.makeupFrequency === "creases")) return "insight-cakey-oil";
    if (a.skinType === "dry") return "insight-cakey-dry";
    if (a.biggestFrustration === "cakey-heavy") return "insight-cakey-too-much";
    if (a.biggestFrustration === "fades-quickly") return "insight-cakey-no-grip";
    return "insight-cakey-general";
  }

  const cases = combinations(cakey, ["biggestFrustration", "makeupFrequency", "prepRoutine", "skinType"]);
  it(`the mid-quiz insight follows the rules over all ${cases.length} combinations`, () => {
    expect(cases).toHaveLength(3 * 4 * 3 * 4);
    for (const answers of cases) expect(pickInsight(insight.pick, fullAnswers(cakey, answers))._ref, JSON.stringify(answers)).toBe(expected(answers));
  });

  it("the result shows the plan for the goal (the insight was shown at step 5: never the same screen twice)", () => {
    for (const goal of optionsOf(cakey, "mainGoal"))
      expect(pickInsight(result.pick, fullAnswers(cakey, { mainGoal: goal }))._ref).toBe(`insight-cakey-plan-${goal}`);
    expect(pickInsight(result.pick, {})._ref).toBe("insight-cakey-plan-general");
  });

  it("asks the makeup quiz's own longevity, concern and goal questions at steps 6-8", () => {
    for (const [cakeyStep, makeupStep] of [
      ["6", "6"],
      ["7", "7"],
      ["8", "8"],
    ]) {
      expect(stepOf<"question">(cakey, cakeyStep).questions).toEqual(stepOf<"question">(makeup, makeupStep).questions);
    }
  });

  it("goes 4 → insight → 6 → 7 → 8 → analysing → result, auto-advancing after 300 ms", () => {
    expect(nextTarget(stepOf<"question">(cakey, "4").next, {})).toEqual({ step: "5" });
    expect(nextTarget(insight.next, {})).toEqual({ step: "6" });
    // The spec sent step 8 back to the insight, so it showed twice (issue 27): on to the analysing step.
    expect(nextTarget(stepOf<"question">(cakey, "8").next, {})).toEqual({ step: "9" });
    expect(nextTarget(insight.next, { mainGoal: "smooth-base" })).toEqual({ step: "9" });
    expect(journey(cakey, fullAnswers(cakey, {})).end).toBe("result");
    for (const id of ["1", "2", "3", "4", "6", "7", "8"]) expect(stepOf<"question">(cakey, id).autoAdvanceMs).toBe(300);
    expect(result.cta.href).toBe("/cakey-otp");
  });
});

describe("crease quiz", () => {
  const crease = loadFunnel("crease-crisis");
  const result = stepOf<"result">(crease, "7");

  function expected(a: Record<string, string>): string {
    if (a.foundationCreasing === "lunchtime") return "insight-crease-lunchtime";
    if (a.creasingLocation === "under-eyes") return "insight-crease-under-eyes";
    if (a.creasingFeeling === "self-conscious") return "insight-crease-self-conscious";
    return "insight-crease-generic";
  }

  const cases = combinations(crease, ["foundationCreasing", "creasingLocation", "creasingFeeling"]);
  it(`picks the first matching insight (lunchtime creasing, then under-eye creasing, then self-conscious, else generic) over all ${cases.length} combinations`, () => {
    expect(cases).toHaveLength(48);
    for (const answers of cases) expect(pickInsight(result.pick, fullAnswers(crease, answers))._ref, JSON.stringify(answers)).toBe(expected(answers));
  });

  it("has five auto-advancing steps labelled 'N of 5', analysing at 6 and the result at 7", () => {
    const questions = crease.steps.filter((s): s is StepOfType<"question"> => s.type === "question");
    expect(questions.map((s) => [s.id, s.label, s.autoAdvanceMs])).toEqual([1, 2, 3, 4, 5].map((n) => [String(n), `${n} of 5`, 500]));
    expect(stepOf<"analysing">(crease, "6").durationMs).toBe(3000);
    expect(result.cta.href).toBe("/sales");
  });
});

describe("prototype app flow", () => {
  const quiz = loadFunnel("app-quiz");
  const goal = loadFunnel("app-goal");
  const crease = loadFunnel("app-crease");

  it("advances on a tap at steps 1, 4, 5 and 6, has no back links, and ends at the insights", () => {
    const questions = quiz.steps as StepOfType<"question">[];
    expect(questions.filter((s) => s.autoAdvanceMs !== undefined).map((s) => s.id)).toEqual(["1", "4", "5", "6"]);
    expect(questions.every((s) => s.back === false)).toBe(true);
    expect(stepOf<"question">(quiz, "2").continueWhenUnanswered).toBe("hidden");
    expect(stepOf<"question">(quiz, "3").questions.map((q) => q.field)).toEqual(["skinTone", "undertone"]);
    expect(journey(quiz, fullAnswers(quiz, {})).end).toBe("leaves");
    expect(nextTarget(stepOf<"question">(quiz, "6").next, {})).toEqual({ href: "/app-insights" });
  });

  it("needs both tone and undertone", () => {
    const tone = stepOf<"question">(quiz, "3");
    expect(stepAccess(quiz, "4", { skinType: "oily", skinConcerns: ["redness"], skinTone: "fair" }, false)).toEqual({ ok: false, redirectTo: "/app-quiz/3" });
    expect(continueLabel(tone, {})).toBe("Continue");
  });

  it("sends Crease Crisis to /app-crease and Everyday Makeup to the makeup prep quiz", () => {
    const step = stepOf<"question">(goal, "goal");
    expect(nextTarget(step.next, { selectedGoal: "crease-crisis" })).toEqual({ href: "/app-crease" });
    expect(nextTarget(step.next, { selectedGoal: "everyday-makeup" })).toEqual({ href: "/makeup" });
    expect(continueLabel(step, { selectedGoal: "everyday-makeup" })).toBe("Continue with Everyday Makeup");
  });

  it("ends the crease plan at the crease-free offer, skippable owned products included", () => {
    const owned = stepOf<"question">(crease, "3");
    expect(owned.skipLabel).toBe("Skip this step");
    expect(owned.questions[0].options.find((o) => o.value === "none")?.exclusive).toBe(true);
    expect(nextTarget(owned.next, { ownedProducts: [] })).toEqual({ href: "/sales" });
  });
});
