/** The plan cards: price (with the struck-through one), features and the plan's button. */
import { CheckIcon, ShieldIcon } from "~/components/ui/icons";
import { usePage } from "../offer-page-state";
import { SectionTitle, Wrap } from "../offer-parts";
import { PlanButton } from "../plan-button";
import type { SectionProps } from "./section-props";

export function Plans({ section }: SectionProps<"plans">) {
  const { offer, selected } = usePage();
  const plans = section.planIds.map((id) => offer.plans.find((p) => p.id === id)!).filter(Boolean);
  return (
    <Wrap>
      {section.title ? <SectionTitle title={section.title} subtitle={section.subtitle} /> : null}
      <div className={`mt-8 grid gap-5 ${plans.length > 1 ? "md:grid-cols-2" : "mx-auto max-w-md"}`}>
        {plans.map((plan) => {
          const isSelected = selected === plan.id;
          return (
            <article
              key={plan.id}
              id={`plan-${plan.id}`}
              aria-label={plan.name}
              data-selected={isSelected ? "true" : undefined}
              className={`card relative flex scroll-mt-24 flex-col p-6 transition-shadow sm:p-8 target:ring-4 target:ring-rose-200 ${
                plan.featured ? "border-rose-200" : ""
              } ${isSelected ? "ring-4 ring-rose-500/60" : ""}`}
            >
              {plan.badge ? (
                <p className="absolute -top-3.5 left-1/2 -translate-x-1/2 whitespace-nowrap rounded-full bg-rose-600 px-4 py-1 text-sm font-semibold text-white shadow-soft">
                  {plan.badge}
                </p>
              ) : null}
              <h3 className="text-center text-2xl font-semibold">{plan.name}</h3>
              <p className="mt-4 flex items-baseline justify-center gap-2">
                {plan.compareAt ? (
                  <>
                    {/* Struck-through text is not announced as such: say it in words. */}
                    <span className="sr-only">was</span>
                    <s className="text-xl text-muted">{plan.compareAt}</s>
                    <span className="sr-only">now</span>
                  </>
                ) : null}
                <span className="font-display text-5xl font-semibold text-ink">{plan.price}</span>
                <span className="text-muted">{plan.priceSuffix}</span>
              </p>
              {plan.priceNote ? <p className="mt-2 text-center font-semibold text-rose-700">{plan.priceNote}</p> : null}
              {plan.features.length ? (
                <ul className="mt-6 grid flex-1 content-start gap-2.5">
                  {plan.features.map((feature) => (
                    <li key={feature} className="flex items-start gap-3 text-[15px]">
                      <CheckIcon className="mt-1 h-4 w-4 shrink-0 text-sage" />
                      <span>{feature}</span>
                    </li>
                  ))}
                </ul>
              ) : null}
              <div className="mt-7">
                <PlanButton planId={plan.id} label={plan.buttonLabel} className={plan.featured ? "btn-primary w-full" : "btn-secondary w-full"} />
              </div>
              {plan.finePrint ? (
                <p className="mt-3 flex items-center justify-center gap-1.5 text-center text-sm text-muted">
                  <ShieldIcon className="h-4 w-4 text-sage" />
                  {plan.finePrint}
                </p>
              ) : null}
            </article>
          );
        })}
      </div>
    </Wrap>
  );
}
