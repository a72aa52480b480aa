import { defineArrayMember, defineField, defineType } from "@sanity/types";
import { LandingPage } from "../../../app/content/types";
import { matchesAppSchema } from "../validation";

export const landingPage = defineType({
  name: "landingPage",
  title: "Landing page",
  type: "document",
  description: "The home page visitors see first (/).",
  fields: [
    defineField({ name: "eyebrow", title: "Eyebrow", type: "string" }),
    defineField({ name: "headline", title: "Headline", type: "string" }),
    defineField({ name: "subheadline", title: "Subheadline", type: "text", rows: 2 }),
    defineField({ name: "primaryCta", title: "Main button", type: "link" }),
    defineField({ name: "claims", title: "Claims", type: "array", of: [defineArrayMember({ type: "string" })] }),
    defineField({
      name: "quizzes",
      title: "Quiz cards",
      type: "array",
      of: [
        defineArrayMember({
          type: "object",
          name: "quizCard",
          fields: [
            defineField({ name: "title", title: "Title", type: "string" }),
            defineField({ name: "text", title: "Text", type: "text", rows: 2 }),
            defineField({ name: "href", title: "Quiz address", type: "string", description: "e.g. /quiz" }),
            defineField({ name: "minutes", title: "Minutes it takes", type: "number" }),
          ],
          preview: { select: { title: "title", subtitle: "href" } },
        }),
      ],
    }),
  ],
  validation: (rule) => rule.custom(matchesAppSchema(LandingPage)),
  preview: { select: { title: "headline" }, prepare: ({ title }) => ({ title: "Landing page", subtitle: title }) },
});
