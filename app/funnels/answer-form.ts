/**
 * What a funnel step's form may send, as a zod schema built from the step: Conform parses the
 * posted form against it (parseForm), so a tampered request can never store an answer the
 * funnel does not know. Pure, like the engine; kept out of engine.ts because the question
 * step's component imports the engine, and zod must not ship to the browser.
 *
 * A question step's form holds one entry per chosen option, named by the question's field,
 * and `intent`, the button pressed: "continue" (or none, the form's own submit) or "skip" on
 * a step with a skip link. Conform reads an empty value as no value, and a field sent twice
 * as a list.
 */
import { z } from "zod";
import { EmailAddress } from "~/auth/email-address";
import type { Option, Question, Step, StepOfType } from "../content-model/funnel";

/** The answers a step's form saves, by field: one option value, or a list for multi-choice questions. */
export type StepAnswers = Record<string, string | string[]>;

/** What a question step's form sends: "skip" with no answers, or "continue" with every question's. */
function answerSchema(step: StepOfType<"question">) {
  const fields: Record<string, z.ZodType<string | string[] | undefined>> = {};
  for (const question of step.questions) fields[question.field] = question.select === "one" ? singleChoice(question) : multiChoice(question);

  const answered = z.strictObject({ intent: z.literal("continue").optional(), ...fields }, { error: unknownField });
  // Skipping saves an empty list for every question (only multi-choice steps can be skipped).
  const skipped = z.strictObject({ intent: z.literal("skip") }, { error: "Choose options or skip this step, not both." });
  const skip = (): StepAnswers => Object.fromEntries(step.questions.map((question) => [question.field, []]));
  return z
    .discriminatedUnion("intent", step.skipLabel ? [answered, skipped] : [answered], { error: unknownIntent })
    .transform(({ intent, ...answers }) => (intent === "skip" ? skip() : (answers as StepAnswers)));
}

/**
 * What the e-mail step's form saves: the address (null: skipped), whether the visitor ticked
 * marketing consent (never true without an address) and the browser's time zone, when its
 * JavaScript sent one (for sending at sensible hours).
 */
export type EmailGiven = { email: string | null; consent: boolean; timeZone: string | null };

/**
 * The e-mail step's form: `intent` "skip" goes on without an address (whatever else was typed);
 * otherwise the address is required, and the consent box is "yes" when ticked, absent when not.
 */
const emailSchema = z
  .strictObject(
    {
      intent: z.enum(["continue", "skip"], { error: (issue) => `"${String(issue.input)}" is not something this step can do.` }).optional(),
      email: z.string().max(1000, "That e-mail address is too long.").optional(),
      consent: z.literal("yes", { error: "Tick the box to agree, or leave it unticked." }).optional(),
      timeZone: z.string().max(100).optional(),
    },
    { error: unknownField },
  )
  .transform((form, ctx): EmailGiven => {
    const timeZone = form.timeZone || null;
    if (form.intent === "skip") return { email: null, consent: false, timeZone };
    if (!form.email?.trim()) {
      ctx.addIssue({ code: "custom", path: ["email"], message: "Please enter your e-mail address, or skip this step." });
      return z.NEVER;
    }
    const address = EmailAddress.safeParse(form.email);
    if (!address.success) {
      ctx.addIssue({ code: "custom", path: ["email"], message: address.error.issues[0].message });
      return z.NEVER;
    }
    return { email: address.data, consent: form.consent === "yes", timeZone };
  });

/** The form of any step: a question step's answers; an intro's button sends nothing; other steps have no form (the flow refuses them). */
export function stepFormSchema(step: StepOfType<"email">): z.ZodType<EmailGiven>;
export function stepFormSchema(step: Step): z.ZodType<StepAnswers | EmailGiven>;
export function stepFormSchema(step: Step): z.ZodType<StepAnswers | EmailGiven> {
  if (step.type === "email") return emailSchema;
  if (step.type === "question") return answerSchema(step);
  if (step.type === "intro") return z.strictObject({}, { error: "This page doesn't take any answers." });
  return z.object({});
}

/** ` for "Skin tone"`: which question a message is about, on steps that label their questions. */
function about(question: Question): string {
  return question.label ? ` for "${question.label}"` : "";
}

function knownOption(question: Question) {
  const known = new Set(question.options.map((option) => option.value));
  return z.string({ error: `Please choose from the options${about(question)}.` }).refine((value) => known.has(value), { error: (issue) => `"${String(issue.input)}" is not one of the options${about(question)}.` });
}

function singleChoice(question: Question) {
  const what = about(question);
  return z
    .string({ error: (issue) => (Array.isArray(issue.input) ? `Please choose only one answer${what}.` : `Please choose an answer${what} to continue.`) })
    .pipe(knownOption(question));
}

function multiChoice(question: Question) {
  const what = about(question);
  const min = question.minSelected ?? 1;
  const byValue = new Map(question.options.map((option) => [option.value, option]));
  const exclusiveIn = (values: string[]): Option | undefined => values.map((value) => byValue.get(value)).find((option) => option?.exclusive);
  return z
    .array(knownOption(question))
    .refine((values) => new Set(values).size === values.length, { error: `Each option can only be chosen once${what}.`, abort: true })
    .refine((values) => values.length >= min, {
      error: min === 1 ? `Please choose at least one option${what} to continue.` : `Please choose at least ${min} options${what} to continue.`,
      abort: true,
    })
    .refine((values) => values.length === 1 || !exclusiveIn(values), {
      error: (issue) => `"${exclusiveIn(issue.input as string[])!.label}" can't be combined with other choices.`,
    });
}

function unknownField(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.code === "unrecognized_keys") return `This step does not ask for "${issue.keys[0]}".`;
  return undefined;
}

function unknownIntent(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.code !== "invalid_union") return undefined;
  const intent = (issue.input as { intent?: unknown } | undefined)?.intent;
  return `"${String(intent)}" is not something this step can do.`;
}
