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
  /** The brands page's 'Book Demo' / 'See Example' scheduling page. */
  bookingUrl: z.url({ protocol: /^https$/ }),
  /** Links in every page's footer (brands page, legal pages). */
  footerLinks: z.array(z.object({ label: text, href: path })).default([]),
});
export type SiteSettings = z.infer<typeof SiteSettings>;

/** Title and description for a page's meta tags (and its Open Graph card). */
export const PageMeta = z.object({ title: text, description: text.max(300) });
export type PageMeta = z.infer<typeof PageMeta>;

const link = z.object({ label: text, href: path });
const titled = z.object({ title: text, text: text });

export const LandingPage = z.object({
  _id: z.literal("page-landing"),
  meta: PageMeta,
  eyebrow: text,
  headline: text,
  subheadline: text,
  primaryCta: link,
  /** Short trust chips under the hero. */
  claims: z.array(text),
  /** The claims as big figures (rating, women coached, dermatologist approved, learners). */
  claimStats: z.array(z.object({ value: text, label: text })).min(1),
  claimsHeading: text,
  quizzesHeading: text,
  quizzes: z.array(z.object({ title: text, text: text, href: path, minutes: z.number().int().min(1) })).min(1),
  howItWorks: z.object({ heading: text, steps: z.array(titled).min(1) }),
  testimonials: z.object({ heading: text, items: z.array(z.object({ quote: text, name: text, detail: text })).min(1) }),
  brandsTeaser: z.object({ heading: text, text: text, link }),
});
export type LandingPage = z.infer<typeof LandingPage>;

/** An illustration served by the app from public/images/ (never an external URL). */
export const ContentImage = z.object({
  src: z.string().regex(/^\/images\/[a-z0-9/-]+\.(svg|webp|png|jpg)$/, "must be a file under /images/"),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  alt: z.string().trim(),
});
export type ContentImage = z.infer<typeof ContentImage>;

const PlanStep = z.object({ title: text, description: text, image: ContentImage, tips: z.array(text).min(1) });

/** A routine plan. Its _id is the plan id in URLs (/plan/:id) and completions: never rename it. */
export const Plan = z
  .object({
    _id: z.string().regex(/^[a-z0-9-]+$/, "must be lower-case letters, digits and dashes"),
    _type: z.literal("plan"),
    name: text,
    description: text,
    isActive: z.boolean().default(false),
    stepCount: z.number().int().min(1).max(20).default(6),
    steps: z.array(PlanStep).min(1),
  })
  .refine((plan) => plan.steps.length === plan.stepCount, { message: "stepCount must equal the number of steps", path: ["stepCount"] });
export type Plan = z.infer<typeof Plan>;

const Product = z.object({ name: text, description: text, image: ContentImage });
const AvoidItem = z.object({ title: text, text: text });

/** One tutorial page, /path1 to /path6. */
export const TutorialStep = z.object({
  _id: text,
  _type: z.literal("tutorialStep"),
  number: z.number().int().min(1).max(6),
  title: text,
  video: z.object({ title: text, duration: text, image: ContentImage }),
  explanation: z.array(text).min(1),
  keyMessage: text,
  tips: z.array(text).length(3),
  /** 'Recommended for You' (products), or another heading such as 'Lifestyle Essentials'. */
  recommendedHeading: text.default("Recommended for You"),
  recommended: z.array(Product).length(2),
  avoid: z.array(AvoidItem).length(2),
  next: z.object({ label: text, href: path }),
});
export type TutorialStep = z.infer<typeof TutorialStep>;

/** Texts around the tutorial: its footer and the /completion page. */
export const TutorialSettings = z.object({
  _id: z.literal("tutorialSettings"),
  _type: z.literal("tutorialSettings"),
  totalSteps: z.number().int().min(1),
  footer: z.object({
    tagline: text,
    links: z.array(z.object({ label: text, href: z.string().regex(/^(\/(?!\/)|#)/).nullable() })).min(1),
    copyright: text,
  }),
  completion: z.object({ title: text, message: text, badge: text, button: z.object({ label: text, href: path }), trustLine: text }),
});
export type TutorialSettings = z.infer<typeof TutorialSettings>;

/** The members' home page: fixed cards, motivational lines and the trust footer. */
export const HomePage = z.object({
  _id: z.literal("page-home"),
  _type: z.literal("homePage"),
  tips: z.array(text).length(4),
  products: z.array(Product).length(2),
  avoid: z.array(AvoidItem).length(2),
  /**
   * Lines under the week, chosen by the member's state: "start" (no streak), "continue"
   * (a streak, today not done yet), "done" (today done). {streak} is the streak, {next} the day after it.
   */
  motivation: z.array(z.object({ when: z.enum(["start", "continue", "done"]), text: text })).min(3),
  trustFooter: text,
});
export type HomePage = z.infer<typeof HomePage>;

/** The business landing page, /partnerships. Both calls to action go to siteSettings.bookingUrl. */
export const PartnershipsPage = z.object({
  _id: z.literal("page-partnerships"),
  _type: z.literal("partnershipsPage"),
  meta: PageMeta,
  hero: z.object({ eyebrow: text, headline: text, text: text, badge: text, promises: z.array(text).min(1) }),
  problems: z.object({ heading: text, items: z.array(titled).min(1) }),
  features: z.object({ heading: text, items: z.array(titled).min(1) }),
  demo: z.object({
    heading: text,
    text: text,
    phone: z.object({ brand: text, greeting: text, planName: text, streak: text, steps: z.array(text).min(1).max(6), cta: text }),
  }),
  journey: z.object({ heading: text, items: z.array(titled).length(4) }),
  impact: z.object({ heading: text, stats: z.array(z.object({ value: text, label: text })).min(1), footnote: text }),
  tiers: z.object({
    heading: text,
    items: z.array(z.object({ name: text, price: text, note: text, features: z.array(text).min(1), highlighted: z.boolean().default(false) })).min(1),
  }),
  brands: z.object({ heading: text, logos: z.array(ContentImage).length(4) }),
  testimonial: z.object({ quote: text, name: text, role: text }),
  finalCta: z.object({ heading: text, text: text, badge: text }),
  cta: z.object({ bookDemo: text, seeExample: text }),
});
export type PartnershipsPage = z.infer<typeof PartnershipsPage>;

/** /privacy-policy and /terms-of-service. */
export const LegalPage = z.object({
  _id: text,
  _type: z.literal("legalPage"),
  slug: z.enum(["privacy-policy", "terms-of-service"]),
  title: text,
  description: text.max(300),
  /** When the text last changed, YYYY-MM-DD. */
  updated: z.iso.date(),
  backLabel: text,
  intro: text,
  sections: z.array(z.object({ heading: text, paragraphs: z.array(text).min(1) })).min(1),
});
export type LegalPage = z.infer<typeof LegalPage>;
