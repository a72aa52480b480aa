import { Link } from "@remix-run/react";
import { ArrowRightIcon } from "~/components/ui/icons";
import type { ViewOf } from "../view";
import { StepChrome, useStepFocus } from "./step-chrome";

export function SummaryStep({ view }: { view: ViewOf<"summary"> }) {
  const { step } = view;
  const heading = useStepFocus<HTMLHeadingElement>();
  return (
    <StepChrome backHref={view.backHref} label={step.label} progress={step.progress}>
      <h1 ref={heading} tabIndex={-1} className="text-3xl font-semibold leading-tight outline-none sm:text-4xl">
        {step.title}
      </h1>
      {step.subtitle ? <p className="mt-2 text-muted">{step.subtitle}</p> : null}
      <ul className="mt-7 grid gap-3">
        {(view.cards ?? []).map((card) => (
          <li key={card.title} className="card px-5 py-4">
            <p className="text-sm font-semibold uppercase tracking-[0.1em] text-rose-700">{card.title}</p>
            <ul className="mt-2 flex flex-wrap gap-2">
              {card.values.map((value) => (
                <li key={value} className="rounded-full bg-rose-50 px-3 py-1 text-base font-medium text-ink">
                  {value}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
      {view.nextHref ? (
        <div className="mt-8">
          <Link to={view.nextHref} className="btn-primary w-full">
            {step.continueLabel}
            <ArrowRightIcon />
          </Link>
        </div>
      ) : null}
    </StepChrome>
  );
}
