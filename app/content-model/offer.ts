/**
 * An offer page as a content document (_type "offer"): its plans (the price catalogue,
 * in minor units) and the sections the page shows, in order. Pure zod, no server code,
 * so the studio, the linter and unit tests can use it.
 *
 * Texts may hold placeholders filled in when the page renders, so a price is written once:
 *   {price}        the plan's price ("$59", "$9.99")   — in plan texts
 *   {compareAt}    the struck-through price ("$99")    — in plan texts
 *   {perDay}       the annual price per day ("$0.16")  — in plan texts
 *   {time}         the countdown ("9:59")              — in countdown texts
 */
import { z } from "zod";
import { reservedPathProblem } from "./reserved-paths";
import { ContentImage, Reference } from "./content-types";

const text = z.string().trim().min(1);
const id = z.string().regex(/^[a-z0-9][a-z0-9-]{0,40}$/, "must be lower-case letters, digits and dashes");
/** An anchor on the page ("#plan-annual"), never a URL. */
const anchor = z.string().regex(/^#[a-z0-9-]+$/, "must be an anchor such as #plan-annual");

export const Interval = z.enum(["month", "year"]);

export const OfferPlan = z.object({
  id,
  /** What the subscription record calls it: monthly, annual or single_payment. */
  tier: z.enum(["monthly", "annual", "single_payment"]),
  name: text,
  /** The price charged, in minor units (cents). The page shows exactly this. */
  priceMinor: z.number().int().min(50).max(100_000_00),
  currency: z.enum(["usd"]).default("usd"),
  /** Struck-through "was" price, minor units. */
  compareAtMinor: z.number().int().positive().optional(),
  /** The small line under the price: "/month", "one-time". */
  priceSuffix: text,
  badge: text.optional(),
  /** Under the price, e.g. "Just {perDay}/day". */
  priceNote: text.optional(),
  buttonLabel: text,
  features: z.array(text).default([]),
  /** Small print under the button ("30-day money-back guarantee"). */
  finePrint: text.optional(),
  /**
   * Days after the purchase in which the buyer can have a full refund from the billing page
   * (0: none). The one place this plan's refund promise is held: the Terms list it, the
   * billing page offers it, and a text of this offer that quotes a refund period must say it.
   */
  refundDays: z.number().int().min(0).max(365),
  /** The plan the page highlights and scroll buttons select. */
  featured: z.boolean().default(false),
});
export type OfferPlan = z.infer<typeof OfferPlan>;

const Testimonial = z.object({ name: text, detail: text, quote: text, before: text.optional(), after: text.optional() });

export const OfferSection = z.discriminatedUnion("_type", [
  z.object({ _type: z.literal("countdownBanner"), text, badge: text }),
  z.object({
    _type: z.literal("hero"),
    badge: text.optional(),
    headline: text,
    subheadline: text.optional(),
    rating: z.object({ value: text, label: text }).optional(),
    benefits: z.array(text).default([]),
    /** Small proof line under the hero ("10,000+ plans created"). */
    proof: z.array(text).default([]),
    cta: z.object({ label: text, href: anchor }).optional(),
    /** A picture under the headline (uploaded in the Studio, or a file under /images/). */
    image: ContentImage.optional(),
  }),
  z.object({ _type: z.literal("plans"), title: text.optional(), subtitle: text.optional(), planIds: z.array(id).min(1) }),
  z.object({
    _type: z.literal("lockedProducts"),
    title: text,
    /** Shown when the products were chosen from the visitor's answers. */
    subtitle: text.optional(),
    /** Shown to a visitor without answers: the plan's general products, and no claim they were matched. */
    generalSubtitle: text.optional(),
    /**
     * One card per fit, in order: the routine plan's products for the visitor's answers fill
     * them, best first (the plan's product rules, as in the member's plan).
     */
    fits: z
      .array(z.object({ fitLabel: text, fitPercent: z.number().int().min(0).max(100), locked: z.boolean() }))
      .min(1)
      .max(3),
    unlock: z.object({ label: text, href: anchor }),
  }),
  z.object({
    _type: z.literal("routine"),
    title: text,
    subtitle: text.optional(),
    /**
     * How many of the routine plan's steps show unlocked, with their description; the rest show
     * their names only. The steps themselves are the plan's, for the visitor's answers (what a
     * buyer gets), never typed here.
     */
    visibleSteps: z.number().int().min(0),
    /** Shown over the locked steps, "+{count} steps locked" ({count} = locked steps). */
    lockedLabel: text,
    unlock: z.object({ label: text, href: anchor }),
  }),
  z.object({ _type: z.literal("urgency"), text, cta: z.object({ label: text, href: anchor }).optional() }),
  z.object({
    _type: z.literal("tips"),
    title: text,
    /**
     * The routine plan's home tips for the visitor's answers (the 'Tips & Tricks' a buyer gets):
     * the first `count`, of which the first `visibleTips` readable and the rest locked.
     */
    count: z.number().int().min(1).max(4),
    visibleTips: z.number().int().min(0),
    /** Each tip's heading, "Tip {n}" ({n} = its number). */
    tipLabel: text.default("Tip {n}"),
    unlock: z.object({ label: text, href: anchor }),
  }),
  z.object({ _type: z.literal("testimonials"), title: text, items: z.array(Testimonial).min(1) }),
  z.object({ _type: z.literal("explanation"), anchorId: id, title: text, paragraphs: z.array(text).min(1), points: z.array(text).default([]) }),
  z.object({ _type: z.literal("guarantee"), title: text, text }),
  z.object({ _type: z.literal("whatsInside"), title: text, items: z.array(z.object({ title: text, text })).min(1) }),
  z.object({ _type: z.literal("faq"), title: text, items: z.array(z.object({ question: text, answer: text })).min(1) }),
  z.object({ _type: z.literal("finalCta"), title: text, text: text.optional(), planId: id, buttonLabel: text }),
  z.object({ _type: z.literal("secureCheckout"), text }),
]);
export type OfferSection = z.infer<typeof OfferSection>;

export const Offer = z
  .object({
    _id: text,
    _type: z.literal("offer"),
    /** Stable id used in checkouts, metadata and subscription records. */
    offerId: id,
    /** Where the page lives ("/subscribe"): one path segment, never one of the app's own pages. */
    path: z
      .string()
      .regex(/^\/[a-z0-9-]+$/, "must be a one-segment path such as /subscribe")
      .superRefine((path, ctx) => {
        const problem = reservedPathProblem(path);
        if (problem) ctx.addIssue({ code: "custom", message: problem });
      }),
    pageTitle: text,
    description: text,
    /** Funnels whose results lead here: their answers go with the checkout. */
    funnels: z.array(id).default([]),
    /** The routine plan every plan of this offer unlocks (a plan document). */
    routinePlan: Reference,
    /** Seconds on the countdown (599 on the skincare offer); none when the page has no countdown. */
    countdownSeconds: z
      .number()
      .int()
      .min(1)
      .max(24 * 60 * 60)
      .optional(),
    /** What a plan button says while its checkout is being created. */
    processingLabel: text.default("Loading..."),
    plans: z.array(OfferPlan).min(1),
    sections: z.array(OfferSection).min(1),
    /**
     * One further offer /payment-success shows after a purchase here, bought with one tap on the
     * card just used (ADR 45): a one-time plan of another offer, at its own price here. The page
     * asks for the buyer's agreement to keep the card (`consentLabel`, unticked).
     */
    oneTapOffer: z
      .object({
        /** The offer document (_id) whose plan is sold. */
        offer: Reference,
        /** A one-time plan of that offer. */
        planId: id,
        /** The one-tap price, minor units. */
        priceMinor: z.number().int().min(50).max(100_000_00),
        headline: text,
        text,
        /** The button, "{price}" filled in. */
        buttonLabel: text,
        /** The checkbox on this offer page that agrees to keep the card for it. */
        consentLabel: text,
      })
      .optional(),
  })
  .superRefine((offer, ctx) => {
    const planIds = new Set(offer.plans.map((p) => p.id));
    if (planIds.size !== offer.plans.length) ctx.addIssue({ code: "custom", path: ["plans"], message: "plan ids must be unique" });
    offer.sections.forEach((section, i) => {
      const refs = section._type === "plans" ? section.planIds : section._type === "finalCta" ? [section.planId] : [];
      for (const ref of refs) if (!planIds.has(ref)) ctx.addIssue({ code: "custom", path: ["sections", i], message: `unknown plan "${ref}"` });
      if (section._type === "countdownBanner" && !offer.countdownSeconds)
        ctx.addIssue({ code: "custom", path: ["sections", i], message: "a countdown banner needs countdownSeconds" });
      if (section._type === "tips" && section.visibleTips > section.count)
        ctx.addIssue({ code: "custom", path: ["sections", i, "visibleTips"], message: "must be at most the number of tips shown" });
      // The page previews the plan once: a second routine or tips section would repeat it.
      if ((section._type === "routine" || section._type === "tips") && offer.sections.findIndex((s) => s._type === section._type) !== i)
        ctx.addIssue({ code: "custom", path: ["sections", i], message: `an offer has at most one ${section._type} section` });
    });
    for (const [i, plan] of offer.plans.entries()) {
      const recurring = plan.tier !== "single_payment";
      if (plan.compareAtMinor !== undefined && plan.compareAtMinor <= plan.priceMinor)
        ctx.addIssue({ code: "custom", path: ["plans", i, "compareAtMinor"], message: "must be more than the price" });
      if (!recurring && plan.priceNote?.includes("{perDay}"))
        ctx.addIssue({ code: "custom", path: ["plans", i, "priceNote"], message: "{perDay} is for annual plans" });
    }
  });
export type Offer = z.infer<typeof Offer>;

/**
 * An offer as it may be published (the Studio, `npm run funnels:check`): the app's schema, and
 * its refund promises agree with its plans' windows. The app itself parses with `Offer`, so an
 * experiment that takes a plan off sale still renders the page's texts as written.
 */
export const PublishedOffer = Offer.superRefine((offer, ctx) => {
  for (const problem of refundPromiseProblems(offer)) ctx.addIssue({ code: "custom", path: problem.path, message: problem.message });
});

/** A text that promises money back ("30-day money-back guarantee", "Try it for 14 days … 100% back"). */
const REFUND_WORDS = /money[- ]back|refund|100% back|your money back/i;
/** "30-day", "14 days", "7 day": the period a refund promise quotes. */
const DAYS_QUOTED = /\b(\d{1,3})[- ]days?\b/gi;

type OfferInput = { plans: { id: string; name: string; refundDays: number; finePrint?: string }[]; sections: { _type: string; [key: string]: unknown }[] };

/**
 * A refund period quoted in an offer's texts that is not a window its plans hold (ADR 33): a
 * plan's small print must quote that plan's window; a section (the guarantee, the checkout
 * line) one of the offer's plans' windows. The texts stay the marketers' own words; only a
 * number that disagrees with the window the billing page honours is refused.
 */
export function refundPromiseProblems(offer: OfferInput): { path: (string | number)[]; message: string }[] {
  const problems: { path: (string | number)[]; message: string }[] = [];
  const quoted = (value: string) => (REFUND_WORDS.test(value) ? [...value.matchAll(DAYS_QUOTED)].map((m) => Number(m[1])) : []);
  offer.plans.forEach((plan, i) => {
    for (const days of quoted(plan.finePrint ?? ""))
      if (days !== plan.refundDays)
        problems.push({ path: ["plans", i, "finePrint"], message: `promises a ${days}-day refund, but the plan's refund window is ${plan.refundDays} days` });
  });
  const windows = new Set(offer.plans.map((plan) => plan.refundDays).filter((days) => days > 0));
  offer.sections.forEach((section, i) => {
    const texts = [section.text, section.title].filter((t): t is string => typeof t === "string");
    for (const days of texts.flatMap(quoted))
      if (!windows.has(days))
        problems.push({ path: ["sections", i], message: `promises a ${days}-day refund, but no plan of this offer has a ${days}-day refund window` });
  });
  return problems;
}
