import { defineArrayMember, defineField, defineType, type CustomValidator } from "@sanity/types";
import { LegalPage } from "../../../app/content-model/content-types";
import { matchesAppSchema } from "../validation";

/** API version the Studio's own validation queries use. */
const API_VERSION = "2025-02-19";

const PAGES = [
  { title: "Privacy Policy (/privacy-policy)", value: "privacy-policy" },
  { title: "Terms of Service (/terms-of-service)", value: "terms-of-service" },
];

/** The app shows one published page per address: a second one would be ignored at random. */
const onePagePerAddress: CustomValidator<string | undefined> = async (slug, context) => {
  if (!slug || !context.document) return true;
  const id = context.document._id.replace(/^drafts\./, "");
  const others: number = await context
    .getClient({ apiVersion: API_VERSION })
    .fetch(`count(*[_type == "legalPage" && slug == $slug && !(_id in [$id, $draftId]) && !(_id in path("drafts.**"))])`, {
      slug,
      id,
      draftId: `drafts.${id}`,
    });
  return others > 0 ? "Another legal page already has this address" : true;
};

export const legalPage = defineType({
  name: "legalPage",
  title: "Legal page",
  type: "document",
  description: "The privacy policy or the terms of service.",
  fields: [
    defineField({ name: "slug", title: "Page", type: "string", options: { list: PAGES }, validation: (rule) => rule.custom(onePagePerAddress) }),
    defineField({ name: "title", title: "Title", type: "string" }),
    defineField({ name: "description", title: "Description (for search engines)", type: "text", rows: 2, description: "At most 300 characters." }),
    defineField({ name: "updated", title: "Last updated", type: "date", description: "Change it whenever the text changes." }),
    defineField({ name: "backLabel", title: "Back link", type: "string" }),
    defineField({ name: "intro", title: "Introduction", type: "text", rows: 3 }),
    defineField({
      name: "sections",
      title: "Sections",
      type: "array",
      of: [
        defineArrayMember({
          type: "object",
          name: "legalSection",
          title: "Section",
          fields: [
            defineField({ name: "heading", title: "Heading", type: "string" }),
            defineField({ name: "paragraphs", title: "Paragraphs", type: "array", of: [defineArrayMember({ type: "text", rows: 3 })] }),
          ],
          preview: { select: { title: "heading" } },
        }),
      ],
    }),
  ],
  validation: (rule) => rule.custom(matchesAppSchema(LegalPage)),
  preview: {
    select: { title: "title", subtitle: "slug" },
    prepare: ({ title, subtitle }) => ({ title, subtitle: subtitle ? `/${subtitle}` : "No page chosen" }),
  },
});
