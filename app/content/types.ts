/**
 * Content documents the app reads, as zod schemas. Everything from the dataset or
 * the CMS is parsed with these before a page sees it.
 */
import { z } from "zod";

const text = z.string().trim().min(1);
const path = z.string().regex(/^\/(?!\/)/, "must be a path inside the app");

export const Insight = z.object({
  _id: text,
  _type: z.literal("insight"),
  title: text,
  summary: text,
  /** Paragraphs; may contain {field} placeholders filled from the visitor's answers. */
  body: z.array(text).min(1),
  /** "What your plan focuses on" bullet points. */
  highlights: z.array(text).default([]),
});
export type Insight = z.infer<typeof Insight>;

export const SiteSettings = z.object({
  _id: z.literal("siteSettings"),
  brandName: text,
  tagline: text,
  supportEmail: z.email(),
  claims: z.object({
    rating: text,
    skinQuizRating: text,
    women: text,
    learners: text,
    dermatologistApproved: z.boolean(),
  }),
  bookingUrl: z.url({ protocol: /^https$/ }),
});
export type SiteSettings = z.infer<typeof SiteSettings>;

export const LandingPage = z.object({
  _id: z.literal("page-landing"),
  eyebrow: text,
  headline: text,
  subheadline: text,
  primaryCta: z.object({ label: text, href: path }),
  claims: z.array(text),
  quizzes: z.array(z.object({ title: text, text: text, href: path, minutes: z.number().int().min(1) })).min(1),
});
export type LandingPage = z.infer<typeof LandingPage>;
