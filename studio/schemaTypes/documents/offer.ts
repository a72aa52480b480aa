/**
 * An offer (paywall) page: its plans, priced in minor units (cents), and the sections the
 * page shows, in order. The Studio runs the app's own offer schema
 * (app/content-model/offer.ts), so it flags exactly what the app would refuse to show.
 */
import { defineArrayMember, defineField, defineType } from "@sanity/types";
import { PublishedOffer } from "../../../app/content-model/offer";
import { addressIsFree, matchesAppSchema, type Explain } from "../validation";

const anchorHint = "An anchor on the page, e.g. #plan-annual.";

function formatMinor(minor: unknown): string {
  return typeof minor === "number" ? `$${(minor / 100).toFixed(minor % 100 === 0 ? 0 : 2)}` : "no price";
}

/** The app's offer rules in marketers' words (the rules themselves are the app's). */
export const explainOfferProblem: Explain = ({ path, message }, doc) => {
  if (message === "must be more than the price" && path[0] === "plans" && typeof path[1] === "number") {
    const plan = (doc.plans as { priceMinor?: unknown }[] | undefined)?.[path[1]];
    return `The struck-through price must be more than the price (${formatMinor(plan?.priceMinor)})`;
  }
  const unknownPlan = /^unknown plan "(.*)"$/.exec(message);
  if (unknownPlan) return `No plan has the id "${unknownPlan[1]}"`;
  if (message === "plan ids must be unique") return "Plan ids must be unique";
  if (message === "a countdown banner needs countdownSeconds") return "A countdown banner needs the countdown length";
  return message;
};

const cta = (name: string, title: string) =>
  defineField({
    name,
    title,
    type: "object",
    fields: [
      defineField({ name: "label", title: "Label", type: "string" }),
      defineField({ name: "href", title: "Goes to", type: "string", description: anchorHint }),
    ],
  });
const texts = (name: string, title: string) => defineField({ name, title, type: "array", of: [defineArrayMember({ type: "string" })] });
const s = (name: string, title: string) => defineField({ name, title, type: "string" });

export const offerPlan = defineType({
  name: "offerPlan",
  title: "Plan",
  type: "object",
  fields: [
    defineField({ name: "id", title: "Plan id", type: "string", description: "e.g. annual. Used by checkouts: change it only with a developer." }),
    defineField({
      name: "tier",
      title: "Kind",
      type: "string",
      options: {
        list: [
          { title: "Monthly", value: "monthly" },
          { title: "Annual", value: "annual" },
          { title: "One payment", value: "single_payment" },
        ],
      },
    }),
    defineField({ name: "name", title: "Name", type: "string" }),
    defineField({
      name: "priceMinor",
      title: "Price (in cents)",
      type: "number",
      description: "What is charged, in cents: 5900 is $59.00 (at least 50).",
    }),
    defineField({
      name: "compareAtMinor",
      title: "Struck-through price (in cents)",
      type: "number",
      description: "The “was” price. Must be more than the price.",
    }),
    defineField({ name: "currency", title: "Currency", type: "string", options: { list: [{ title: "US dollars", value: "usd" }] }, initialValue: "usd" }),
    defineField({ name: "priceSuffix", title: "After the price", type: "string", description: 'e.g. "/month" or "one-time".' }),
    s("badge", "Badge"),
    defineField({ name: "priceNote", title: "Under the price", type: "string", description: "{perDay} is the annual price per day, {price} the price." }),
    defineField({ name: "buttonLabel", title: "Button", type: "string", description: "{price} is the price." }),
    texts("features", "What's included"),
    s("finePrint", "Small print"),
    defineField({
      name: "refundDays",
      title: "Refund window (days)",
      type: "number",
      description:
        "Days after the purchase in which the buyer can have a full refund from their profile (0: none). The Terms list it; a text on this page that quotes a money-back period must say the same number.",
      initialValue: 7,
    }),
    defineField({ name: "featured", title: "Highlighted plan", type: "boolean" }),
  ],
  preview: {
    select: { title: "name", price: "priceMinor", was: "compareAtMinor", suffix: "priceSuffix", badge: "badge" },
    prepare: ({ title, price, was, suffix, badge }) => ({
      title,
      subtitle: `${formatMinor(price)}${suffix ?? ""}${was ? ` (was ${formatMinor(was)})` : ""}${badge ? ` · ${badge}` : ""}`,
    }),
  },
});

const section = (name: string, title: string, fields: ReturnType<typeof defineField>[], titleField = "title") =>
  defineArrayMember({ type: "object", name, title, fields, preview: { select: { subtitle: titleField }, prepare: ({ subtitle }) => ({ title, subtitle }) } });

const productFit = defineArrayMember({
  type: "object",
  name: "productFit",
  fields: [
    s("fitLabel", "Fit label"),
    defineField({ name: "fitPercent", title: "Fit (%)", type: "number" }),
    defineField({ name: "locked", title: "Locked until they pay", type: "boolean" }),
  ],
  preview: { select: { title: "fitLabel", percent: "fitPercent" }, prepare: ({ title, percent }) => ({ title, subtitle: `${percent ?? "?"}%` }) },
});

export const offer = defineType({
  name: "offer",
  title: "Offer",
  type: "document",
  description: "A page where visitors choose a plan and pay.",
  fields: [
    defineField({ name: "offerId", title: "Offer id", type: "string", description: "Used in checkouts and reports: change it only with a developer." }),
    defineField({
      name: "path",
      title: "Address",
      type: "string",
      description: "Where the page lives, e.g. /glow-offer: one segment, lower-case letters, digits and dashes. It goes live when published.",
      validation: (rule) => rule.custom(addressIsFree),
    }),
    defineField({ name: "pageTitle", title: "Browser tab title", type: "string" }),
    defineField({ name: "description", title: "Description (for search engines)", type: "text", rows: 2 }),
    defineField({
      name: "funnels",
      title: "Quizzes leading here",
      type: "array",
      of: [defineArrayMember({ type: "string" })],
      description: "Their answers go with the checkout and personalise this page.",
      options: { picker: "funnelIds" } as object,
    }),
    defineField({ name: "routinePlan", title: "Routine plan it unlocks", type: "reference", to: [{ type: "plan" }] }),
    defineField({ name: "countdownSeconds", title: "Countdown (seconds)", type: "number", description: "Empty: no countdown." }),
    s("processingLabel", "Button text while the checkout opens"),
    defineField({ name: "plans", title: "Plans", type: "array", of: [defineArrayMember({ type: "offerPlan" })] }),
    defineField({
      name: "oneTapOffer",
      title: "One-tap offer after purchase",
      type: "object",
      description: "Shown once on the payment success page; bought with the card just used. Empty: none.",
      fields: [
        defineField({ name: "offer", title: "Offer sold", type: "reference", to: [{ type: "offer" }] }),
        s("planId", "Its one-time plan (id)"),
        defineField({ name: "priceMinor", title: "One-tap price (cents)", type: "number" }),
        s("headline", "Headline"),
        s("text", "Text"),
        s("buttonLabel", "Button ({price} is the price)"),
        s("consentLabel", "Checkbox on this page: agree to keep the card"),
      ],
    }),
    defineField({
      name: "sections",
      title: "Page sections",
      type: "array",
      description: "Top to bottom.",
      of: [
        section("countdownBanner", "Countdown banner", [s("text", "Text ({time} is the countdown)"), s("badge", "Badge")], "text"),
        section(
          "hero",
          "Hero",
          [
            s("badge", "Badge"),
            s("headline", "Headline"),
            s("subheadline", "Subheadline"),
            defineField({ name: "rating", title: "Rating", type: "object", fields: [s("value", "Value"), s("label", "Label")] }),
            texts("benefits", "Benefits"),
            texts("proof", "Proof line"),
            defineField({ name: "image", title: "Picture", type: "contentImage", description: "Optional: shown under the headline." }),
            cta("cta", "Button"),
          ],
          "headline",
        ),
        section("plans", "Plans", [
          s("title", "Title"),
          s("subtitle", "Subtitle"),
          defineField({
            name: "planIds",
            title: "Plans shown",
            type: "array",
            of: [defineArrayMember({ type: "string" })],
            options: { picker: "offerPlans" } as object,
          }),
        ]),
        section("lockedProducts", "Products chosen for the visitor", [
          s("title", "Title"),
          s("subtitle", "Subtitle (chosen from their answers)"),
          s("generalSubtitle", "Subtitle without answers"),
          defineField({
            name: "fits",
            title: "Cards",
            type: "array",
            of: [productFit],
            description: "One card each, 1 to 3. The routine plan's products for the visitor's answers fill them, best first.",
          }),
          cta("unlock", "Unlock button"),
        ]),
        section("routine", "Routine preview", [
          s("title", "Title"),
          s("subtitle", "Subtitle"),
          defineField({
            name: "visibleSteps",
            title: "Steps shown unlocked",
            type: "number",
            description: "The steps are the routine plan's, chosen for the visitor's answers: these show with their description, the rest by name only.",
          }),
          s("lockedLabel", "Locked label ({count})"),
          cta("unlock", "Unlock button"),
        ]),
        section("urgency", "Urgency line", [s("text", "Text"), cta("cta", "Button")], "text"),
        section("tips", "Tips", [
          s("title", "Title"),
          defineField({
            name: "count",
            title: "Tips shown",
            type: "number",
            description: "1 to 4 of the routine plan's home tips, chosen for the visitor's answers (the tips a buyer gets).",
          }),
          defineField({ name: "visibleTips", title: "Tips shown unlocked", type: "number", description: "The rest show locked." }),
          s("tipLabel", "Each tip's heading ({n} = its number)"),
          cta("unlock", "Unlock button"),
        ]),
        section("testimonials", "Testimonials", [
          s("title", "Title"),
          defineField({
            name: "items",
            title: "Testimonials",
            type: "array",
            of: [
              defineArrayMember({
                type: "object",
                name: "testimonial",
                fields: [
                  s("name", "Name"),
                  s("detail", "Detail"),
                  defineField({ name: "quote", title: "Quote", type: "text", rows: 3 }),
                  s("before", "Before"),
                  s("after", "After"),
                ],
              }),
            ],
          }),
        ]),
        section("explanation", "Explanation", [s("anchorId", "Anchor id"), s("title", "Title"), texts("paragraphs", "Paragraphs"), texts("points", "Points")]),
        section("guarantee", "Guarantee", [s("title", "Title"), s("text", "Text")]),
        section("whatsInside", "What's inside", [
          s("title", "Title"),
          defineField({
            name: "items",
            title: "Items",
            type: "array",
            of: [defineArrayMember({ type: "object", name: "insideItem", fields: [s("title", "Title"), s("text", "Text")] })],
          }),
        ]),
        section("faq", "FAQ", [
          s("title", "Title"),
          defineField({
            name: "items",
            title: "Questions",
            type: "array",
            of: [
              defineArrayMember({
                type: "object",
                name: "faqItem",
                fields: [s("question", "Question"), defineField({ name: "answer", title: "Answer", type: "text", rows: 3 })],
              }),
            ],
          }),
        ]),
        section("finalCta", "Final call to action", [
          s("title", "Title"),
          s("text", "Text"),
          defineField({ name: "planId", title: "Plan", type: "string", options: { picker: "offerPlan" } as object }),
          s("buttonLabel", "Button"),
        ]),
        section("secureCheckout", "Secure checkout line", [s("text", "Text")], "text"),
      ],
    }),
  ],
  validation: (rule) => rule.custom(matchesAppSchema(PublishedOffer, explainOfferProblem)),
  preview: {
    select: { title: "pageTitle", path: "path", plans: "plans" },
    prepare: ({ title, path, plans }) => {
      const first = (plans as { priceMinor?: number; priceSuffix?: string }[] | undefined)?.[0];
      return { title, subtitle: `${path ?? ""}${first ? ` · from ${formatMinor(first.priceMinor)}${first.priceSuffix ?? ""}` : ""}` };
    },
  },
});
