import { defineArrayMember, defineField, defineType } from "@sanity/types";
import { HomePage, TutorialSettings } from "../../../app/content/types";
import { matchesAppSchema } from "../validation";

export const homePage = defineType({
  name: "homePage",
  title: "Members' home",
  type: "document",
  description: "The cards and lines on a member's home page.",
  fields: [
    defineField({ name: "tips", title: "Tips (exactly 4)", type: "array", of: [defineArrayMember({ type: "string" })] }),
    defineField({ name: "products", title: "Products (exactly 2)", type: "array", of: [defineArrayMember({ type: "product" })] }),
    defineField({ name: "avoid", title: "Things to avoid (exactly 2)", type: "array", of: [defineArrayMember({ type: "avoidItem" })] }),
    defineField({
      name: "motivation",
      title: "Motivational lines",
      type: "array",
      description: "{streak} is the member's streak, {next} the day after it.",
      of: [
        defineArrayMember({
          type: "object",
          name: "motivationLine",
          fields: [
            defineField({
              name: "when",
              title: "Shown when",
              type: "string",
              options: { list: [{ title: "No streak yet", value: "start" }, { title: "Streak, today not done", value: "continue" }, { title: "Today done", value: "done" }] },
            }),
            defineField({ name: "text", title: "Line", type: "string" }),
          ],
          preview: { select: { title: "text", subtitle: "when" } },
        }),
      ],
    }),
    defineField({ name: "trustFooter", title: "Trust line", type: "string" }),
  ],
  validation: (rule) => rule.custom(matchesAppSchema(HomePage)),
  preview: { prepare: () => ({ title: "Members' home" }) },
});

export const tutorialSettings = defineType({
  name: "tutorialSettings",
  title: "Tutorial texts",
  type: "document",
  description: "The tutorial's footer and its completion page.",
  fields: [
    defineField({ name: "totalSteps", title: "Number of tutorial steps", type: "number" }),
    defineField({
      name: "footer",
      title: "Footer",
      type: "object",
      fields: [
        defineField({ name: "tagline", title: "Tagline", type: "string" }),
        defineField({
          name: "links",
          title: "Links",
          type: "array",
          description: "A link with no page is shown as plain text.",
          of: [defineArrayMember({ type: "object", name: "footerLink", fields: [defineField({ name: "label", title: "Label", type: "string" }), defineField({ name: "href", title: "Page or #anchor", type: "string" })] })],
        }),
        defineField({ name: "copyright", title: "Copyright", type: "string" }),
      ],
    }),
    defineField({
      name: "completion",
      title: "Completion page",
      type: "object",
      fields: [
        defineField({ name: "title", title: "Title", type: "string" }),
        defineField({ name: "message", title: "Message", type: "text", rows: 2 }),
        defineField({ name: "badge", title: "Badge", type: "string" }),
        defineField({ name: "button", title: "Button", type: "link" }),
        defineField({ name: "trustLine", title: "Trust line", type: "string" }),
      ],
    }),
  ],
  validation: (rule) => rule.custom(matchesAppSchema(TutorialSettings)),
  preview: { prepare: () => ({ title: "Tutorial texts" }) },
});
