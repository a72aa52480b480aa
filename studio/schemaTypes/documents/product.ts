import { defineArrayMember, defineField, defineType } from "@sanity/types";
import { Product } from "../../../app/content-model/content-types";
import { matchesAppSchema } from "../validation";

export const product = defineType({
  name: "product",
  title: "Product",
  type: "document",
  description: "A product (or a habit) that plans and tutorial pages recommend. 'Learn More' shows its details.",
  fields: [
    defineField({ name: "name", title: "Name", type: "string" }),
    defineField({ name: "kind", title: "Kind", type: "string", description: 'e.g. "Cleanser", "Primer", "Habit".' }),
    defineField({ name: "description", title: "One line on the card", type: "string" }),
    defineField({
      name: "details",
      title: "Details ('Learn More')",
      type: "array",
      of: [defineArrayMember({ type: "text", rows: 3 })],
      description: "Why it helps and what to look for.",
    }),
    defineField({ name: "howToUse", title: "How to use", type: "text", rows: 2 }),
    defineField({ name: "image", title: "Picture", type: "contentImage" }),
    defineField({
      name: "shopUrl",
      title: "Shop link",
      type: "url",
      description: "Optional. An https:// page where it can be bought.",
      validation: (rule) => rule.uri({ scheme: ["https"] }),
    }),
  ],
  validation: (rule) => rule.custom(matchesAppSchema(Product)),
  preview: { select: { title: "name", subtitle: "kind" } },
});
