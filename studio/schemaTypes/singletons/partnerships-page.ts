import { defineArrayMember, defineField, defineType } from "@sanity/types";
import { PartnershipsPage } from "../../../app/content-model/content-types";
import { matchesAppSchema } from "../validation";

const s = (name: string, title: string, description?: string) => defineField({ name, title, type: "string", ...(description ? { description } : {}) });
const paragraph = (name: string, title: string) => defineField({ name, title, type: "text", rows: 2 });
const lines = (name: string, title: string, description?: string) =>
  defineField({ name, title, type: "array", of: [defineArrayMember({ type: "string" })], ...(description ? { description } : {}) });
const group = (name: string, title: string, fields: ReturnType<typeof defineField>[], description?: string) =>
  defineField({ name, title, type: "object", fields, ...(description ? { description } : {}) });
const cards = (name: string, title: string, description?: string) =>
  defineField({ name, title, type: "array", of: [defineArrayMember({ type: "titledText" })], ...(description ? { description } : {}) });

export const partnershipsPage = defineType({
  name: "partnershipsPage",
  title: "Partnerships page",
  type: "document",
  description: "The page for beauty brands (/partnerships). Both buttons go to the booking link in Settings.",
  fields: [
    defineField({ name: "meta", title: "Search and sharing", type: "pageMeta" }),
    group("hero", "Top of the page", [
      s("eyebrow", "Eyebrow"),
      s("headline", "Headline"),
      paragraph("text", "Text"),
      s("badge", "Badge"),
      lines("promises", "Promises", "Short lines under the buttons, e.g. “No SDK needed”."),
    ]),
    group("problems", "Problems", [s("heading", "Heading"), cards("items", "Problems")]),
    group("features", "Features", [s("heading", "Heading"), cards("items", "Features")]),
    group("demo", "Phone demo", [
      s("heading", "Heading"),
      paragraph("text", "Text"),
      group("phone", "On the phone", [
        s("brand", "Brand name shown"),
        s("greeting", "Greeting"),
        s("planName", "Plan name"),
        s("streak", "Streak line"),
        lines("steps", "Routine steps", "At most 6."),
        s("cta", "Button"),
      ]),
    ]),
    group("journey", "How it works", [s("heading", "Heading"), cards("items", "Steps", "Exactly 4.")]),
    group("impact", "Results", [
      s("heading", "Heading"),
      defineField({ name: "stats", title: "Figures", type: "array", description: "Only figures you can prove.", of: [defineArrayMember({ type: "stat" })] }),
      s("footnote", "Footnote", "Where the figures come from."),
    ]),
    group("tiers", "Partnership tiers", [
      s("heading", "Heading"),
      defineField({
        name: "items",
        title: "Tiers",
        type: "array",
        of: [
          defineArrayMember({
            type: "object",
            name: "partnershipTier",
            title: "Tier",
            fields: [
              s("name", "Name"),
              s("price", "Price", "As shown, e.g. $0 or Custom pricing."),
              s("note", "Under the price"),
              lines("features", "What's included"),
              defineField({ name: "highlighted", title: "Highlighted tier", type: "boolean" }),
            ],
            preview: { select: { title: "name", subtitle: "price" } },
          }),
        ],
      }),
    ]),
    group("brands", "Brand logos", [
      s("heading", "Heading"),
      defineField({ name: "logos", title: "Logos", type: "array", description: "Exactly 4.", of: [defineArrayMember({ type: "contentImage" })] }),
    ]),
    group("testimonial", "Testimonial", [
      defineField({ name: "quote", title: "Quote", type: "text", rows: 3 }),
      s("name", "Name"),
      s("role", "Role and company"),
    ]),
    group("finalCta", "Closing box", [s("heading", "Heading"), paragraph("text", "Text"), s("badge", "Badge")]),
    group(
      "cta",
      "Button labels",
      [s("bookDemo", "Book a demo button"), s("seeExample", "See an example button")],
      "Both buttons open the booking link in Settings.",
    ),
  ],
  validation: (rule) => rule.custom(matchesAppSchema(PartnershipsPage)),
  preview: { select: { title: "hero.headline" }, prepare: ({ title }) => ({ title: "Partnerships page", subtitle: title }) },
});
