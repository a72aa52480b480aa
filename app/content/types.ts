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
