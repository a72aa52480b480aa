/**
 * An experiment: one offer page or one funnel step, shown in two or more variants, each to a
 * share of visitors set by its weight. The Studio runs the app's own checks
 * (app/content-checks/experiment-lint.ts): every variant is applied to the published offer or funnel and
 * must give a page the app would show; only one experiment may run on an offer or a step.
 */
import { defineArrayMember, defineField, defineType, type ConditionalProperty, type CustomValidator } from "@sanity/types";
import { experimentProblems, parseExperiment, subjectKey, type Subject } from "../../../app/content-checks/experiment-lint";
import { sharedQuestionIds } from "../../../app/content/funnel-resolve";
import { asPublished, plainMessage, toMarkers } from "../validation";
import { pageHrefField } from "../objects/content-parts";

/** API version the Studio's own validation queries use. */
const API_VERSION = "2025-02-19";
const PUBLISHED = `!(_id in path("drafts.**"))`;

/**
 * Every variant must apply to the published subject (the app never sees a draft), and no
 * other running experiment may change the same offer or step.
 */
export const experimentRunsInTheApp: CustomValidator = async (doc, context) => {
  if (!doc) return true;
  const published = asPublished(doc as { _id?: string });
  const parsed = parseExperiment(published);
  if (!parsed.ok)
    return toMarkers(
      doc,
      parsed.problems.map((p) => ({ ...p, message: plainMessage(p.message) })),
    );
  const { experiment } = parsed;
  const client = context.getClient({ apiVersion: API_VERSION });
  const ref = experiment.kind === "offer" ? experiment.offer!._ref : experiment.funnel!._ref;
  const target = (await client.fetch(`*[_id == $ref && _type == $type && ${PUBLISHED}][0]`, { ref, type: experiment.kind })) as Record<string, unknown> | null;
  const subject: Subject = { offer: experiment.kind === "offer" ? target : undefined, funnel: experiment.kind === "funnel" ? target : undefined };
  if (experiment.kind === "funnel" && target) {
    const ids = sharedQuestionIds(target);
    const found: { _id: string }[] = ids.length ? await client.fetch(`*[_type == "question" && _id in $ids && ${PUBLISHED}]`, { ids }) : [];
    subject.shared = new Map(found.map((q) => [q._id, q]));
  }
  const problems = experimentProblems(published, subject);
  if (experiment.status === "running") {
    const others: unknown[] = await client.fetch(`*[_type == "experiment" && status == "running" && _id != $id && ${PUBLISHED}]`, {
      id: published._id,
    });
    const clash = others.map(parseExperiment).find((other) => other.ok && subjectKey(other.experiment) === subjectKey(experiment));
    if (clash?.ok)
      problems.push({
        path: ["status"],
        message: `"${clash.experiment.name}" already runs on this ${experiment.kind === "offer" ? "offer" : "step"}: stop one of them`,
      });
  }
  return problems.length ? toMarkers(doc, problems) : true;
};

const s = (name: string, title: string, description?: string) => defineField({ name, title, type: "string", description });
const texts = (name: string, title: string) => defineField({ name, title, type: "array", of: [defineArrayMember({ type: "string" })] });
/** Shown only for experiments of this kind. */
const onlyFor =
  (kind: "offer" | "funnel"): ConditionalProperty =>
  ({ document }) =>
    (document as { kind?: unknown } | undefined)?.kind !== kind;

export const planChange = defineType({
  name: "planChange",
  title: "Plan change",
  type: "object",
  description: "Only what differs in this variant; empty fields stay as the offer has them.",
  fields: [
    defineField({ name: "id", title: "Plan", type: "string", description: "The offer's plan this changes.", options: { picker: "offerPlan" } as object }),
    defineField({ name: "priceMinor", title: "Price (in cents)", type: "number", description: "What is charged and shown in this variant: 4900 is $49.00." }),
    defineField({ name: "compareAtMinor", title: "Struck-through price (in cents)", type: "number", description: "Must be more than the price." }),
    s("name", "Name"),
    s("badge", "Badge"),
    s("priceNote", "Under the price", "{perDay} is the annual price per day, {price} the price."),
    s("buttonLabel", "Button", "{price} is the price."),
    texts("features", "What's included"),
    s("finePrint", "Small print"),
    defineField({ name: "featured", title: "Highlighted plan", type: "boolean" }),
  ],
  preview: {
    select: { id: "id", price: "priceMinor" },
    prepare: ({ id, price }) => ({
      title: id ?? "(plan)",
      subtitle: typeof price === "number" ? `$${(price / 100).toFixed(price % 100 ? 2 : 0)}` : "price unchanged",
    }),
  },
});

export const experimentVariant = defineType({
  name: "experimentVariant",
  title: "Variant",
  type: "object",
  fields: [
    s("name", "Name", "What the admin calls it, e.g. Annual at $49."),
    s("key", "Variant id", "Lower-case letters, digits and dashes, e.g. lower-price. Stored with every visitor in it: never change it once running."),
    defineField({
      name: "weight",
      title: "Weight",
      type: "number",
      description: "Its share of visitors against the others: 50 and 50 is half each, 1 and 3 a quarter and three quarters.",
      initialValue: 50,
    }),
    defineField({
      name: "offer",
      title: "Changes to the offer",
      type: "object",
      description: "Leave everything empty for the control: the offer as it is.",
      hidden: onlyFor("offer"),
      fields: [
        s("pageTitle", "Browser tab title"),
        defineField({ name: "hero", title: "Hero", type: "object", fields: [s("badge", "Badge"), s("headline", "Headline"), s("subheadline", "Subheadline")] }),
        defineField({ name: "plans", title: "Plans", type: "array", of: [defineArrayMember({ type: "planChange" })] }),
        defineField({
          name: "planIds",
          title: "Plans on sale",
          type: "array",
          of: [defineArrayMember({ type: "string" })],
          description: "Tick the plans, shown in the offer's order. Only these are shown and can be bought. None ticked: all of the offer's plans.",
          options: { picker: "offerPlans" } as object,
        }),
      ],
    }),
    defineField({
      name: "step",
      title: "Changes to the step",
      type: "object",
      description: "Leave everything empty for the control: the step as it is. Fill in only fields the step has (an intro has a headline, a question a title).",
      hidden: onlyFor("funnel"),
      fields: [
        s("label", "Small label", 'e.g. "Step 3 of 12".'),
        s("eyebrow", "Eyebrow"),
        s("headline", "Headline"),
        s("subheadline", "Subheadline"),
        s("title", "Title"),
        s("subtitle", "Subtitle"),
        s("buttonLabel", "Button"),
        s("continueLabel", "Continue button"),
        s("note", "Small print"),
        texts("messages", "Analysing messages"),
        defineField({
          name: "next",
          title: "Where visitors go next",
          type: "array",
          of: [defineArrayMember({ type: "branch" })],
          description: "Another order of the quiz: replaces the step's ways on, picking the quiz's steps and answers. The last has no condition.",
        }),
        defineField({
          name: "cta",
          title: "Result button",
          type: "object",
          description: "Result steps only: what the button says and the page it leads to (e.g. another offer).",
          fields: [s("label", "Label"), pageHrefField()],
        }),
      ],
    }),
  ],
  preview: {
    select: { title: "name", key: "key", weight: "weight" },
    prepare: ({ title, key, weight }) => ({ title: title ?? key, subtitle: `${key ?? "?"} · weight ${weight ?? "?"}` }),
  },
});

export const experiment = defineType({
  name: "experiment",
  title: "Experiment",
  type: "document",
  description: "Show an offer or a quiz step in two or more versions and see which earns more.",
  fields: [
    s("name", "Name", "e.g. Annual price: $59 or $49."),
    s("experimentId", "Experiment id", "Lower-case letters, digits and dashes. Results are stored under it: never change it once running."),
    defineField({ name: "hypothesis", title: "What we expect, and why", type: "text", rows: 2 }),
    defineField({
      name: "status",
      title: "Status",
      type: "string",
      description: "Running: visitors are shared out between the variants. Stopped: everyone sees the page as written; the results stay in the admin.",
      options: {
        list: [
          { title: "Running", value: "running" },
          { title: "Stopped", value: "stopped" },
        ],
        layout: "radio",
      },
      initialValue: "running",
    }),
    defineField({
      name: "kind",
      title: "What it changes",
      type: "string",
      options: {
        list: [
          { title: "An offer page (copy, prices, plans)", value: "offer" },
          { title: "A quiz step (copy, order, result page)", value: "funnel" },
        ],
        layout: "radio",
      },
    }),
    defineField({ name: "offer", title: "Offer", type: "reference", to: [{ type: "offer" }], hidden: onlyFor("offer") }),
    defineField({ name: "funnel", title: "Quiz", type: "reference", to: [{ type: "funnel" }], hidden: onlyFor("funnel") }),
    defineField({
      name: "step",
      title: "Step",
      type: "string",
      description: "The step of the quiz above that the variants change.",
      hidden: onlyFor("funnel"),
      options: { picker: "step" } as object,
    }),
    defineField({ name: "variants", title: "Variants", type: "array", of: [defineArrayMember({ type: "experimentVariant" })], description: "Two or more." }),
  ],
  validation: (rule) => rule.custom(experimentRunsInTheApp),
  preview: {
    select: { title: "name", status: "status", kind: "kind", variants: "variants" },
    prepare: ({ title, status, kind, variants }) => ({
      title,
      subtitle: `${status === "running" ? "Running" : "Stopped"} · ${kind === "funnel" ? "quiz step" : "offer"} · ${variants?.length ?? 0} variants`,
    }),
  },
});
