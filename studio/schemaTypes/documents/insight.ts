import { defineArrayMember, defineField, defineType } from "@sanity/types";
import { Insight } from "../../../app/content-model/content-types";
import { matchesAppSchema } from "../validation";

export const insight = defineType({
  name: "insight",
  title: "Result insight",
  type: "document",
  description: "The explanation a visitor reads at the end of a quiz. Quizzes pick one with their rules.",
  fields: [
    defineField({
      name: "funnel",
      title: "Quiz",
      type: "string",
      description: "The quiz that shows it (for finding it here).",
      options: { picker: "funnelId" } as object,
    }),
    defineField({ name: "title", title: "Headline", type: "string" }),
    defineField({ name: "summary", title: "Summary", type: "text", rows: 3 }),
    defineField({
      name: "body",
      title: "Paragraphs",
      type: "array",
      of: [defineArrayMember({ type: "text", rows: 4 })],
      description: "{skinType} and other answer names in braces are filled from the visitor's answers.",
    }),
    defineField({ name: "highlights", title: "What the plan focuses on", type: "array", of: [defineArrayMember({ type: "string" })] }),
  ],
  validation: (rule) => rule.custom(matchesAppSchema(Insight)),
  preview: { select: { title: "title", subtitle: "funnel" } },
});
