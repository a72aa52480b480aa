import { defineArrayMember, defineField, defineType, type CustomValidator } from "@sanity/types";
import { lintFunnelDocument, lintFunnelLabels } from "../../../app/funnels/lint";
import { sharedQuestionIds } from "../../../app/content/funnel-resolve";
import { addressIsFree, toMarkers } from "../validation";

/** API version the Studio's own validation queries use. */
const API_VERSION = "2025-02-19";

/** The shared question documents a funnel asks, as published: the app never sees a draft of one. */
async function sharedQuestionsOf(doc: unknown, context: Parameters<CustomValidator>[1]): Promise<Map<string, unknown>> {
  const ids = sharedQuestionIds(doc);
  const shared = new Map<string, unknown>();
  if (ids.length) {
    const found: { _id: string }[] = await context
      .getClient({ apiVersion: API_VERSION })
      .fetch(`*[_type == "question" && _id in $ids && !(_id in path("drafts.**"))]`, { ids });
    for (const question of found) shared.set(question._id, question);
  }
  return shared;
}

/**
 * The whole funnel must be one the app can run: the app's schema and its linter's checks
 * for one funnel (steps reachable, rules pointing at options that exist, rules that can
 * match). Shared questions are fetched so a rule on a shared question's field is checked too.
 */
export const funnelRunsInTheApp: CustomValidator = async (doc, context) => {
  if (!doc) return true;
  const problems = lintFunnelDocument(doc, await sharedQuestionsOf(doc, context));
  return problems.length ? toMarkers(doc, problems) : true;
};

/**
 * A question step's typed label ("Step 3 of 12") or progress that disagrees with the step's
 * place in the quiz: a warning on that field (the page still works, and clearing the field
 * shows the number the app works out; ADR 34).
 */
export const funnelLabelsAgree: CustomValidator = async (doc, context) => {
  if (!doc) return true;
  const problems = lintFunnelLabels(doc, await sharedQuestionsOf(doc, context));
  return problems.length ? toMarkers(doc, problems) : true;
};

export const funnel = defineType({
  name: "funnel",
  title: "Funnel (quiz)",
  type: "document",
  description: "A quiz: its steps, the questions it asks and where each answer leads.",
  fields: [
    defineField({ name: "title", title: "Name for editors", type: "string" }),
    defineField({
      name: "id",
      title: "Quiz id",
      type: "string",
      description: "Used in reports and to link quizzes. Lower-case letters, digits and dashes; never change it once live.",
    }),
    defineField({
      name: "route",
      title: "Address",
      type: "string",
      description: "Where the quiz lives, e.g. /glow-quiz: one segment. It goes live when published.",
      validation: (rule) => rule.custom(addressIsFree),
    }),
    defineField({ name: "pageTitle", title: "Browser tab title", type: "string" }),
    defineField({
      name: "steps",
      title: "Steps",
      type: "array",
      description: "Visitors start at the first step.",
      of: ["introStep", "questionStep", "analysingStep", "insightStep", "summaryStep", "emailStep", "resultStep"].map((type) => defineArrayMember({ type })),
    }),
  ],
  validation: (rule) => [rule.custom(funnelRunsInTheApp), rule.custom(funnelLabelsAgree).warning()],
  preview: {
    select: { title: "title", route: "route", steps: "steps" },
    prepare: ({ title, route, steps }) => ({ title, subtitle: `${route ?? "(no address)"} · ${steps?.length ?? 0} steps` }),
  },
});
