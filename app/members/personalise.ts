/**
 * A routine plan made personal: the member's (or visitor's) quiz answers run through the plan's
 * rules, with the funnels' own rule engine (app/funnels/engine.ts): the first rule whose
 * conditions hold wins, else the plan as written. Pure: no I/O, so pages, the offer page and
 * tests all use the same function.
 */
import { firstMatch, type Answers } from "~/funnels/engine";
import { uploadedFileCopy, type ContentImage, type PlanStep, type Product, type ResolvedPlan, type RoutineVideo } from "~/content-model/content-types";

/** One funnel's answers and when its result was worked out (ISO time). */
export type AnswerSet = { funnel: string; answers: Record<string, string | string[]>; at: string };

/**
 * The answers that personalise a plan: the sets of the funnels it lists, merged so that a
 * field answered in several of them takes its most recent answer.
 */
export function planAnswers(answersFrom: readonly string[], sets: readonly AnswerSet[]): Answers {
  const relevant = sets.filter((set) => answersFrom.includes(set.funnel)).sort((a, b) => a.at.localeCompare(b.at));
  return Object.assign({}, ...relevant.map((set) => set.answers)) as Answers;
}

export type VideoView = {
  title: string;
  src: string;
  poster: ContentImage;
  duration: string | null;
  captions: { src: string; label: string; srclang: string } | null;
};

/**
 * The video to play, or null: a slot without a video shows its picture only. An uploaded file
 * plays from Sanity's CDN, or from its copy under /videos/cms/ when the app reads the embedded dataset.
 */
export function videoView(video: RoutineVideo | null | undefined): VideoView | null {
  if (!video) return null;
  const src = video.fileUrl ?? uploadedFileCopy(video.file) ?? video.url;
  if (!src) return null;
  const captionsSrc = video.captions ? (video.captions.fileUrl ?? uploadedFileCopy(video.captions.file) ?? video.captions.url) : null;
  return {
    title: video.title,
    src,
    poster: video.poster,
    duration: video.duration ?? null,
    captions: video.captions && captionsSrc ? { src: captionsSrc, label: video.captions.label, srclang: video.captions.srclang } : null,
  };
}

export type PersonalStep = {
  title: string;
  description: string;
  image: ContentImage;
  tips: string[];
  /** Why this step is different for the member, when a variant applied. */
  note: string | null;
  video: VideoView | null;
};

export function personalStep(step: PlanStep, answers: Answers): PersonalStep {
  const variant = firstMatch(step.variants, answers);
  return {
    title: variant?.title ?? step.title,
    description: variant?.description ?? step.description,
    image: step.image,
    tips: variant?.tips ?? step.tips,
    note: variant?.note ?? null,
    video: videoView(step.video),
  };
}

export type PersonalPlan = {
  id: string;
  name: string;
  description: string;
  /** "For your oily, acne-prone skin"; null when the answers changed nothing (the plan is then the general one). */
  reason: string | null;
  /** The answers changed something the member follows: a step, the products or the tips. */
  personalised: boolean;
  steps: PersonalStep[];
  products: Product[];
  /** The products a product rule picked for these answers; null: the plan's general picks. */
  productPicks: Product[] | null;
  homeTips: string[];
  avoid: { title: string; text: string }[];
};

/** True when at least one of the plan's funnels has been answered. */
export function hasAnswers(answers: Answers): boolean {
  return Object.keys(answers).length > 0;
}

export function personalisePlan(plan: ResolvedPlan, answers: Answers): PersonalPlan {
  const steps = plan.steps.map((step) => personalStep(step, answers));
  const productPicks = firstMatch(plan.products.rules, answers)?.products ?? null;
  const tips = firstMatch(plan.homeTips.rules, answers)?.tips ?? null;
  // Answered questions the plan's rules don't read leave the general plan: no badge, no reason.
  const personalised = hasAnswers(answers) && (productPicks !== null || tips !== null || plan.steps.some((step) => firstMatch(step.variants, answers)));
  return {
    id: plan._id,
    name: plan.name,
    description: plan.description,
    reason: personalised ? (firstMatch(plan.reasons.rules, answers)?.text ?? plan.reasons.otherwise) : null,
    personalised,
    steps,
    products: productPicks ?? plan.products.otherwise,
    productPicks,
    homeTips: tips ?? plan.homeTips.otherwise,
    avoid: plan.avoid,
  };
}

/**
 * A tutorial page's products, by the same rules as the plan: each product the page recommends
 * gives way to the plan's pick of the same kind ("Cleanser", "Serum"), so the tutorial never
 * recommends a gel cleanser to the member whose plan chose a cream one. Without picks from a
 * product rule (`planPicks` null) the page stays as written. No product is shown twice.
 */
export function tutorialPicks(recommended: readonly Product[], planPicks: readonly Product[] | null): Product[] {
  if (!planPicks) return [...recommended];
  const shown: Product[] = [];
  const isShown = (p: Product) => shown.some((s) => s._id === p._id);
  for (const product of recommended) {
    const pick = planPicks.find((p) => p.kind === product.kind && !isShown(p));
    if (pick) shown.push(pick);
    else if (!isShown(product)) shown.push(product);
  }
  // A page product displaced by a duplicate comes back, so the page keeps its count.
  for (const product of recommended) if (shown.length < recommended.length && !isShown(product)) shown.push(product);
  return shown;
}
