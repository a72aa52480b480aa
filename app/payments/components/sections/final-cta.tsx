/** The closing call: a title and one plan's button. */
import { Wrap } from "../offer-parts";
import { PlanButton } from "../plan-button";
import type { SectionProps } from "./section-props";

export function FinalCta({ section }: SectionProps<"finalCta">) {
  return (
    <Wrap>
      <div className="mx-auto max-w-2xl rounded-card bg-rose-700 px-6 py-10 text-center text-white shadow-soft">
        <h2 className="text-3xl font-semibold">{section.title}</h2>
        {section.text ? <p className="mt-2 text-rose-100">{section.text}</p> : null}
        <div className="mx-auto mt-6 max-w-sm">
          <PlanButton planId={section.planId} label={section.buttonLabel} className="btn-secondary w-full border-white" />
        </div>
      </div>
    </Wrap>
  );
}
