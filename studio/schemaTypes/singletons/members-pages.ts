import { defineArrayMember, defineField, defineType } from "@sanity/types";
import { HomePage, TutorialSettings } from "../../../app/content-model/content-types";
import { matchesAppSchema } from "../validation";

export const homePage = defineType({
  name: "homePage",
  title: "Members' home",
  type: "document",
  description: "The lines and invitations around a member's plan (the plan's own cards are in the plan).",
  fields: [
    defineField({
      name: "guest",
      title: "Signed-out visitors",
      type: "object",
      description: "What /home shows someone who is not signed in.",
      fields: [
        defineField({ name: "title", title: "Title", type: "string" }),
        defineField({ name: "text", title: "Text", type: "text", rows: 2 }),
        defineField({ name: "signInLabel", title: "Sign-in button", type: "string" }),
        defineField({ name: "quizLabel", title: "Quiz button", type: "string" }),
        defineField({ name: "quizHref", title: "Quiz", type: "string", description: "e.g. /quiz" }),
      ],
    }),
    defineField({
      name: "noAnswers",
      title: "Members who haven't taken their plan's quiz",
      type: "object",
      fields: [
        defineField({ name: "text", title: "Text", type: "text", rows: 2 }),
        defineField({ name: "linkLabel", title: "Link to the quiz", type: "string" }),
      ],
    }),
    defineField({ name: "pickerTitle", title: "Plan picker title", type: "string", description: "For members who own several plans." }),
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
              options: {
                list: [
                  { title: "No streak yet", value: "start" },
                  { title: "Streak, today not done", value: "continue" },
                  { title: "Today done", value: "done" },
                ],
              },
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
    defineField({
      name: "footer",
      title: "Footer",
      type: "object",
      description: "Its links are the site settings' footer links.",
      fields: [
        defineField({ name: "tagline", title: "Tagline", type: "string" }),
        defineField({ name: "copyright", title: "Copyright", type: "string", description: "{year} is replaced by the current year." }),
      ],
    }),
    defineField({
      name: "completion",
      title: "Completion page",
      type: "object",
      fields: [
        defineField({ name: "title", title: "Title", type: "string" }),
        defineField({ name: "message", title: "Message", type: "text", rows: 2, description: "{plan} is the plan's name." }),
        defineField({ name: "badge", title: "Badge when today's routine is done", type: "string", description: "{count} is the number of steps." }),
        defineField({ name: "pendingBadge", title: "Badge otherwise", type: "string", description: "{done} steps done of {count}." }),
        defineField({ name: "button", title: "Button", type: "link" }),
        defineField({ name: "pendingButton", title: "Button when today's routine is not done", type: "string", description: "It opens the routine." }),
        defineField({ name: "trustLine", title: "Trust line", type: "string" }),
      ],
    }),
  ],
  validation: (rule) => rule.custom(matchesAppSchema(TutorialSettings)),
  preview: { prepare: () => ({ title: "Tutorial texts" }) },
});
