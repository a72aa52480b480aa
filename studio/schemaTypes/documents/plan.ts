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
  ],
  validation: (rule) => rule.custom(planRunsInTheApp),
  preview: {
    select: { title: "name", active: "isActive", steps: "steps" },
    prepare: ({ title, active, steps }) => ({ title, subtitle: `${steps?.length ?? 0} steps${active ? " · shown to members without a plan" : ""}` }),
  },
});
