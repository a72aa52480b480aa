import { defineArrayMember, defineField, defineType } from "@sanity/types";
import { LandingPage } from "../../../app/content-model/content-types";
import { matchesAppSchema } from "../validation";

export const landingPage = defineType({
  name: "landingPage",
  title: "Landing page",
  type: "document",
  description: "The home page visitors see first (/).",
  fields: [
    defineField({ name: "meta", title: "Search and sharing", type: "pageMeta" }),
    defineField({ name: "eyebrow", title: "Eyebrow", type: "string" }),
    defineField({ name: "headline", title: "Headline", type: "string" }),
    defineField({ name: "subheadline", title: "Subheadline", type: "text", rows: 2 }),
    defineField({ name: "primaryCta", title: "Main button", type: "link" }),
    defineField({
      name: "claims",
      title: "Claims under the headline",
      type: "array",
      description: "Short lines, e.g. “Dermatologist approved”.",
      of: [defineArrayMember({ type: "string" })],
    }),
    defineField({ name: "claimsHeading", title: "Figures heading", type: "string" }),
    defineField({
      name: "claimStats",
      title: "Figures",
      type: "array",
      description: "The claims as big figures: only ones you can prove.",
      of: [defineArrayMember({ type: "stat" })],
    }),
    defineField({ name: "quizzesHeading", title: "Quiz cards heading", type: "string" }),
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
    defineField({
      name: "howItWorks",
      title: "How it works",
      type: "object",
      fields: [
        defineField({ name: "heading", title: "Heading", type: "string" }),
        defineField({ name: "steps", title: "Steps", type: "array", of: [defineArrayMember({ type: "titledText" })] }),
      ],
    }),
    defineField({
      name: "testimonials",
      title: "Testimonials",
      type: "object",
      fields: [
        defineField({ name: "heading", title: "Heading", type: "string" }),
        defineField({
          name: "items",
          title: "Testimonials",
          type: "array",
          of: [
            defineArrayMember({
              type: "object",
              name: "memberQuote",
              title: "Testimonial",
              fields: [
                defineField({ name: "quote", title: "Quote", type: "text", rows: 3 }),
                defineField({ name: "name", title: "Name", type: "string" }),
                defineField({ name: "detail", title: "Detail", type: "string", description: "e.g. the quiz they took" }),
              ],
              preview: { select: { title: "name", subtitle: "quote" } },
            }),
          ],
        }),
      ],
    }),
    defineField({
      name: "brandsTeaser",
      title: "For brands box",
      type: "object",
      description: "The box pointing beauty brands to the partnerships page.",
      fields: [
        defineField({ name: "heading", title: "Heading", type: "string" }),
        defineField({ name: "text", title: "Text", type: "text", rows: 2 }),
        defineField({ name: "link", title: "Link", type: "link" }),
      ],
    }),
  ],
  validation: (rule) => rule.custom(matchesAppSchema(LandingPage)),
  preview: { select: { title: "headline" }, prepare: ({ title }) => ({ title: "Landing page", subtitle: title }) },
});
