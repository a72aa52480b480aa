/**
 * A variant applied to its subject: the offer or funnel a visitor in that variant sees. The
 * result is checked by the app's own schema (the offer schema, the funnel schema), so a
 * variant can never show what the app would refuse to show, and the page and the checkout
 * both read prices from the same merged offer (what is charged is what is shown).
 *
 * Pure, relative imports only: the app, the linter and the Studio's validation use it.
 */
import type { z } from "zod";
import { Funnel, type Step } from "../content-model/funnel";
import { Offer } from "../content-model/offer";
import type { OfferChanges, StepChanges } from "../content-model/experiment";

export type Applied<T> = { ok: true; value: T } | { ok: false; problems: { path: (string | number)[]; message: string }[] };

/** The fields of `changes` that are set (a field left empty changes nothing). */
function setFields<T extends object>(changes: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(changes ?? {}).filter(([, value]) => value !== undefined)) as Partial<T>;
}

function problemsOf(error: z.ZodError): { path: (string | number)[]; message: string }[] {
  return error.issues.map((issue) => ({ path: issue.path.filter((p): p is string | number => typeof p !== "symbol"), message: issue.message }));
}

/** The offer document as a visitor in this variant sees it (not yet checked). */
export function changedOffer<T extends { plans: { id: string }[]; sections: { _type: string }[] }>(offer: T, changes: OfferChanges | undefined): T {
  if (!changes) return offer;
  const planChanges = new Map((changes.plans ?? []).map(({ id, ...rest }) => [id, setFields(rest)]));
  let plans = offer.plans.map((plan) => ({ ...plan, ...planChanges.get(plan.id) }));
  const onSale = changes.planIds;
  if (onSale) plans = onSale.flatMap((id) => plans.filter((plan) => plan.id === id));
  const sections = offer.sections.map((section) => {
    if (section._type === "hero" && changes.hero) return { ...section, ...setFields(changes.hero) };
    if (section._type === "plans" && onSale) return { ...section, planIds: onSale };
    return section;
  });
  return { ...offer, ...(changes.pageTitle ? { pageTitle: changes.pageTitle } : {}), plans, sections };
}

/**
 * The variant's offer, checked by the offer schema; problems name paths in the offer.
 * Plans named by the variant must exist on the offer (a change to a plan that is not there
 * would silently change nothing).
 */
export function applyOfferChanges(offer: Offer | Record<string, unknown>, changes: OfferChanges | undefined): Applied<Offer> {
  const base = offer as Offer;
  // The control: the offer itself (the same object, so whatever is worked out from it is shared).
  if (!changes || Object.values(changes).every((v) => v === undefined)) return Offer.safeParse(base).success ? { ok: true, value: base } : reparsed(base);
  const known = new Set((base.plans ?? []).map((p) => p.id));
  const missing = [...(changes?.plans ?? []).map((p) => p.id), ...(changes?.planIds ?? [])].filter((id) => !known.has(id));
  if (missing.length) return { ok: false, problems: [...new Set(missing)].map((id) => ({ path: ["plans"], message: `the offer has no plan "${id}"` })) };
  return reparsed(changedOffer(base, changes));
}

function reparsed(offer: unknown): Applied<Offer> {
  const parsed = Offer.safeParse(offer);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, problems: problemsOf(parsed.error) };
}

/** A step with the variant's changes (not yet checked): copy replaced, the result button merged. */
export function changedStep<T extends object>(step: T, changes: StepChanges | undefined): T {
  if (!changes) return step;
  const { cta, ...rest } = setFields(changes);
  const current = (step as { cta?: object }).cta;
  return { ...step, ...rest, ...(cta ? { cta: { ...current, ...setFields(cta) } } : {}) };
}

/** The funnel document (or resolved funnel) with the variant's changes on step `stepId`. */
export function changedFunnel<T extends { steps: object[] }>(funnel: T, stepId: string, changes: StepChanges | undefined): T {
  return { ...funnel, steps: funnel.steps.map((step) => ((step as { id?: unknown }).id === stepId ? changedStep(step, changes) : step)) };
}

/** Fields of one step type that another type does not have, named in words, for a variant that sets them. */
function unknownKeyMessage(message: string, step: Step | undefined): string {
  const keys = /^Unrecognized keys?: (.*)$/.exec(message);
  if (!keys || !step) return message;
  return `a ${step.type} step has no ${keys[1]}`;
}

/**
 * The funnel a visitor in this variant runs, checked by the funnel schema; problems name
 * paths in the funnel ("steps.3.cta.href").
 */
export function applyStepChanges(funnel: Funnel, stepId: string, changes: StepChanges | undefined): Applied<Funnel> {
  const index = funnel.steps.findIndex((step) => step.id === stepId);
  if (index < 0) return { ok: false, problems: [{ path: ["steps"], message: `the funnel has no step "${stepId}"` }] };
  if (!changes || Object.values(changes).every((v) => v === undefined)) return { ok: true, value: funnel };
  const merged = Funnel.safeParse(changedFunnel(funnel, stepId, changes));
  if (merged.success) return { ok: true, value: merged.data };
  return {
    ok: false,
    problems: problemsOf(merged.error).map((p) => ({ ...p, message: unknownKeyMessage(p.message, funnel.steps[Number(p.path[1])]) })),
  };
}
