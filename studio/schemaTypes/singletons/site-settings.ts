import { defineArrayMember, defineField, defineType } from "@sanity/types";
import { SiteSettings } from "../../../app/content-model/content-types";
import { matchesAppSchema } from "../validation";

export const siteSettings = defineType({
  name: "siteSettings",
  title: "Site settings",
  type: "document",
  description: "Brand name, support address, the claims shown across the site and the footer links.",
  fields: [
    defineField({ name: "brandName", title: "Brand name", type: "string" }),
    defineField({ name: "tagline", title: "Tagline", type: "string" }),
    defineField({ name: "supportEmail", title: "Support e-mail", type: "string" }),
    defineField({
      name: "claims",
      title: "Claims",
      type: "object",
      description: "Only claims you can prove: they appear on quizzes and offers.",
      fields: [
        defineField({ name: "rating", title: "Rating", type: "string", description: "e.g. 4.7" }),
        defineField({ name: "skinQuizRating", title: "Skin quiz rating", type: "string" }),
        defineField({ name: "women", title: "Women coached", type: "string", description: "e.g. 10,000+" }),
        defineField({ name: "learners", title: "Learners", type: "string" }),
        defineField({ name: "dermatologistApproved", title: "Dermatologist approved", type: "boolean" }),
      ],
    }),
    defineField({ name: "bookingUrl", title: "Booking link", type: "string", description: "Where brands book a demo from the partnerships page (https://…)." }),
    defineField({
      name: "footerLinks",
      title: "Footer links",
      type: "array",
      description: "Links in the footer of every page (and the tutorial's), e.g. the partnerships and legal pages. A link without a page is not shown.",
      of: [defineArrayMember({ type: "link" })],
    }),
  ],
  validation: (rule) => rule.custom(matchesAppSchema(SiteSettings)),
  preview: { prepare: () => ({ title: "Site settings" }) },
});
