/**
 * An experiment as a content document (_type "experiment"): one subject — an offer page, or
 * one step of a funnel — and two or more variants, each with a weight (its share of
 * visitors) and the changes it makes to the subject. A variant without changes shows the
 * subject as written (the control).
 *
 *   offer:  copy (browser title, the hero's badge, headline, subheadline), prices and texts
 *           of plans (by plan id), and which plans are on sale.
 *   funnel: a step's copy, where it leads next (the funnel's order), and on a result step the
 *           call to action (the result's target page).
 *
 * Pure zod, relative imports only: the Studio, the linter and the app share it.
 */
import { z } from "zod";
import { Reference } from "./content-types";
import { Next } from "./funnel";
import { OfferPlan } from "./offer";

const text = z.string().trim().min(1);
/** Ids end up in URLs, cookies, reports and the event log: keep them boring. */
const slug = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "use lower-case letters, digits and single dashes");
const planId = OfferPlan.shape.id;

/** What a variant changes in one of the offer's plans; anything left out stays as the offer has it. */
export const PlanChange = z.object({
  /** The plan changed (it must exist on the offer). */
  id: planId,
  name: text.optional(),
  priceMinor: OfferPlan.shape.priceMinor.optional(),
  compareAtMinor: z.number().int().positive().optional(),
  badge: text.optional(),
  priceNote: text.optional(),
  buttonLabel: text.optional(),
  features: z.array(text).min(1).optional(),
  finePrint: text.optional(),
  featured: z.boolean().optional(),
});
export type PlanChange = z.infer<typeof PlanChange>;

export const OfferChanges = z.object({
  pageTitle: text.optional(),
  /** The hero section's copy. */
  hero: z.object({ badge: text.optional(), headline: text.optional(), subheadline: text.optional() }).optional(),
  plans: z.array(PlanChange).optional(),
  /**
   * The plans on sale in this variant, in the order shown: every plans section lists these,
   * and only these can be bought. Empty: every plan of the offer, as its sections list them.
   */
  planIds: z.array(planId).min(1).optional(),
});
export type OfferChanges = z.infer<typeof OfferChanges>;

/**
 * What a variant changes in the funnel step. Copy fields exist on some step types only (an
 * intro has a headline, a question a title); the merged step is checked by the funnel schema.
 */
export const StepChanges = z.object({
  label: text.optional(),
  eyebrow: text.optional(),
  headline: text.optional(),
  subheadline: text.optional(),
  title: text.optional(),
  subtitle: text.optional(),
  buttonLabel: text.optional(),
  continueLabel: text.optional(),
  note: text.optional(),
  messages: z.array(text).min(1).optional(),
  /** Where the step leads instead (another order of the funnel's steps, or another page). */
  next: Next.optional(),
  /** A result step's button: its words and where it leads (the funnel's result target). */
  cta: z.object({ label: text.optional(), href: z.string().optional() }).optional(),
});
export type StepChanges = z.infer<typeof StepChanges>;

export const Variant = z.object({
  /** Stored with each visitor's assignment and every event: never change it once running. */
  key: slug,
  /** What the admin calls it ("Annual at $49"). */
  name: text,
  /** Its share of visitors, against the other variants' weights (50 and 50: half each). */
  weight: z.number().int("use a whole number").min(1, "must be more than 0").max(1000),
  offer: OfferChanges.optional(),
  step: StepChanges.optional(),
});
export type Variant = z.infer<typeof Variant>;

export const ExperimentStatus = z.enum(["running", "stopped"]);

/**
 * The experiment, with its subject given by `offer` / `funnel` (references as stored, or the
 * ids the app's query resolves them to).
 */
function experimentShape<O extends z.ZodType, F extends z.ZodType>(offer: O, funnel: F) {
  return z
    .object({
      _id: text,
      _type: z.literal("experiment"),
      /** Stored with assignments and events: never change it once running. */
      experimentId: slug,
      name: text,
      /** What the marketer expects and why (shown in the admin). */
      hypothesis: text.optional(),
      /** Running: visitors are assigned. Stopped: everyone sees the subject as written; the results stay. */
      status: ExperimentStatus,
      kind: z.enum(["offer", "funnel"]),
      // Null where the app's query resolves a subject the experiment does not have.
      offer: offer.nullish(),
      funnel: funnel.nullish(),
      /** The funnel step the variants change (a funnel experiment). */
      step: slug.optional(),
      variants: z.array(Variant).min(2, "an experiment needs at least two variants").max(6, "at most 6 variants"),
    })
    .superRefine((experiment, ctx) => {
      const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: "custom", path, message });
      if (experiment.kind === "offer") {
        if (!experiment.offer) issue(["offer"], "choose the offer this experiment changes");
        if (experiment.funnel) issue(["funnel"], "an offer experiment names no funnel");
        if (experiment.step) issue(["step"], "an offer experiment names no step");
      } else {
        if (!experiment.funnel) issue(["funnel"], "choose the funnel this experiment changes");
        if (!experiment.step) issue(["step"], "choose the step (its id) the variants change");
        if (experiment.offer) issue(["offer"], "a funnel experiment names no offer");
      }
      const keys = new Set<string>();
      experiment.variants.forEach((variant, i) => {
        if (keys.has(variant.key)) issue(["variants", i, "key"], `another variant is also called "${variant.key}"`);
        keys.add(variant.key);
        if (experiment.kind === "offer" && variant.step) issue(["variants", i, "step"], "an offer experiment changes the offer, not a step");
        if (experiment.kind === "funnel" && variant.offer) issue(["variants", i, "offer"], "a funnel experiment changes its step, not an offer");
        const plans = new Set<string>();
        variant.offer?.plans?.forEach((plan, j) => {
          if (plans.has(plan.id)) issue(["variants", i, "offer", "plans", j, "id"], `plan "${plan.id}" is changed twice`);
          plans.add(plan.id);
        });
      });
    });
}

/** As stored (and edited in the Studio): the subject by reference. */
export const Experiment = experimentShape(Reference, Reference);
export type Experiment = z.infer<typeof Experiment>;

/** As the app reads it: the subject's offerId or funnel id (app/content/queries.ts resolves them). */
export const ResolvedExperiment = experimentShape(slug, slug);
export type ResolvedExperiment = z.infer<typeof ResolvedExperiment>;

/** The subject in words, for the admin: "offer crease-free", "funnel skin, step 3". */
export function subjectLabel(experiment: Pick<ResolvedExperiment, "kind" | "offer" | "funnel" | "step">): string {
  return experiment.kind === "offer" ? `Offer ${experiment.offer}` : `Funnel ${experiment.funnel}, step ${experiment.step}`;
}
