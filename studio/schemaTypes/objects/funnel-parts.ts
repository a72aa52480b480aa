/**
 * The parts of a funnel, in the same shape as funnels/*.json (app/content-model/funnel.ts), so
 * `content:push` and `content:pull` move a funnel without translating it. Only the
 * Studio's own bookkeeping (_key, and _type on list items) is added, and the app ignores it.
 */
import { defineArrayMember, defineField, defineType } from "@sanity/types";
import { pageHrefField } from "./content-parts";

const SLUG_HINT = "Lower-case letters, digits and single dashes, e.g. dry-skin. It ends up in links and reports: change it only with a developer.";
const FIELD_HINT = "The name the answer is saved under, in camelCase (e.g. skinType). Rules and summaries use it.";

export const option = defineType({
  name: "option",
  title: "Answer option",
  type: "object",
  fields: [
    defineField({ name: "label", title: "Label", type: "string", description: "What the visitor taps." }),
    defineField({ name: "value", title: "Saved value", type: "string", description: SLUG_HINT }),
    defineField({ name: "description", title: "Small text under the label", type: "string" }),
    defineField({ name: "badge", title: "Badge", type: "string", description: 'A small highlight on the option, e.g. "Best match".' }),
    defineField({ name: "summary", title: "Short wording", type: "string", description: 'Used where answers are summarised, e.g. "10 min/day".' }),
    defineField({ name: "exclusive", title: "Clears the other choices", type: "boolean", description: 'For "None of these" in multi-choice questions.' }),
  ],
  preview: { select: { title: "label", subtitle: "value" } },
});

export const funnelQuestion = defineType({
  name: "funnelQuestion",
  title: "Question",
  type: "object",
  fields: [
    defineField({ name: "field", title: "Answer name", type: "string", description: FIELD_HINT }),
    defineField({ name: "label", title: "Heading", type: "string", description: "Only when a step asks several questions at once." }),
    defineField({
      name: "select",
      title: "Visitors choose",
      type: "string",
      options: {
        list: [
          { title: "One answer", value: "one" },
          { title: "Several answers", value: "many" },
        ],
        layout: "radio",
      },
    }),
    defineField({ name: "options", title: "Options", type: "array", of: [defineArrayMember({ type: "option" })] }),
    defineField({
      name: "minSelected",
      title: "Least number of choices",
      type: "number",
      description: "Several answers only: how many before Continue works (1 if empty).",
    }),
  ],
  preview: {
    select: { title: "field", subtitle: "select" },
    prepare: ({ title, subtitle }) => ({ title, subtitle: subtitle === "many" ? "several answers" : "one answer" }),
  },
});

export const condition = defineType({
  name: "condition",
  title: "Condition",
  type: "object",
  description: "Either “the answer is one of” or “has been answered”, not both.",
  fields: [
    defineField({
      name: "field",
      title: "Answer",
      type: "string",
      description: "One of the answers the quiz asks.",
      options: { picker: "answerField" } as object,
    }),
    defineField({
      name: "anyOf",
      title: "The answer is one of",
      type: "array",
      of: [defineArrayMember({ type: "string" })],
      description: "Tick the options that count.",
      options: { picker: "answerValues" } as object,
    }),
    defineField({ name: "answered", title: "Has been answered", type: "boolean" }),
  ],
  preview: {
    select: { field: "field", anyOf: "anyOf", answered: "answered" },
    prepare: ({ field, anyOf, answered }) => ({
      title: anyOf?.length ? `${field} is ${anyOf.join(" or ")}` : `${field} ${answered ? "is answered" : "is not answered"}`,
    }),
  },
});

export const target = defineType({
  name: "target",
  title: "Goes to",
  type: "object",
  description: "Another step of this quiz, or a page of the app. Fill in one.",
  fields: [defineField({ name: "step", title: "Step", type: "string", options: { picker: "step" } as object }), pageHrefField()],
});

export const branch = defineType({
  name: "branch",
  title: "Way on",
  type: "object",
  fields: [
    defineField({
      name: "when",
      title: "Only when",
      type: "array",
      of: [defineArrayMember({ type: "condition" })],
      description: "All must hold. Leave empty on the last way on.",
    }),
    defineField({ name: "to", title: "Goes to", type: "target" }),
  ],
  preview: {
    select: { step: "to.step", href: "to.href", when: "when" },
    prepare: ({ step, href, when }) => ({
      title: `→ ${step ? `step ${step}` : (href ?? "?")}`,
      subtitle: when?.length ? `${when.length} condition(s)` : "always",
    }),
  },
});

const nextField = defineField({
  name: "next",
  title: "Where visitors go next",
  type: "array",
  of: [defineArrayMember({ type: "branch" })],
  description: "Checked top to bottom; the first that holds wins. The last one has no conditions.",
});

export const insightRule = defineType({
  name: "insightRule",
  title: "Rule",
  type: "object",
  fields: [
    defineField({ name: "when", title: "When", type: "array", of: [defineArrayMember({ type: "condition" })] }),
    defineField({ name: "insight", title: "Show", type: "reference", to: [{ type: "insight" }] }),
  ],
  preview: {
    select: { title: "insight.title", when: "when" },
    prepare: ({ title, when }) => ({ title: title ?? "(no insight)", subtitle: `${when?.length ?? 0} condition(s)` }),
  },
});

export const insightPick = defineType({
  name: "insightPick",
  title: "Which result to show",
  type: "object",
  fields: [
    defineField({
      name: "rules",
      title: "Rules",
      type: "array",
      of: [defineArrayMember({ type: "insightRule" })],
      description: "Checked top to bottom; the first that matches wins.",
    }),
    defineField({ name: "otherwise", title: "Otherwise show", type: "reference", to: [{ type: "insight" }] }),
  ],
});

const stepBase = [
  defineField({ name: "id", title: "Step id", type: "string", description: `Part of the step's address (/quiz/3). ${SLUG_HINT}` }),
  defineField({
    name: "label",
    title: "Small label",
    type: "string",
    description: 'Above the step. Empty on a question: "Step 3 of 12", counted from the quiz\'s order. Set it for your own words ("Final Question").',
  }),
  defineField({
    name: "progress",
    title: "Progress bar (%)",
    type: "number",
    description: "0 to 100. Empty on a question: worked out from the quiz's order; on other steps, no bar.",
  }),
  defineField({ name: "back", title: "Show a back link", type: "boolean", description: "On unless switched off." }),
];

function stepPreview(kind: string, titleField: string) {
  return {
    select: { id: "id", title: titleField },
    prepare: ({ id, title }: { id?: string; title?: string }) => ({ title: title ?? "(untitled)", subtitle: `${kind} · step ${id ?? "?"}` }),
  };
}

export const introStep = defineType({
  name: "introStep",
  title: "Intro",
  type: "object",
  fields: [
    defineField({ name: "type", type: "string", initialValue: "intro", hidden: true, readOnly: true }),
    ...stepBase,
    defineField({ name: "eyebrow", title: "Eyebrow", type: "string" }),
    defineField({ name: "headline", title: "Headline", type: "string" }),
    defineField({ name: "subheadline", title: "Subheadline", type: "text", rows: 2 }),
    defineField({ name: "badges", title: "Badges", type: "array", of: [defineArrayMember({ type: "string" })] }),
    defineField({
      name: "features",
      title: "Feature cards",
      type: "array",
      of: [
        defineArrayMember({
          type: "object",
          name: "feature",
          fields: [defineField({ name: "title", type: "string" }), defineField({ name: "text", type: "text", rows: 2 })],
        }),
      ],
    }),
    defineField({ name: "buttonLabel", title: "Button", type: "string" }),
    defineField({ name: "resetAnswers", title: "Start afresh", type: "boolean", description: "Starting here forgets earlier answers." }),
    nextField,
  ],
  preview: stepPreview("Intro", "headline"),
});

export const questionStep = defineType({
  name: "questionStep",
  title: "Question",
  type: "object",
  fields: [
    defineField({ name: "type", type: "string", initialValue: "question", hidden: true, readOnly: true }),
    ...stepBase,
    defineField({ name: "title", title: "Question", type: "string" }),
    defineField({ name: "subtitle", title: "Subtitle", type: "string" }),
    defineField({
      name: "questions",
      title: "Answers asked",
      type: "array",
      of: [defineArrayMember({ type: "funnelQuestion" }), defineArrayMember({ type: "reference", to: [{ type: "question" }], title: "Shared question" })],
      description: "Usually one. A shared question is asked the same way in several quizzes.",
    }),
    defineField({
      name: "layout",
      title: "Layout",
      type: "string",
      options: {
        list: [
          { title: "List", value: "list" },
          { title: "Cards", value: "cards" },
          { title: "Two columns", value: "grid" },
        ],
        layout: "radio",
      },
    }),
    defineField({ name: "continueLabel", title: "Button", type: "string", description: "{choice} becomes the chosen option's label." }),
    defineField({ name: "autoAdvanceMs", title: "Move on by itself after (ms)", type: "number", description: "One single-choice question only. 0 to 5000." }),
    defineField({
      name: "continueWhenUnanswered",
      title: "Button before an answer",
      type: "string",
      options: {
        list: [
          { title: "Shown but disabled", value: "disabled" },
          { title: "Hidden", value: "hidden" },
        ],
        layout: "radio",
      },
    }),
    defineField({ name: "skipLabel", title: "Skip link", type: "string", description: "Multi-choice only." }),
    defineField({ name: "note", title: "Small print", type: "string" }),
    nextField,
  ],
  preview: stepPreview("Question", "title"),
});

export const analysingStep = defineType({
  name: "analysingStep",
  title: "Analysing",
  type: "object",
  fields: [
    defineField({ name: "type", type: "string", initialValue: "analysing", hidden: true, readOnly: true }),
    ...stepBase,
    defineField({ name: "title", title: "Title", type: "string" }),
    defineField({ name: "messages", title: "Lines shown one after another", type: "array", of: [defineArrayMember({ type: "string" })] }),
    defineField({ name: "durationMs", title: "How long (ms)", type: "number", description: "0 to 15000." }),
    nextField,
  ],
  preview: stepPreview("Analysing", "title"),
});

export const insightStep = defineType({
  name: "insightStep",
  title: "Insight",
  type: "object",
  fields: [
    defineField({ name: "type", type: "string", initialValue: "insight", hidden: true, readOnly: true }),
    ...stepBase,
    defineField({ name: "title", title: "Title", type: "string" }),
    defineField({ name: "pick", title: "Which insight to show", type: "insightPick" }),
    defineField({ name: "continueLabel", title: "Button", type: "string" }),
    nextField,
  ],
  preview: stepPreview("Insight", "title"),
});

export const summaryStep = defineType({
  name: "summaryStep",
  title: "Summary",
  type: "object",
  fields: [
    defineField({ name: "type", type: "string", initialValue: "summary", hidden: true, readOnly: true }),
    ...stepBase,
    defineField({ name: "title", title: "Title", type: "string" }),
    defineField({ name: "subtitle", title: "Subtitle", type: "string" }),
    defineField({
      name: "answersFrom",
      title: "Answers from quiz",
      type: "string",
      description: "Another quiz to summarise. Empty: this one.",
      options: { picker: "funnelId" } as object,
    }),
    defineField({
      name: "cards",
      title: "Cards",
      type: "array",
      of: [
        defineArrayMember({
          type: "object",
          name: "summaryCard",
          fields: [
            defineField({ name: "field", title: "Answer name", type: "string" }),
            defineField({ name: "title", title: "Title", type: "string" }),
            defineField({ name: "limit", title: "Show at most (choices)", type: "number" }),
          ],
        }),
      ],
    }),
    defineField({ name: "maxCards", title: "Show at most (cards)", type: "number" }),
    defineField({ name: "continueLabel", title: "Button", type: "string" }),
    nextField,
  ],
  preview: stepPreview("Summary", "title"),
});

export const emailStep = defineType({
  name: "emailStep",
  title: "E-mail before the result",
  type: "object",
  description: 'Asks "Where should we send your plan?" before the result. At most one per quiz; visitors can always skip it.',
  fields: [
    defineField({ name: "type", type: "string", initialValue: "email", hidden: true, readOnly: true }),
    ...stepBase,
    defineField({ name: "title", title: "Title", type: "string", initialValue: "Where should we send your plan?" }),
    defineField({ name: "subtitle", title: "Subtitle", type: "string" }),
    defineField({ name: "emailLabel", title: "Address field label", type: "string", initialValue: "Your e-mail address" }),
    defineField({
      name: "consentLabel",
      title: "Marketing consent box",
      type: "string",
      description: "Shown unticked. Only visitors who tick it get recovery e-mails: say what they agree to receive.",
    }),
    defineField({ name: "continueLabel", title: "Button", type: "string" }),
    defineField({ name: "skipLabel", title: "Skip link", type: "string", description: "Goes on to the result without an address." }),
    defineField({ name: "note", title: "Small print", type: "string" }),
    defineField({
      name: "recoveryAfterHours",
      title: "Recovery e-mails (hours after the address is given)",
      type: "array",
      of: [defineArrayMember({ type: "number" })],
      description: "E.g. 1 and 24. In increasing order, at most 5. A night-time e-mail waits for 9:00 in the visitor's time zone.",
    }),
    defineField({
      name: "checkoutReminderAfterHours",
      title: "Unfinished checkout reminder (hours after it started)",
      type: "number",
      description: "Empty: no reminder.",
    }),
    nextField,
  ],
  preview: stepPreview("E-mail", "title"),
});

export const resultStep = defineType({
  name: "resultStep",
  title: "Result",
  type: "object",
  fields: [
    defineField({ name: "type", type: "string", initialValue: "result", hidden: true, readOnly: true }),
    ...stepBase,
    defineField({ name: "eyebrow", title: "Eyebrow", type: "string" }),
    defineField({ name: "title", title: "Title", type: "string" }),
    defineField({ name: "pick", title: "Which result to show", type: "insightPick" }),
    defineField({
      name: "cta",
      title: "Button",
      type: "object",
      fields: [
        defineField({ name: "label", title: "Label", type: "string" }),
        defineField({
          name: "href",
          title: "Page",
          type: "string",
          description: "Usually the offer that sells this quiz's plan.",
          options: { picker: "page" } as object,
        }),
      ],
    }),
  ],
  preview: stepPreview("Result", "title"),
});

export const funnelParts = [
  option,
  funnelQuestion,
  condition,
  target,
  branch,
  insightRule,
  insightPick,
  introStep,
  questionStep,
  analysingStep,
  insightStep,
  summaryStep,
  emailStep,
  resultStep,
];
