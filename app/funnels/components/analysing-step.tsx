import { useNavigate } from "@remix-run/react";
import { useEffect } from "react";
import { CheckIcon } from "~/components/ui/icons";
import type { ViewOf } from "../view";
import { StepChrome, useStepFocus } from "./step-chrome";

/**
 * "Analysing…": waits the step's duration, then moves on. With JavaScript off, a
 * meta refresh does the same.
 */
export function AnalysingStep({ view }: { view: ViewOf<"analysing"> }) {
  const { step, nextHref } = view;
  const navigate = useNavigate();
  const heading = useStepFocus<HTMLHeadingElement>();
  useEffect(() => {
    if (!nextHref) return;
    const timer = setTimeout(() => navigate(nextHref, { replace: true }), step.durationMs);
    return () => clearTimeout(timer);
  }, [navigate, nextHref, step.durationMs]);

  const seconds = Math.max(0, Math.round(step.durationMs / 1000));
  const perMessage = step.durationMs / step.messages.length;
  return (
    <StepChrome label={step.label} progress={step.progress}>
      {nextHref ? (
        <noscript>
          <meta httpEquiv="refresh" content={`${seconds};url=${nextHref}`} />
        </noscript>
      ) : null}
      <section className="flex flex-col items-center py-8 text-center" aria-live="polite">
        <svg viewBox="0 0 100 100" className="h-28 w-28 -rotate-90" aria-hidden="true">
          <circle cx="50" cy="50" r="45" fill="none" stroke="var(--color-sand)" strokeWidth="8" />
          <circle
            cx="50"
            cy="50"
            r="45"
            fill="none"
            stroke="var(--color-rose-500)"
            strokeWidth="8"
            strokeLinecap="round"
            strokeDasharray="283"
            style={{ animation: `ring-fill ${step.durationMs}ms linear both` }}
          />
        </svg>
        <h1 ref={heading} tabIndex={-1} className="mt-8 text-3xl font-semibold outline-none">
          {step.title}
        </h1>
        <ul className="mt-6 space-y-3 text-left">
          {step.messages.map((message, i) => (
            <li
              key={message}
              className="flex items-center gap-3 text-base text-ink animate-fade-in"
              style={{ animationDelay: `${Math.round(i * perMessage)}ms` }}
            >
              <span className="flex h-6 w-6 items-center justify-center rounded-full bg-sage/15 text-sage">
                <CheckIcon className="h-3.5 w-3.5" />
              </span>
              {message}
            </li>
          ))}
        </ul>
        {nextHref ? (
          <noscript>
            <p className="mt-8 text-sm text-muted">
              Not moving on?{" "}
              <a className="font-semibold text-rose-700 underline" href={nextHref}>
                See your results
              </a>
            </p>
          </noscript>
        ) : null}
      </section>
    </StepChrome>
  );
}
