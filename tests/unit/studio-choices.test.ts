/**
 * What the Studio's pickers offer (studio/choices.ts): a quiz's steps, the answers its
 * questions ask (shared questions included) and their options, a plan's quizzes' answers,
 * an offer's plans, quizzes and the pages content creates.
 */
import { describe, expect, it } from "vitest";
import { answerChoices, funnelChoices, offerPlanChoices, pageChoices, sharedQuestionRefs, stepChoices } from "../../studio/choices";
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
