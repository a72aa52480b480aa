/**
 * The part of an offer page that previews the routine plan a buyer gets (ADR 34): pure, so
 * the page and the tests that compare it with the delivered plan use one function.
 */
import type { PersonalPlan } from "~/members/personalise";
import type { Offer } from "../content-model/offer";

/** One card of the "chosen for your skin" section: the product in that place, its name only when unlocked. */
export type ProductMatch = { kind: string; name: string | null; fitLabel: string; fitPercent: number; locked: boolean };

/** One step of the routine preview: the plan's step for these answers, its description only when unlocked. */
export type PreviewStep = { name: string; detail: string | null };

/** One card of the tips section: one of the plan's home tips for these answers, its text only when unlocked. */
export type PreviewTip = { title: string; text: string | null; locked: boolean };

/**
 * What the offer page previews of the plan a buyer gets: the personal plan's products in the
 * fits' places, its steps and its home tips, in the offer's sections' numbers, unlocked or
 * locked. Locked parts never leave the server with their names or texts (step names stay:
 * they are the routine's outline, as the spec's paywall shows them). Pure, so tests compare it
 * with the plan the member is then given.
 */
export function planPreview(
  sections: Offer["sections"],
  personal: PersonalPlan | null,
): { matches: ProductMatch[]; routine: PreviewStep[]; tips: PreviewTip[] } {
  if (!personal) return { matches: [], routine: [], tips: [] };
  const fits = sections.flatMap((section) => (section._type === "lockedProducts" ? section.fits : []));
  const matches = fits.flatMap((fit, i) => {
    const product = personal.products[i];
    return product
      ? [{ kind: product.kind, name: fit.locked ? null : product.name, fitLabel: fit.fitLabel, fitPercent: fit.fitPercent, locked: fit.locked }]
      : [];
  });
  const routineSection = sections.find((section) => section._type === "routine");
  const routine = routineSection
    ? personal.steps.map((step, i) => ({ name: step.title, detail: i < routineSection.visibleSteps ? step.description : null }))
    : [];
  const tipsSection = sections.find((section) => section._type === "tips");
  const tips = tipsSection
    ? personal.homeTips.slice(0, tipsSection.count).map((tip, i) => {
        const locked = i >= tipsSection.visibleTips;
        return { title: tipsSection.tipLabel.replaceAll("{n}", String(i + 1)), text: locked ? null : tip, locked };
      })
    : [];
  return { matches, routine, tips };
}
