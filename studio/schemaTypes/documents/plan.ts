import { defineArrayMember, defineField, defineType } from "@sanity/types";
import { Plan } from "../../../app/content/types";
import { matchesAppSchema } from "../validation";

export const planStep = defineType({
  name: "planStep",
  title: "Routine step",
  type: "object",
  fields: [
    defineField({ name: "title", title: "Title", type: "string" }),
    defineField({ name: "description", title: "What to do", type: "text", rows: 3 }),
    defineField({ name: "image", title: "Illustration", type: "contentImage" }),
    defineField({ name: "tips", title: "Tips", type: "array", of: [defineArrayMember({ type: "string" })] }),
  ],
  preview: { select: { title: "title", subtitle: "description" } },
});

export const plan = defineType({
  name: "plan",
  title: "Routine plan",
  type: "document",
  description: "The daily routine members follow. Its id is in members' links and history: never change it.",
  fields: [
    defineField({ name: "name", title: "Name", type: "string" }),
    defineField({ name: "description", title: "Description", type: "text", rows: 2 }),
    defineField({ name: "isActive", title: "The plan members follow", type: "boolean", description: "Only one plan should be switched on." }),
    defineField({ name: "stepCount", title: "Number of steps", type: "number", description: "Must match the steps below." }),
    defineField({ name: "steps", title: "Steps", type: "array", of: [defineArrayMember({ type: "planStep" })] }),
  ],
  validation: (rule) => rule.custom(matchesAppSchema(Plan)),
  preview: {
    select: { title: "name", active: "isActive", steps: "steps" },
    prepare: ({ title, active, steps }) => ({ title, subtitle: `${steps?.length ?? 0} steps${active ? " · active" : ""}` }),
  },
});
