import { defineArrayMember, defineField, defineType } from "@sanity/types";
import { Question } from "../../../app/content-model/funnel";
import { stripCmsFields } from "../../../app/content/funnel-resolve";
import { toMarkers, zodProblems } from "../validation";

/** A question several quizzes ask the same way; quizzes refer to it from a question step. */
export const question = defineType({
  name: "question",
  title: "Shared question",
  type: "document",
  fields: [
    defineField({ name: "field", title: "Answer name", type: "string", description: "The name the answer is saved under, in camelCase (e.g. mainGoal)." }),
    defineField({ name: "label", title: "Heading", type: "string" }),
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
    defineField({ name: "minSelected", title: "Least number of choices", type: "number" }),
  ],
  // The same check the app runs when it puts the question into a funnel.
  validation: (rule) =>
    rule.custom((doc) => {
      if (!doc) return true;
      const { _id, _type, ...question } = stripCmsFields(doc) as Record<string, unknown>;
      const problems = zodProblems(Question, question);
      return problems.length ? toMarkers(doc, problems) : true;
    }),
  preview: { select: { title: "field", options: "options" }, prepare: ({ title, options }) => ({ title, subtitle: `${options?.length ?? 0} options` }) },
});
