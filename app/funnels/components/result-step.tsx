import { Link } from "@remix-run/react";
import { ArrowRightIcon } from "~/components/ui/icons";
import type { ViewOf } from "../view";
import { InsightCard, MissingInsight } from "./insight-card";
import { StepChrome, useStepFocus } from "./step-chrome";

export function ResultStep({ view }: { view: ViewOf<"result"> }) {
  const { step, insight } = view;
  const heading = useStepFocus<HTMLHeadingElement>();
  return (
    <StepChrome label={step.label} progress={step.progress}>
      <div className="text-center">
        {step.eyebrow ? <p className="text-sm font-semibold uppercase tracking-[0.14em] text-rose-700">{step.eyebrow}</p> : null}
        <h1 ref={heading} tabIndex={-1} className="mt-2 text-3xl font-semibold leading-tight outline-none sm:text-4xl">
          {step.title}
        </h1>
      </div>
      {insight ? <InsightCard insight={insight} /> : <MissingInsight />}
      {/* Server-rendered markup (ADR 42): the chart costs the quiz no JavaScript. */}
      {view.progressChartHtml ? <div dangerouslySetInnerHTML={{ __html: view.progressChartHtml }} /> : null}
      <div className="mt-8 flex flex-col items-center gap-4">
        <Link to={step.cta.href} className="btn-primary w-full">
          {step.cta.label}
          <ArrowRightIcon />
        </Link>
        <Link to={view.funnel.route} className="text-sm font-medium text-muted underline underline-offset-4 hover:text-ink">
          Start the quiz again
        </Link>
      </div>
    </StepChrome>
  );
}

export function InsightStep({ view }: { view: ViewOf<"insight"> }) {
  const { step, insight } = view;
  const heading = useStepFocus<HTMLHeadingElement>();
  return (
    <StepChrome backHref={view.backHref} label={step.label} progress={step.progress}>
      <h1 ref={heading} tabIndex={-1} className="text-center text-3xl font-semibold leading-tight outline-none sm:text-4xl">
        {step.title}
      </h1>
      {insight ? <InsightCard insight={insight} /> : <MissingInsight />}
      {view.nextHref ? (
        <div className="mt-8 flex justify-center">
          <Link to={view.nextHref} className="btn-primary w-full">
            {step.continueLabel}
            <ArrowRightIcon />
          </Link>
        </div>
      ) : null}
    </StepChrome>
  );
}
