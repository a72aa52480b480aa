import { defineArrayMember, defineField, defineType } from "@sanity/types";
import { TutorialStep } from "../../../app/content-model/content-types";
import { matchesAppSchema } from "../validation";

export const tutorialStep = defineType({
  name: "tutorialStep",
  title: "Tutorial page",
  type: "document",
  description: "One page of a plan's tutorial (/path1 to /path6). The plan lists its pages in order.",
  fields: [
    defineField({ name: "title", title: "Title", type: "string" }),
    defineField({ name: "image", title: "Illustration", type: "contentImage" }),
    defineField({
      name: "video",
      title: "Video",
      type: "routineVideo",
      description: "Optional. Without a video the page shows its illustration, and no play button.",
    }),
    defineField({ name: "explanation", title: "Explanation", type: "array", of: [defineArrayMember({ type: "text", rows: 4 })] }),
    defineField({ name: "keyMessage", title: "Key message", type: "text", rows: 2 }),
    defineField({ name: "tips", title: "Tips (exactly 3)", type: "array", of: [defineArrayMember({ type: "string" })] }),
    defineField({ name: "recommendedHeading", title: "Products heading", type: "string", description: 'Empty: "Recommended for You".' }),
    defineField({
      name: "recommended",
      title: "Products (exactly 2)",
      type: "array",
      of: [defineArrayMember({ type: "reference", to: [{ type: "product" }] })],
    }),
    defineField({ name: "avoid", title: "Things to avoid (exactly 2)", type: "array", of: [defineArrayMember({ type: "avoidItem" })] }),
    defineField({
      name: "nextLabel",
      title: "Next button",
      type: "string",
      description: 'e.g. "Next: Hydration". It leads to the next page of the plan, or to the completion page after the last.',
    }),
  ],
  validation: (rule) => rule.custom(matchesAppSchema(TutorialStep)),
  preview: { select: { title: "title", subtitle: "nextLabel" } },
});
