/**
 * Checks across content documents that one document's schema cannot see, for
 * `npm run funnels:check`: references point at documents of the right type, a routine plan's
 * rules fit the quizzes it names (the funnels' own rule checks, lintPlanRules), one plan is
 * the default, every plan is sold by an offer, and every offer page has an address of its own
 * (not a quiz's, not another offer's; the app's own pages are refused by the offer schema).
 * Pure: the script loads the files.
 */
import { lintPlanRules } from "~/funnels/lint";
import type { Funnel } from "~/content-model/funnel";
import { PublishedOffer } from "~/content-model/offer";
import { Plan, Product, TutorialStep } from "../content-model/content-types";

export type ContentDocument = { _id: string; _type: string; [key: string]: unknown };
export type ContentReport = { errors: string[]; warnings: string[] };

const refsOf = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.flatMap((v) => (v && typeof v === "object" && typeof (v as { _ref?: unknown })._ref === "string" ? [(v as { _ref: string })._ref] : []))
    : [];

/** @param funnels the funnels the engine runs, by their document id ("funnel-skin") */
export function lintContent(dataset: readonly ContentDocument[], funnels: ReadonlyMap<string, Funnel>): ContentReport {
  const byId = new Map(dataset.map((d) => [d._id, d]));
  const errors: string[] = [];
  const warnings: string[] = [];
  const where = (doc: ContentDocument) => `content: ${doc._type} "${doc._id}"`;
  const expect = (doc: ContentDocument, path: string, ref: string, type: string) => {
    const target = byId.get(ref);
    if (!target) errors.push(`${where(doc)}: ${path}: no document "${ref}"`);
    else if (target._type !== type) errors.push(`${where(doc)}: ${path}: "${ref}" is a ${target._type}, not a ${type}`);
  };
  const schema = (doc: ContentDocument, parsed: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) => {
    for (const issue of parsed.success ? [] : (parsed.error?.issues ?? []))
      errors.push(`${where(doc)}: ${issue.path.map(String).join(".") || "(root)"}: ${issue.message}`);
    return parsed.success;
  };

  const plans = dataset.filter((d) => d._type === "plan");
  for (const doc of plans) {
    if (!schema(doc, Plan.safeParse(doc))) continue;
    const plan = Plan.parse(doc);
    plan.answersFrom.forEach((ref, i) => expect(doc, `answersFrom.${i}`, ref._ref, "funnel"));
    plan.tutorial.forEach((ref, i) => expect(doc, `tutorial.${i}`, ref._ref, "tutorialStep"));
    plan.products.otherwise.forEach((ref, i) => expect(doc, `products.otherwise.${i}`, ref._ref, "product"));
    plan.products.rules.forEach((rule, i) => rule.products.forEach((ref, j) => expect(doc, `products.rules.${i}.products.${j}`, ref._ref, "product")));
    const asked = plan.answersFrom.flatMap((ref) => funnels.get(ref._ref) ?? []);
    for (const problem of lintPlanRules(plan, asked)) errors.push(`${where(doc)}: ${problem.path.join(".")}: ${problem.message}`);
    if (!dataset.some((d) => d._type === "offer" && refsOf([d.routinePlan])[0] === doc._id)) warnings.push(`${where(doc)}: no offer sells this plan`);
  }
  const defaults = plans.filter((p) => p.isActive === true);
  if (defaults.length !== 1) errors.push(`content: ${defaults.length} plans are marked active; exactly one is the plan members without one see`);

  for (const doc of dataset.filter((d) => d._type === "tutorialStep")) {
    if (schema(doc, TutorialStep.safeParse(doc))) refsOf(doc.recommended).forEach((ref, i) => expect(doc, `recommended.${i}`, ref, "product"));
  }
  for (const doc of dataset.filter((d) => d._type === "product")) schema(doc, Product.safeParse(doc));
  // One address, one page: an offer page never shares its path with another offer or a quiz.
  const funnelRoutes = new Map([...funnels.values()].map((f) => [f.route, f.id]));
  const offerPaths = new Map<string, string>();
  for (const doc of dataset.filter((d) => d._type === "offer")) {
    // PublishedOffer: also its refund promises against its plans' windows (ADR 33).
    if (!schema(doc, PublishedOffer.safeParse(doc))) continue;
    const offer = PublishedOffer.parse(doc);
    expect(doc, "routinePlan", offer.routinePlan._ref, "plan");
    const quiz = funnelRoutes.get(offer.path);
    if (quiz) errors.push(`${where(doc)}: path: "${offer.path}" is the address of the quiz "${quiz}"`);
    const other = offerPaths.get(offer.path);
    if (other) errors.push(`${where(doc)}: path: "${offer.path}" is already the address of the offer "${other}"`);
    else offerPaths.set(offer.path, doc._id);
  }
  return { errors, warnings };
}
