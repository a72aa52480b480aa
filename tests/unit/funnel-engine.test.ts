import { describe, expect, it } from "vitest";
import {
  canContinue,
  continueLabel,
  fillTemplate,
  journey,
  nextTarget,
  pickInsight,
  previousStepId,
  sanitizeAnswers,
  stepAccess,
  toggleChoice,
  type Answers,
} from "~/funnels/engine";
import type { Question, StepOfType } from "~/content-model/funnel";
import { loadFunnel } from "./helpers";

const skin = loadFunnel("skin");
const step = (id: string) => skin.steps.find((s) => s.id === id)!;
const question = (id: string) => step(id) as StepOfType<"question">;

/** A full set of valid skin answers, with overrides. */
function skinAnswers(overrides: Record<string, string | string[]> = {}): Record<string, string | string[]> {
  const answers: Record<string, string | string[]> = {};
  for (const s of skin.steps) {
    if (s.type !== "question") continue;
    for (const q of s.questions) answers[q.field] = q.select === "one" ? q.options[0].value : [q.options[0].value];
  }
  return { ...answers, ...overrides };
}

describe("skin quiz: labels, progress and buttons", () => {
  const questions = skin.steps.filter((s): s is StepOfType<"question"> => s.type === "question");

  it("has twelve question steps labelled 'Step N of 12'", () => {
    expect(questions.map((s) => s.id)).toEqual(Array.from({ length: 12 }, (_, i) => String(i + 1)));
    expect(questions.map((s) => s.label)).toEqual(Array.from({ length: 12 }, (_, i) => `Step ${i + 1} of 12`));
  });

  it("shows progress in twelfths, rounded to one decimal (8.3 … 100)", () => {
    expect(questions.map((s) => s.progress)).toEqual([8.3, 16.7, 25, 33.3, 41.7, 50, 58.3, 66.7, 75, 83.3, 91.7, 100]);
  });

  it("labels each step's continue button with its own text, in order", () => {
    expect(questions.map((s) => continueLabel(s, {}))).toEqual([
      "See My Next Step",
      "Show Me the Fix",
      "Find My Solution",
      "Continue",
      "Continue to My Plan",
      "Continue",
      "Continue",
      "Continue",
      "Next",
      "Next",
      "See My Results",
      "See My Results",
    ]);
  });

  it("makes step 2 the only multi-choice step", () => {
    expect(questions.filter((s) => s.questions[0].select === "many").map((s) => s.id)).toEqual(["2"]);
  });

  it("starts with the intro and ends with analysing (3000 ms) then the result", () => {
    const intro = step("0") as StepOfType<"intro">;
    expect(intro.type).toBe("intro");
    expect(intro.headline).toBe("Get the exact routine your skin needs");
    expect(intro.badges).toEqual(["Dermatologist Approved", "4.9 rating", "Proven by 10,000+ users"]);
    expect(intro.buttonLabel).toBe("Get My Clear Skin Plan");
    expect(intro.resetAnswers).toBe(true);
    expect(step("13")).toMatchObject({ type: "analysing", durationMs: 3000 });
    // The skin quiz sells the skincare plan at /subscribe (ADR 14), not the makeup-prep offer at /subscribe-otp.
    expect(step("14")).toMatchObject({ type: "result", cta: { href: "/subscribe" } });
  });
});

describe("moving through a funnel", () => {
  it("goes from each step to the next one", () => {
    expect(nextTarget((step("0") as StepOfType<"intro">).next, {})).toEqual({ step: "1" });
    for (let n = 1; n <= 12; n++) expect(nextTarget(question(String(n)).next, skinAnswers())).toEqual({ step: String(n + 1) });
    // The analysing screen leads to the e-mail step (ADR 44), which leads to the result.
    expect(nextTarget((step("13") as StepOfType<"analysing">).next, {})).toEqual({ step: "email" });
    expect(nextTarget((step("email") as StepOfType<"email">).next, {})).toEqual({ step: "14" });
  });

  it("takes the first branch whose conditions hold", () => {
    const next = [
      { when: [{ field: "skinType", anyOf: ["dry"] }], to: { step: "5" } },
      { when: [{ field: "skinType", answered: true }], to: { href: "/somewhere" } },
      { to: { step: "2" } },
    ];
    expect(nextTarget(next, { skinType: "dry" })).toEqual({ step: "5" });
    expect(nextTarget(next, { skinType: "oily" })).toEqual({ href: "/somewhere" });
    expect(nextTarget(next, {})).toEqual({ step: "2" });
  });

  it("enables Continue only once the step is answered", () => {
    expect(canContinue(question("1"), {})).toBe(false);
    expect(canContinue(question("1"), { skinType: "dry" })).toBe(true);
    expect(canContinue(question("1"), { skinType: "shiny" })).toBe(false);
    expect(canContinue(question("2"), { mainConcern: [] })).toBe(false);
    expect(canContinue(question("2"), { mainConcern: ["acne", "redness"] })).toBe(true);
    expect(canContinue(step("13"), {})).toBe(true);
  });

  it("walks the journey up to the first unanswered question", () => {
    const answers = { skinType: "dry", mainConcern: ["acne"] };
    const walked = journey(skin, answers);
    expect(walked.steps.map((s) => s.id)).toEqual(["0", "1", "2", "3"]);
    expect(walked.end).toBe("unanswered");
    expect(journey(skin, skinAnswers()).end).toBe("result");
  });

  it("sends a deep link without answers to step 1", () => {
    expect(stepAccess(skin, "7", {}, false)).toEqual({ ok: false, redirectTo: "/quiz/1" });
    expect(stepAccess(skin, "13", {}, false)).toEqual({ ok: false, redirectTo: "/quiz/1" });
    expect(stepAccess(skin, "14", {}, false)).toEqual({ ok: false, redirectTo: "/quiz/1" });
    expect(stepAccess(skin, "0", {}, false)).toEqual({ ok: true });
    expect(stepAccess(skin, "1", {}, false)).toEqual({ ok: true });
  });

  it("sends a jump ahead to the first unanswered step, and lets answered steps be revisited", () => {
    const answers = { skinType: "dry", mainConcern: ["acne"] };
    expect(stepAccess(skin, "9", answers, false)).toEqual({ ok: false, redirectTo: "/quiz/3" });
    expect(stepAccess(skin, "3", answers, false)).toEqual({ ok: true });
    expect(stepAccess(skin, "1", answers, false)).toEqual({ ok: true });
  });

  it("keeps a worked-out result visible after the answers are cleared", () => {
    expect(stepAccess(skin, "14", {}, true)).toEqual({ ok: true });
    expect(stepAccess(skin, "13", {}, true)).toEqual({ ok: false, redirectTo: "/quiz/1" });
  });

  it("goes back to the previous step, never to the analysing screen", () => {
    expect(previousStepId(skin, "1", {})).toBe("0");
    expect(previousStepId(skin, "5", skinAnswers())).toBe("4");
    expect(previousStepId(skin, "14", skinAnswers())).toBe("email");
    expect(previousStepId(skin, "email", skinAnswers())).toBe("12");
    expect(previousStepId(skin, "0", {})).toBeUndefined();
  });
});

describe("exclusive and skippable multi-choice questions", () => {
  const owned: Question = {
    field: "ownedProducts",
    select: "many",
    options: [
      { value: "primer", label: "Primer" },
      { value: "setting-spray", label: "Setting spray" },
      { value: "none", label: "None of these", exclusive: true },
    ],
  };
  const ownedStep: StepOfType<"question"> = {
    id: "3",
    type: "question",
    title: "Which do you already own?",
    questions: [owned],
    layout: "list",
    continueLabel: "Continue",
    continueWhenUnanswered: "hidden",
    skipLabel: "Skip this step",
    next: [{ to: { href: "/sales" } }],
  };

  it("'none' clears the other choices and others clear 'none'", () => {
    expect(toggleChoice(owned, ["primer", "setting-spray"], "none")).toEqual(["none"]);
    expect(toggleChoice(owned, ["none"], "primer")).toEqual(["primer"]);
    expect(toggleChoice(owned, ["none"], "none")).toEqual([]);
    expect(toggleChoice(owned, ["primer"], "setting-spray")).toEqual(["primer", "setting-spray"]);
  });

  it("an empty list (a skipped step) counts as answered only where the step can be skipped", () => {
    expect(canContinue(ownedStep, { ownedProducts: [] })).toBe(true);
    expect(canContinue({ ...ownedStep, skipLabel: undefined }, { ownedProducts: [] })).toBe(false);
  });
});

describe("skin result rules", () => {
  const result = step("14") as StepOfType<"result">;
  const skinTypes = ["normal", "oily", "dry", "combination", "sensitive", "not-sure"];
  const concernSets = [
    ["acne"],
    ["redness"],
    ["uneven-tone"],
    ["dark-spots"],
    ["large-pores"],
    ["fine-lines"],
    ["redness", "acne"],
    ["dark-spots", "uneven-tone"],
    ["large-pores", "fine-lines"],
  ];

  /** The rules as the product decided them: concerns first (acne, redness, dark spots, uneven), then dry or oily skin. */
  function expected(skinType: string, concerns: string[]): string {
    if (concerns.includes("acne")) return "insight-skin-acne";
    if (concerns.includes("redness")) return "insight-skin-redness";
    if (concerns.includes("dark-spots")) return "insight-skin-dark-spots";
    if (concerns.includes("uneven-tone")) return "insight-skin-uneven";
    if (skinType === "dry") return "insight-skin-dry";
    if (skinType === "oily") return "insight-skin-oily";
    return "insight-skin-balanced";
  }

  for (const skinType of skinTypes) {
    for (const concerns of concernSets) {
      it(`${skinType} skin with ${concerns.join(" + ")} → ${expected(skinType, concerns)}`, () => {
        expect(pickInsight(result.pick, skinAnswers({ skinType, mainConcern: concerns }))._ref).toBe(expected(skinType, concerns));
      });
    }
  }

  it("every rule can be reached", () => {
    const reached = new Set(skinTypes.flatMap((t) => concernSets.map((c) => pickInsight(result.pick, skinAnswers({ skinType: t, mainConcern: c }))._ref)));
    for (const rule of result.pick.rules) expect(reached).toContain(rule.insight._ref);
    expect(reached).toContain(result.pick.otherwise._ref);
  });
});

describe("words on screen", () => {
  it("fills {field} placeholders with the options' short wording", () => {
    const answers: Answers = { skinType: "not-sure", timeWillingness: "5-10", mainConcern: ["acne", "redness", "dark-spots"] };
    expect(fillTemplate("Built for {skinType}, in {timeWillingness} a day.", skin, answers)).toBe(
      "Built for skin you're still getting to know, in 5-10 minutes a day.",
    );
    expect(fillTemplate("Focus: {mainConcern}.", skin, answers)).toBe("Focus: breakouts, redness and dark spots.");
    expect(fillTemplate("No answer: {environment}.", skin, answers)).toBe("No answer: .");
  });

  it("puts the chosen option in a 'Continue with {choice}' label", () => {
    const goal = {
      continueLabel: "Continue with {choice}",
      questions: [
        {
          field: "goal",
          select: "one" as const,
          options: [
            { value: "crease-crisis", label: "Crease Crisis" },
            { value: "everyday", label: "Everyday Makeup" },
          ],
        },
      ],
    };
    expect(continueLabel(goal, { goal: "crease-crisis" })).toBe("Continue with Crease Crisis");
    expect(continueLabel(goal, {})).toBe("Continue");
  });

  it("drops answers the funnel no longer asks or options it no longer has", () => {
    expect(sanitizeAnswers(skin, { skinType: "dry", mainConcern: ["acne", "acne"], hairType: "curly", urgency: "yesterday", stressSleep: ["often"] })).toEqual({
      skinType: "dry",
      mainConcern: ["acne"],
    });
  });
});
