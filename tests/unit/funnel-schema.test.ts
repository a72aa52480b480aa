import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { funnelJsonSchema } from "~/funnels/json-schema";
import { resolveFunnel } from "~/content/funnel-resolve";
import { funnelDocument, sharedQuestions } from "./helpers";

type Doc = Record<string, any>;

function problemsAfter(edit: (doc: Doc) => void): string[] {
  const doc = funnelDocument("skin");
  edit(doc);
  const result = resolveFunnel(doc, sharedQuestions());
  return result.ok ? [] : result.problems;
}

describe("funnel schema", () => {
  it("accepts the skin funnel", () => {
    const result = resolveFunnel(funnelDocument("skin"), sharedQuestions());
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.funnel.steps.map((s) => s.id)).toEqual([...Array.from({ length: 15 }, (_, i) => String(i)), "email"]);
  });

  it.each([
    ["a missing continue label", (d: Doc) => delete d.steps[1].continueLabel, "steps.1.continueLabel"],
    ["an unknown step type", (d: Doc) => (d.steps[2].type = "quiz"), "steps.2.type"],
    ["an answer field named like the buttons", (d: Doc) => (d.steps[1].questions[0].field = "intent"), "steps.1.questions.0.field"],
    [
      "a duplicate option value",
      (d: Doc) => (d.steps[1].questions[0].options[1].value = "normal"),
      'steps.1.questions.0.options.1.value: duplicate option value "normal"',
    ],
    ["a branch to a step that does not exist", (d: Doc) => (d.steps[3].next = [{ to: { step: "99" } }]), 'steps.3.next.0.to.step: no step "99"'],
    [
      "a rule on an option that does not exist",
      (d: Doc) => (d.steps[14].pick.rules[0].when[0].anyOf = ["spots"]),
      'steps.14.pick.rules.0.when.0.anyOf.0: "mainConcern" has no option "spots"',
    ],
    [
      "a rule on a field nobody asks",
      (d: Doc) => (d.steps[14].pick.rules[0].when[0].field = "hairType"),
      'steps.14.pick.rules.0.when.0.field: no question asks "hairType"',
    ],
    ["a result without a default insight", (d: Doc) => delete d.steps[14].pick.otherwise, "steps.14.pick.otherwise"],
    [
      "a last branch with conditions",
      (d: Doc) => (d.steps[1].next = [{ when: [{ field: "skinType", anyOf: ["dry"] }], to: { step: "2" } }]),
      "steps.1.next: the last branch must have no conditions",
    ],
    ["a call to action leaving the app", (d: Doc) => (d.steps[14].cta.href = "https://example.com"), "steps.14.cta.href: must be a path inside the app"],
    ["a protocol-relative call to action", (d: Doc) => (d.steps[14].cta.href = "//evil.example"), "steps.14.cta.href"],
    [
      "auto-advance on a multi-choice step",
      (d: Doc) => (d.steps[2].autoAdvanceMs = 300),
      "steps.2.autoAdvanceMs: auto-advance needs exactly one single-choice question",
    ],
    [
      "a field asked twice",
      (d: Doc) => (d.steps[3].questions[0].field = "skinType"),
      'steps.3.questions.0.field: field "skinType" is already asked on step "1"',
    ],
    ["a duplicate step id", (d: Doc) => (d.steps[4].id = "3"), 'steps.4.id: duplicate step id "3"'],
    ["a progress over 100", (d: Doc) => (d.steps[5].progress = 120), "steps.5.progress"],
    ["a misspelt property", (d: Doc) => (d.steps[6].lable = "Step 6 of 12"), "steps.6"],
    [
      "a reference to a missing shared question",
      (d: Doc) => (d.steps[6].questions = [{ _ref: "question-nope" }]),
      'steps.6.questions.0._ref: no question document "question-nope"',
    ],
  ])("rejects %s, naming the path", (_name, edit, expected) => {
    const problems = problemsAfter(edit);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.join("\n")).toContain(expected);
  });

  it("publishes an up-to-date JSON Schema for editors", () => {
    const committed = JSON.parse(fs.readFileSync("funnels/funnel.schema.json", "utf8"));
    expect(committed).toEqual(funnelJsonSchema());
  });
});
