/**
 * A funnel step's form, read as a browser (or a tampered request) posts it: parseForm with
 * the step's schema. What a refused form shows is what formErrorsOf reads from the reply.
 */
import { describe, expect, it } from "vitest";
import { stepFormSchema } from "~/funnels/answer-form";
import { canContinue } from "~/funnels/engine";
import type { Question, Step, StepOfType } from "~/content-model/funnel";
import { formErrorsOf } from "~/utils/form-errors";
import { MAX_FORM_BYTES, parseForm } from "~/utils/form.server";
import { loadFunnel } from "./helpers";

const skin = loadFunnel("skin");
const step = (id: string) => skin.steps.find((s) => s.id === id)!;

function post(body: string, contentType = "application/x-www-form-urlencoded") {
  return new Request("http://localhost/quiz/1", { method: "POST", body, headers: { "Content-Type": contentType } });
}

/** The answers the step's form saves, or the messages and status it is refused with. */
async function answer(at: Step, body: string, contentType?: string) {
  const { submission, status } = await parseForm(post(body, contentType), stepFormSchema(at));
  if (submission.status === "success") return { answers: submission.value };
  return { status, errors: formErrorsOf(submission.reply()) };
}

const refused = (...errors: string[]) => ({ status: 400, errors });

function questionStep(questions: Question[], extra: Partial<StepOfType<"question">> = {}): StepOfType<"question"> {
  return {
    id: "3",
    type: "question",
    title: "A question",
    questions,
    layout: "list",
    continueLabel: "Continue",
    continueWhenUnanswered: "disabled",
    next: [{ to: { href: "/sales" } }],
    ...extra,
  };
}

describe("a single-choice step (skin quiz step 1)", () => {
  it("saves one known option; an explicit 'continue' is the same", async () => {
    expect(await answer(step("1"), "skinType=oily")).toEqual({ answers: { skinType: "oily" } });
    expect(await answer(step("1"), "intent=continue&skinType=oily")).toEqual({ answers: { skinType: "oily" } });
  });

  it.each([
    ["nothing chosen", "", "Please choose an answer to continue."],
    ["an empty answer", "skinType=", "Please choose an answer to continue."],
    ["an unknown option", "skinType=shiny", '"shiny" is not one of the options.'],
    ["two values for a single choice", "skinType=oily&skinType=dry", "Please choose only one answer."],
    ["a field the step does not ask", "skinType=oily&email=x%40example.com", 'This step does not ask for "email".'],
    ["an unknown intent", "intent=finish", '"finish" is not something this step can do.'],
    ["a skip on a step that cannot be skipped", "intent=skip", '"skip" is not something this step can do.'],
  ])("refuses %s", async (_name, body, message) => {
    expect(await answer(step("1"), body)).toEqual(refused(message));
  });
});

describe("a multi-choice step (skin quiz step 2)", () => {
  it("saves several known options, in the order sent", async () => {
    expect(await answer(step("2"), "mainConcern=acne&mainConcern=redness")).toEqual({ answers: { mainConcern: ["acne", "redness"] } });
    expect(await answer(step("2"), "mainConcern=acne")).toEqual({ answers: { mainConcern: ["acne"] } });
  });

  it.each([
    ["nothing chosen", "", "Please choose at least one option to continue."],
    ["a repeated option", "mainConcern=acne&mainConcern=acne", "Each option can only be chosen once."],
    ["an unknown option among known ones", "mainConcern=acne&mainConcern=wrinkles", '"wrinkles" is not one of the options.'],
    ["a field the step does not ask", "mainConcern=acne&coupon=FREE", 'This step does not ask for "coupon".'],
  ])("refuses %s", async (_name, body, message) => {
    expect(await answer(step("2"), body)).toEqual(refused(message));
  });
});

describe("questions with labels and a minimum", () => {
  const tone: Question = {
    field: "skinTone",
    label: "Skin tone",
    select: "one",
    options: [
      { value: "fair", label: "Fair" },
      { value: "deep", label: "Deep" },
    ],
  };
  const goals: Question = {
    field: "goals",
    label: "Goals",
    select: "many",
    minSelected: 2,
    options: [
      { value: "glow", label: "Glow" },
      { value: "calm", label: "Calm" },
      { value: "clear", label: "Clear" },
    ],
  };
  const both = questionStep([tone, goals]);

  it("needs every question answered, and says which one is missing", async () => {
    expect(await answer(both, "skinTone=fair&goals=glow&goals=calm")).toEqual({ answers: { skinTone: "fair", goals: ["glow", "calm"] } });
    expect(await answer(both, "goals=glow&goals=calm")).toEqual(refused('Please choose an answer for "Skin tone" to continue.'));
    expect(await answer(both, "skinTone=fair&goals=glow")).toEqual(refused('Please choose at least 2 options for "Goals" to continue.'));
    expect(await answer(both, "skinTone=fair&goals=glow&goals=tan")).toEqual(refused('"tan" is not one of the options for "Goals".'));
    expect(await answer(both, "skinTone=fair&skinTone=deep&goals=glow&goals=calm")).toEqual(refused('Please choose only one answer for "Skin tone".'));
  });

  it("answers each question's problem at once", async () => {
    expect(await answer(both, "")).toEqual(
      refused('Please choose an answer for "Skin tone" to continue.', 'Please choose at least 2 options for "Goals" to continue.'),
    );
  });
});

describe("exclusive options and the skip link", () => {
  const owned: Question = {
    field: "ownedProducts",
    select: "many",
    options: [
      { value: "primer", label: "Primer" },
      { value: "setting-spray", label: "Setting spray" },
      { value: "none", label: "None of these", exclusive: true },
    ],
  };
  const ownedStep = questionStep([owned], { skipLabel: "Skip this step", continueWhenUnanswered: "hidden" });

  it("saves an exclusive option alone, and refuses it with others", async () => {
    expect(await answer(ownedStep, "ownedProducts=none")).toEqual({ answers: { ownedProducts: ["none"] } });
    expect(await answer(ownedStep, "ownedProducts=none&ownedProducts=primer")).toEqual(refused('"None of these" can\'t be combined with other choices.'));
  });

  it("'Skip this step' saves an empty list, which counts as answered", async () => {
    expect(await answer(ownedStep, "intent=skip")).toEqual({ answers: { ownedProducts: [] } });
    expect(canContinue(ownedStep, { ownedProducts: [] })).toBe(true);
  });

  it("refuses a skip with choices, and an intent it does not know", async () => {
    expect(await answer(ownedStep, "intent=skip&ownedProducts=primer")).toEqual(refused("Choose options or skip this step, not both."));
    expect(await answer(ownedStep, "intent=finish&ownedProducts=primer")).toEqual(refused('"finish" is not something this step can do.'));
    expect(await answer(ownedStep, "intent=skip&intent=continue")).toEqual(refused('"skip,continue" is not something this step can do.'));
  });

  it("without choosing or skipping, asks for a choice", async () => {
    expect(await answer(ownedStep, "")).toEqual(refused("Please choose at least one option to continue."));
  });
});

describe("the other steps' forms", () => {
  it("an intro's button sends nothing, and anything sent is refused", async () => {
    expect(await answer(step("0"), "")).toEqual({ answers: {} });
    expect(await answer(step("0"), "skinType=oily")).toEqual(refused("This page doesn't take any answers."));
  });

  it("bodies that are too large or not a form are refused before the step's rules", async () => {
    expect(await answer(step("1"), `skinType=${"x".repeat(MAX_FORM_BYTES)}`)).toEqual(refused("That request was too large. Please try again."));
    expect(await answer(step("1"), '{"skinType":"oily"}', "application/json")).toEqual({ status: 415, errors: ["Please submit the form from the page."] });
  });
});
