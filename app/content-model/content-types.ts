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
  /**
   * Links in every page's footer (the site's and the tutorial's). A link without a page is
   * not shown, so a marketer can prepare one (Careers) before its page exists.
   */
  footerLinks: z.array(z.object({ label: text, href: path.nullish() })).default([]),
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

/** A file the app serves from public/images/ (never an external URL). */
const LOCAL_IMAGE = /^\/images\/[a-z0-9/-]+\.(svg|webp|png|jpg)$/;
/** An image uploaded to Sanity, as its asset id says: image-<id>-<width>x<height>-<format>. */
export const IMAGE_ASSET_ID = /^image-([A-Za-z0-9]+)-(\d+)x(\d+)-([a-z]+)$/;

const share = z.number().min(0).max(1);
/** The Studio's crop: how much is cut from each side, as shares of the uploaded image. */
const ImageCrop = z.object({ top: share, bottom: share, left: share, right: share });
/** The Studio's hotspot: the part that must stay in view (its centre and size, as shares). */
const ImageHotspot = z.object({ x: share, y: share, width: share, height: share });
export type ImageCrop = z.infer<typeof ImageCrop>;

/**
 * A picture as pages show it, whichever way it was given:
 * - uploaded in the Studio (`asset`, with the editor's crop and hotspot): `src`/`srcSet` are
 *   Sanity's image CDN once app/content/image-urls.server.ts has filled them in, and its copy in
 *   public/images/cms/ (written by content:pull) when the app reads the embedded dataset;
 * - or a file under public/images/ (`src`, with its `width` and `height`).
 * `width`/`height` are the picture's own (after the crop), so the page keeps its place
 * before it loads. `position` keeps the hotspot in view where a slot crops the picture.
 */
export type ContentImage = {
  src: string;
  srcSet: string | null;
  width: number;
  height: number;
  alt: string;
  position: string | null;
  /** The uploaded image (its asset id and crop), or null for a file of the app's. */
  asset: { id: string; crop: ImageCrop | null } | null;
};

/** A rectangle of an uploaded image, in its pixels. */
export type ImageRect = { left: number; top: number; width: number; height: number };

/**
 * What the editor's crop keeps of an uploaded image, in its pixels, rounded as
 * @sanity/image-url rounds the `rect` it asks the CDN for; null when nothing is cut.
 */
export function cropRect(width: number, height: number, crop: ImageCrop | null): ImageRect | null {
  if (!crop) return null;
  const left = Math.round(crop.left * width);
  const top = Math.round(crop.top * height);
  const rect = {
    left,
    top,
    width: Math.max(1, Math.round(width - crop.right * width - left)),
    height: Math.max(1, Math.round(height - crop.bottom * height - top)),
  };
  return rect.left === 0 && rect.top === 0 && rect.width === width && rect.height === height ? null : rect;
}

/**
 * The copy of an uploaded image the embedded dataset shows (under public/, written by
 * content:pull): the editor's crop of it, as Sanity's CDN cuts it (`rect`), so the page shows
 * without Sanity what it shows with it. Vector images are shown whole, as the CDN serves them.
 */
export function uploadedImageCopy(id: string, crop: ImageCrop | null): { path: string; rect: ImageRect | null; width: number; height: number } | null {
  const [, name, w, h, format] = IMAGE_ASSET_ID.exec(id) ?? [];
  if (!name) return null;
  const rect = format === "svg" ? null : cropRect(Number(w), Number(h), crop);
  if (!rect) return { path: `/images/cms/${name}-${w}x${h}.${format}`, rect, width: Number(w), height: Number(h) };
  return { path: `/images/cms/${name}-crop-${rect.left}-${rect.top}-${rect.width}x${rect.height}.${format}`, rect, width: rect.width, height: rect.height };
}

/** Where the editor's crop leaves an uploaded image: its size in pixels and the hotspot within it. */
function uploadedImage(id: string, crop: ImageCrop | null, hotspot: z.infer<typeof ImageHotspot> | null, alt: string): ContentImage {
  const copy = uploadedImageCopy(id, crop)!;
  const [, , w, h] = IMAGE_ASSET_ID.exec(id)!;
  const kept = copy.rect ?? { left: 0, top: 0, width: Number(w), height: Number(h) };
  const percent = (share: number) => `${Math.round(Math.min(1, Math.max(0, share)) * 1000) / 10}%`;
  return {
    src: copy.path,
    srcSet: null,
    width: copy.width,
    height: copy.height,
    alt,
    position: hotspot ? `${percent((hotspot.x * Number(w) - kept.left) / kept.width)} ${percent((hotspot.y * Number(h) - kept.top) / kept.height)}` : null,
    asset: { id, crop },
  };
}

/**
 * A picture in a content document: an image uploaded in the Studio (`asset`, `crop`,
 * `hotspot`) or a file the app serves from public/images/ (`src`, `width`, `height`).
 * Either way it needs its description (`alt`) for people who cannot see it.
 */
export const ContentImage = z
  .object({
    asset: z.object({ _ref: z.string().regex(IMAGE_ASSET_ID, "must be an uploaded image") }).nullish(),
    crop: ImageCrop.nullish(),
    hotspot: ImageHotspot.nullish(),
    src: z.string().regex(LOCAL_IMAGE, "must be a file under /images/").nullish(),
    width: z.number().int().positive().nullish(),
    height: z.number().int().positive().nullish(),
    alt: z.string({ error: "describe the picture for people who cannot see it" }).trim().min(1, "describe the picture for people who cannot see it"),
  })
  .superRefine((image, ctx) => {
    if (image.asset) return;
    if (!image.src) ctx.addIssue({ code: "custom", path: ["asset"], message: "upload a picture" });
    else
      for (const side of ["width", "height"] as const)
        if (!image[side]) ctx.addIssue({ code: "custom", path: [side], message: `give the file's ${side} in pixels` });
  })
  .transform((image): ContentImage =>
    image.asset
      ? uploadedImage(image.asset._ref, image.crop ?? null, image.hotspot ?? null, image.alt)
      : { src: image.src!, srcSet: null, width: image.width!, height: image.height!, alt: image.alt, position: null, asset: null },
  );

/** A reference to another content document, as Sanity stores it. */
export const Reference = z.object({ _ref: text, _type: z.literal("reference").optional() });
export type Reference = z.infer<typeof Reference>;

/**
 * A condition on a visitor's answers, as in funnels (app/content-model/funnel.ts) and read by the
 * same engine: `anyOf` (the answer, or one of the chosen values, is one of these) or
 * `answered`. Several conditions in a rule must all hold.
 */
export const RuleCondition = z
  .object({
    field: z.string().regex(/^[a-z][A-Za-z0-9]*$/, "use the answer's field name, e.g. skinType"),
    anyOf: z
      .array(z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "use an option's saved value"))
      .min(1)
      .optional(),
    answered: z.boolean().optional(),
  })
  .refine((c) => (c.anyOf === undefined) !== (c.answered === undefined), { message: "give exactly one of anyOf or answered" });
const when = z.array(RuleCondition).min(1, "a rule needs at least one condition");

/**
 * A product (or a habit) recommended in plans and tutorials. 'Learn More' opens its details;
 * the shop link is optional.
 */
export const Product = z.object({
  _id: text,
  _type: z.literal("product"),
  name: text,
  /** "Cleanser", "Primer", "Habit". */
  kind: text,
  /** One line on the card. */
  description: text,
  /** What 'Learn More' shows: why it helps, what to look for. */
  details: z.array(text).min(1),
  howToUse: text.nullish(),
  image: ContentImage,
  shopUrl: z.url({ protocol: /^https$/, error: "must be an https:// address" }).nullish(),
});
export type Product = z.infer<typeof Product>;

const videoPath = (ext: string) =>
  z.string().regex(new RegExp(`^/videos/[a-z0-9/-]+\\.(${ext})$`), `must be a file under /videos/ (.${ext.replaceAll("|", ", .")})`);

/** A file uploaded to Sanity, as its asset id says: file-<id>-<extension>. */
export const FILE_ASSET_ID = /^file-([A-Za-z0-9]+)-([a-z0-9]+)$/;

/** An uploaded file of one of these extensions, as the Studio's file field stores it. */
const uploadedFile = (ext: string, message: string) =>
  z.object({ asset: z.object({ _ref: z.string().regex(new RegExp(`^file-[A-Za-z0-9]+-(${ext})$`), message) }) });

/**
 * Where the embedded dataset finds an uploaded file: its copy under public/videos/cms/, which
 * content:pull writes (the query's `fileUrl`, Sanity's CDN, is only there when reading Sanity).
 */
export function uploadedFileCopy(file: { asset: { _ref: string } } | null | undefined): string | null {
  const [, name, extension] = (file && FILE_ASSET_ID.exec(file.asset._ref)) || [];
  return name ? `/videos/cms/${name}.${extension}` : null;
}

/**
 * A tutorial video: an uploaded file (Sanity stores `file`; the queries add its address as
 * `fileUrl`) or a file the app serves from public/videos/ (`url`). Captions likewise. Its
 * still picture (`poster`) is required: shown until it plays, and its width and height keep
 * the video's place on the page. Steps without a video show their illustration only, never a
 * play button.
 */
export const RoutineVideo = z
  .object({
    title: text,
    file: uploadedFile("mp4|webm", "upload an MP4 or WebM video").nullish(),
    fileUrl: z.url({ protocol: /^https?$/ }).nullish(),
    url: videoPath("mp4|webm").nullish(),
    /** The still shown before it plays, in the video's proportions. */
    poster: ContentImage,
    /** "2:40". */
    duration: z
      .string()
      .regex(/^\d{1,2}:\d{2}$/, "write the length as m:ss, e.g. 2:40")
      .nullish(),
    captions: z
      .object({
        file: uploadedFile("vtt", "upload a .vtt captions file").nullish(),
        fileUrl: z.url({ protocol: /^https?$/ }).nullish(),
        url: videoPath("vtt").nullish(),
        label: text.default("English"),
        srclang: z
          .string()
          .regex(/^[a-z]{2}(-[A-Z]{2})?$/, "a language code such as en")
          .default("en"),
      })
      .refine((c) => c.file || c.fileUrl || c.url, { message: "add a captions file (.vtt) or remove the captions", path: ["url"] })
      .nullish(),
  })
  .refine((v) => v.file || v.fileUrl || v.url, { message: "add a video file or a /videos/ address", path: ["url"] });
export type RoutineVideo = z.infer<typeof RoutineVideo>;

const PlanStepVariant = z.object({
  when,
  /** What changes for these answers; anything left out stays as in the step. */
  title: text.optional(),
  description: text.optional(),
  tips: z.array(text).min(1).optional(),
  /** Shown to the member as why this step fits them ("Oily skin: a lighter layer"). */
  note: text.optional(),
});

const PlanStep = z.object({
  title: text,
  description: text,
  image: ContentImage,
  tips: z.array(text).min(1),
  video: RoutineVideo.nullish(),
  /** Ordered: the first variant whose conditions hold changes the step; none: the step as written. */
  variants: z.array(PlanStepVariant).default([]),
});
export type PlanStep = z.infer<typeof PlanStep>;

const AvoidItem = z.object({ title: text, text: text });

/** A number the visitor's answers pick: the first rule whose conditions hold, else `otherwise`. */
const pickedNumber = (min: number, max: number, otherwise: number) =>
  z
    .object({ rules: z.array(z.object({ when, value: z.number().min(min).max(max) })).default([]), otherwise: z.number().min(min).max(max) })
    .default({ rules: [], otherwise });

/**
 * The typical progress the quiz result draws as a chart (ADR 42): a score on a 0-100 scale
 * that starts at `start` and levels off `typicalGain` points higher, half of the way there by
 * `halfwayWeek`, scaled by `pace` (percent of the gain, e.g. by the time a visitor gives the
 * routine each day). Editorial estimates, shown as typical, never promised.
 */
export const PlanProgress = z
  .object({
    /** The chart's heading. */
    title: text.default("How your skin typically changes"),
    /** What the score measures, named on the chart ("Clear, comfortable skin"). */
    measure: text,
    weeks: z.number().int().min(2).max(16).default(8),
    /** The score at week 0 (e.g. by skin type). */
    start: pickedNumber(0, 90, 40),
    /** Points a person following the plan typically gains in the long run; the curve levels off there. */
    typicalGain: z.number().min(1).max(100).default(40),
    /** The week by which half of that gain is typically reached (e.g. by main concern). */
    halfwayWeek: pickedNumber(0.5, 16, 2),
    /** Percent of the gain (e.g. by time per day). */
    pace: pickedNumber(10, 100, 100),
    /** The small print under the chart: whom the numbers are typical for. */
    note: text.default("Typical for people with answers like yours who follow the plan most days. Not a promise: every skin is different."),
  })
  .refine((p) => Math.max(p.start.otherwise, ...p.start.rules.map((r) => r.value)) + p.typicalGain <= 100, {
    message: "the highest start plus typicalGain must stay within 100",
    path: ["typicalGain"],
  });
export type PlanProgress = z.infer<typeof PlanProgress>;

/**
 * A routine plan, as stored: references to the funnels whose answers personalise it, its
 * tutorial pages and its products. The app reads it through a query that resolves them
 * (`ResolvedPlan`). Its _id is the plan id in URLs (/plan/:id), entitlements and
 * completions: never rename it.
 */
function planShape<P extends z.ZodType, F extends z.ZodType, T extends z.ZodType>(product: P, funnel: F, tutorialPage: T) {
  return z
    .object({
      _id: z.string().regex(/^[a-z0-9-]+$/, "must be lower-case letters, digits and dashes"),
      _type: z.literal("plan"),
      name: text,
      description: text,
      /** The plan members who own none see (the one plan marked active). */
      isActive: z.boolean().default(false),
      stepCount: z.number().int().min(1).max(20).default(6),
      /** The quizzes whose answers personalise this plan, most specific first. */
      answersFrom: z.array(funnel).default([]),
      steps: z.array(PlanStep).min(1),
      /** The tutorial pages, /path1 onwards, in order. */
      tutorial: z.array(tutorialPage).min(1).max(6),
      /** Why the plan fits the member ("For your oily, acne-prone skin"); `otherwise` for answers no rule covers. */
      reasons: z.object({ rules: z.array(z.object({ when, text })).default([]), otherwise: text }),
      /** Home's 'Tips & Tricks' (4). */
      homeTips: z.object({ rules: z.array(z.object({ when, tips: z.array(text).length(4) })).default([]), otherwise: z.array(text).length(4) }),
      /** Products best first: home shows two, the offer page three. */
      products: z.object({ rules: z.array(z.object({ when, products: z.array(product).min(3) })).default([]), otherwise: z.array(product).min(3) }),
      /** Home's 'What to Avoid' (2). */
      avoid: z.array(AvoidItem).length(2),
      /** The typical progress chart on the result of the quizzes that sell this plan; none: no chart. */
      progress: PlanProgress.optional(),
    })
    .refine((plan) => plan.steps.length === plan.stepCount, { message: "stepCount must equal the number of steps", path: ["stepCount"] });
}

export const Plan = planShape(Reference, Reference, Reference);
export type Plan = z.infer<typeof Plan>;

/** A plan as the app reads it: funnel ids, tutorial page ids and the products themselves. */
export const ResolvedPlan = planShape(Product, z.string(), z.string());
export type ResolvedPlan = z.infer<typeof ResolvedPlan>;

function tutorialStepShape<P extends z.ZodType>(product: P) {
  return z.object({
    _id: text,
    _type: z.literal("tutorialStep"),
    title: text,
    /** The illustration; a video, when there is one, plays in its place. */
    image: ContentImage,
    video: RoutineVideo.nullish(),
    explanation: z.array(text).min(1),
    keyMessage: text,
    tips: z.array(text).length(3),
    /** 'Recommended for You' (products), or another heading such as 'Lifestyle Essentials'. */
    recommendedHeading: text.default("Recommended for You"),
    recommended: z.array(product).length(2),
    avoid: z.array(AvoidItem).length(2),
    /** The next button: "Next: Hydration"; it leads to the plan's next page, or /completion after the last. */
    nextLabel: text,
  });
}

/** One tutorial page of a plan, as stored (products by reference). */
export const TutorialStep = tutorialStepShape(Reference);
export type TutorialStep = z.infer<typeof TutorialStep>;

export const ResolvedTutorialStep = tutorialStepShape(Product);
export type ResolvedTutorialStep = z.infer<typeof ResolvedTutorialStep>;

/** Texts around the tutorial: its footer and the /completion page. */
export const TutorialSettings = z.object({
  _id: z.literal("tutorialSettings"),
  _type: z.literal("tutorialSettings"),
  /** The footer's links are the site settings' footer links. */
  footer: z.object({ tagline: text, copyright: text }),
  completion: z.object({
    title: text,
    /** {plan} is the plan's name. */
    message: text,
    /** Shown when every step of today's routine is done; {count} is the number of steps. */
    badge: text,
    /** Shown otherwise; {done} and {count}. */
    pendingBadge: text,
    button: z.object({ label: text, href: path }),
    /** The routine, when today's is not done yet. */
    pendingButton: text,
    trustLine: text,
  }),
});
export type TutorialSettings = z.infer<typeof TutorialSettings>;

/** The members' home page: the lines and invitations around the member's plan. */
export const HomePage = z.object({
  _id: z.literal("page-home"),
  _type: z.literal("homePage"),
  /**
   * Lines under the week, chosen by the member's state: "start" (no streak), "continue"
   * (a streak, today not done yet), "done" (today done). {streak} is the streak, {next} the day after it.
   */
  motivation: z.array(z.object({ when: z.enum(["start", "continue", "done"]), text: text })).min(3),
  trustFooter: text,
  /** What signed-out visitors see instead of a plan. */
  guest: z.object({ title: text, text: text, signInLabel: text, quizLabel: text, quizHref: path }),
  /** Under the plan of a member who has not answered its quiz; {quiz} links to it. */
  noAnswers: z.object({ text: text, linkLabel: text }),
  /** Above the plan picker, for members who own several plans. */
  pickerTitle: text,
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
