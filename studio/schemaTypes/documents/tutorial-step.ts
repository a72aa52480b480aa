import { defineArrayMember, defineField, defineType } from "@sanity/types";
import { TutorialStep } from "../../../app/content/types";
import { matchesAppSchema } from "../validation";

export const tutorialStep = defineType({
  name: "tutorialStep",
  title: "Tutorial step",
  type: "document",
  description: "One page of the tutorial (/path1 to /path6).",
  fields: [
    defineField({ name: "number", title: "Step number", type: "number", description: "1 to 6: its page is /path<number>." }),
    defineField({ name: "title", title: "Title", type: "string" }),
    defineField({
      name: "video",
      title: "Video",
      type: "object",
      fields: [
        defineField({ name: "title", title: "Title", type: "string" }),
        defineField({ name: "duration", title: "Length", type: "string", description: "e.g. 2:40" }),
        defineField({ name: "image", title: "Still picture", type: "contentImage" }),
      ],
    }),
    defineField({ name: "explanation", title: "Explanation", type: "array", of: [defineArrayMember({ type: "text", rows: 4 })] }),
    defineField({ name: "keyMessage", title: "Key message", type: "text", rows: 2 }),
    defineField({ name: "tips", title: "Tips (exactly 3)", type: "array", of: [defineArrayMember({ type: "string" })] }),
    defineField({ name: "recommendedHeading", title: "Products heading", type: "string", description: 'Empty: "Recommended for You".' }),
    defineField({ name: "recommended", title: "Products (exactly 2)", type: "array", of: [defineArrayMember({ type: "product" })] }),
    defineField({ name: "avoid", title: "Things to avoid (exactly 2)", type: "array", of: [defineArrayMember({ type: "avoidItem" })] }),
    defineField({ name: "next", title: "Next button", type: "link" }),
  ],
  validation: (rule) => rule.custom(matchesAppSchema(TutorialStep)),
  preview: { select: { title: "title", number: "number" }, prepare: ({ title, number }) => ({ title, subtitle: `Step ${number ?? "?"}` }) },
  orderings: [{ title: "Step number", name: "number", by: [{ field: "number", direction: "asc" }] }],
});
