import { defineArrayMember, defineField, defineType, type CustomValidator } from "@sanity/types";
import { Plan } from "../../../app/content-model/content-types";
import { lintPlanRules } from "../../../app/funnels/lint";
import { resolveFunnel, sharedQuestionIds } from "../../../app/content/funnel-resolve";
import type { Funnel } from "../../../app/content-model/funnel";
import { toMarkers, zodProblems } from "../validation";

/** API version the Studio's own validation queries use. */
const API_VERSION = "2025-02-19";

const ruleHint = "Checked top to bottom; the first rule whose conditions all hold wins. Conditions use the answers of the plan's quizzes.";
const conditions = defineField({ name: "when", title: "When", type: "array", of: [defineArrayMember({ type: "condition" })], description: "All must hold." });
const products = (name: string, title: string) =>
  defineField({
    name,
    title,
    type: "array",
    of: [defineArrayMember({ type: "reference", to: [{ type: "product" }] })],
    description: "Best first: home shows two, the offer page three.",
  });
const tips = (name: string, title: string) =>
  defineField({ name, title, type: "array", of: [defineArrayMember({ type: "string" })], description: "Exactly 4." });

/** A number the visitor's answers pick for the progress chart: rules first, else `otherwise`. */
const pickedNumber = (name: string, title: string, unit: string, description: string) =>
  defineField({
    name,
    title,
    type: "object",
    description,
    fields: [
      defineField({
        name: "rules",
        title: "Rules",
        type: "array",
        description: ruleHint,
        of: [
          defineArrayMember({
            type: "object",
            name: `progress${name[0].toUpperCase()}${name.slice(1)}Rule`,
            fields: [conditions, defineField({ name: "value", title: unit, type: "number" })],
            preview: {
              select: { value: "value", when: "when" },
              prepare: ({ value, when }) => ({ title: `${value} ${unit}`, subtitle: `${when?.length ?? 0} condition(s)` }),
            },
          }),
        ],
      }),
      defineField({ name: "otherwise", title: `Otherwise (${unit})`, type: "number", description: "For answers no rule covers." }),
    ],
  });

/** The typical-progress chart on the quiz result (ADR 42); the app's schema (PlanProgress) gives the defaults and limits. */
const progressField = defineField({
  name: "progress",
  title: "Typical progress chart (quiz result)",
  type: "object",
  description:
    "Drawn on the result of the quiz whose button leads to this plan's offer: a score from 0 to 100 that starts at Start and rises towards Start + Typical gain, half of the way there by the Halfway week, scaled by Pace. Always labelled “Typical, not promised”. Leave empty for no chart.",
  options: { collapsible: true, collapsed: true },
  fields: [
    defineField({ name: "title", title: "Heading", type: "string", description: "Default: “How your skin typically changes”." }),
    defineField({ name: "measure", title: "What the score measures", type: "string", description: "Required, e.g. “Clear, comfortable skin”." }),
    defineField({ name: "weeks", title: "Weeks shown", type: "number", description: "2 to 16. Default 8." }),
    pickedNumber("start", "Start (score now)", "points", "0 to 90, e.g. by skin type. Default 40."),
    defineField({
      name: "typicalGain",
      title: "Typical gain (points)",
      type: "number",
      description: "Where the curve levels off, above the start. Highest start + gain must stay within 100. Default 40.",
    }),
    pickedNumber(
      "halfwayWeek",
      "Halfway week",
      "weeks",
      "When half of the gain is typically reached, e.g. by main concern: slower for marks and lines. Default 2.",
    ),
    pickedNumber("pace", "Pace", "%", "Share of the gain, 10 to 100, e.g. by time per day. Default 100."),
    defineField({
      name: "note",
      title: "Small print",
      type: "text",
      rows: 3,
      description: "Under the chart: whom the numbers are typical for and that they are not a promise. Has a default.",
    }),
  ],
});

export const planStep = defineType({
  name: "planStep",
  title: "Routine step",
  type: "object",
  fields: [
    defineField({ name: "title", title: "Title", type: "string" }),
    defineField({ name: "description", title: "What to do", type: "text", rows: 3 }),
    defineField({ name: "image", title: "Illustration", type: "contentImage" }),
    defineField({ name: "tips", title: "Tips", type: "array", of: [defineArrayMember({ type: "string" })] }),
    defineField({ name: "video", title: "Video", type: "routineVideo", description: "Optional. Without a video the step shows its illustration." }),
    defineField({
      name: "variants",
      title: "Versions for some answers",
      type: "array",
      description: `${ruleHint} Fields left empty stay as above.`,
      of: [
        defineArrayMember({
          type: "object",
          name: "planStepVariant",
          fields: [
            conditions,
            defineField({ name: "note", title: "Why (shown to the member)", type: "string", description: 'e.g. "Oily skin: a lighter layer".' }),
            defineField({ name: "title", title: "Title", type: "string" }),
            defineField({ name: "description", title: "What to do", type: "text", rows: 3 }),
            defineField({ name: "tips", title: "Tips", type: "array", of: [defineArrayMember({ type: "string" })] }),
          ],
          preview: { select: { title: "title", note: "note" }, prepare: ({ title, note }) => ({ title: note ?? title ?? "Version", subtitle: title }) },
        }),
      ],
    }),
  ],
  preview: { select: { title: "title", subtitle: "description" } },
});

/**
 * The plan must be one the app can show, and its rules must fit its quizzes: the app's schema,
 * then the funnels' own rule checks (fields the quizzes ask, options they have, rules that can
 * match). The quizzes (and their shared questions) are fetched as published.
 */
export const planRunsInTheApp: CustomValidator = async (doc, context) => {
  if (!doc) return true;
  const problems = zodProblems(Plan, doc);
  if (problems.length) return toMarkers(doc, problems);
  const plan = Plan.parse(doc);
  const client = context.getClient({ apiVersion: API_VERSION });
  const ids = plan.answersFrom.map((ref) => ref._ref);
  const docs: { _id: string }[] = ids.length ? await client.fetch(`*[_type == "funnel" && _id in $ids && !(_id in path("drafts.**"))]`, { ids }) : [];
  const questionIds = [...new Set(docs.flatMap((d) => sharedQuestionIds(d)))];
  const questions: { _id: string }[] = questionIds.length
    ? await client.fetch(`*[_type == "question" && _id in $ids && !(_id in path("drafts.**"))]`, { ids: questionIds })
    : [];
  const shared = new Map<string, unknown>(questions.map((q) => [q._id, q]));
  const funnels = docs.flatMap((d): Funnel[] => {
    const result = resolveFunnel(d, shared);
    return result.ok ? [result.funnel] : [];
  });
  const rules = lintPlanRules(plan, funnels);
  return rules.length ? toMarkers(doc, rules) : true;
};

export const plan = defineType({
  name: "plan",
  title: "Routine plan",
  type: "document",
  description: "A routine members follow once they buy the offer that grants it. Its id is in members' links and history: never change it.",
  fields: [
    defineField({ name: "name", title: "Name", type: "string" }),
    defineField({ name: "description", title: "Description", type: "text", rows: 2 }),
    defineField({ name: "isActive", title: "Shown to members without a plan", type: "boolean", description: "Only one plan should be switched on." }),
    defineField({ name: "stepCount", title: "Number of steps", type: "number", description: "Must match the steps below." }),
    defineField({
      name: "answersFrom",
      title: "Quizzes that personalise it",
      type: "array",
      of: [defineArrayMember({ type: "reference", to: [{ type: "funnel" }] })],
      description: "Their answers choose the versions, products and tips below.",
    }),
    defineField({
      name: "reasons",
      title: "Why it fits (shown to the member)",
      type: "object",
      fields: [
        defineField({
          name: "rules",
          title: "Rules",
          type: "array",
          description: ruleHint,
          of: [
            defineArrayMember({
              type: "object",
              name: "reasonRule",
              fields: [conditions, defineField({ name: "text", title: "Text", type: "string", description: 'e.g. "For your oily, acne-prone skin".' })],
              preview: { select: { title: "text" } },
            }),
          ],
        }),
        defineField({ name: "otherwise", title: "Otherwise", type: "string", description: "For answers no rule covers." }),
      ],
    }),
    defineField({ name: "steps", title: "Steps", type: "array", of: [defineArrayMember({ type: "planStep" })] }),
    defineField({
      name: "tutorial",
      title: "Tutorial pages (/path1 onwards)",
      type: "array",
      of: [defineArrayMember({ type: "reference", to: [{ type: "tutorialStep" }] })],
    }),
    defineField({
      name: "homeTips",
      title: "Tips & Tricks (home)",
      type: "object",
      fields: [
        defineField({
          name: "rules",
          title: "Rules",
          type: "array",
          description: ruleHint,
          of: [defineArrayMember({ type: "object", name: "tipsRule", fields: [conditions, tips("tips", "Tips")], preview: { select: { title: "tips.0" } } })],
        }),
        tips("otherwise", "Otherwise"),
      ],
    }),
    defineField({
      name: "products",
      title: "Products",
      type: "object",
      fields: [
        defineField({
          name: "rules",
          title: "Rules",
          type: "array",
          description: ruleHint,
          of: [
            defineArrayMember({
              type: "object",
              name: "productsRule",
              fields: [conditions, products("products", "Products")],
              preview: { select: { title: "products.0.name" } },
            }),
          ],
        }),
        products("otherwise", "Otherwise"),
      ],
    }),
    defineField({ name: "avoid", title: "What to Avoid (home, exactly 2)", type: "array", of: [defineArrayMember({ type: "avoidItem" })] }),
    progressField,
  ],
  validation: (rule) => rule.custom(planRunsInTheApp),
  preview: {
    select: { title: "name", active: "isActive", steps: "steps" },
    prepare: ({ title, active, steps }) => ({ title, subtitle: `${steps?.length ?? 0} steps${active ? " · shown to members without a plan" : ""}` }),
  },
});
