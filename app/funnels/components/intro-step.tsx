import { Form, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { ArrowRightIcon, BadgeIcon } from "~/components/ui/icons";
import { useHydrated } from "~/hooks/use-hydrated";
import { answerStep } from "../answer-queue";
import type { ViewOf } from "../view";
import { FormError, StepChrome, useStepFocus } from "./step-chrome";

/**
 * The funnel's first screen: a plain form whose button starts the quiz. With JavaScript, the first
 * question shows at once and the start reaches the server behind it (answer-queue.ts).
 */
export function IntroStep({ view }: { view: ViewOf<"intro"> }) {
  const { step } = view;
  const heading = useStepFocus<HTMLHeadingElement>();
  const hydrated = useHydrated();
  const [sending, setSending] = useState(false);
  const busy = useNavigation().state !== "idle" || sending;
  return (
    <StepChrome backHref={view.backHref} label={step.label} progress={step.progress} wide>
      <section className="relative overflow-hidden rounded-[2rem] border border-line bg-white px-6 py-10 text-center shadow-soft sm:px-12 sm:py-14">
        <div aria-hidden="true" className="pointer-events-none absolute -right-16 -top-20 h-64 w-64 rounded-full bg-rose-100/70 blur-2xl" />
        <div aria-hidden="true" className="pointer-events-none absolute -bottom-24 -left-16 h-64 w-64 rounded-full bg-sand blur-2xl" />
        <div className="relative">
          {step.eyebrow ? <p className="text-sm font-semibold uppercase tracking-[0.14em] text-rose-700">{step.eyebrow}</p> : null}
          <h1 ref={heading} tabIndex={-1} className="mx-auto mt-3 max-w-2xl text-4xl font-semibold leading-[1.1] outline-none sm:text-5xl">
            {step.headline}
          </h1>
          {step.subheadline ? <p className="mx-auto mt-4 max-w-xl text-lg leading-relaxed text-muted">{step.subheadline}</p> : null}
          {step.badges?.length ? (
            <ul className="mt-7 flex flex-wrap justify-center gap-2.5" aria-label="Why people trust us">
              {step.badges.map((badge) => (
                <li key={badge} className="inline-flex items-center gap-2 rounded-full border border-line bg-cream px-3.5 py-1.5 text-sm font-medium text-ink">
                  <BadgeIcon text={badge} className="h-4 w-4 text-gold" />
                  {badge}
                </li>
              ))}
            </ul>
          ) : null}
          {step.features?.length ? (
            <ul className="mt-8 grid gap-3 text-left sm:grid-cols-3">
              {step.features.map((feature) => (
                <li key={feature.title} className="rounded-2xl border border-line bg-cream/60 p-4">
                  <p className="font-semibold">{feature.title}</p>
                  <p className="mt-1 text-sm text-muted">{feature.text}</p>
                </li>
              ))}
            </ul>
          ) : null}
          <Form
            method="post"
            className="mt-9"
            onSubmit={(event) => {
              if (!hydrated || !view.plan) return;
              event.preventDefault();
              setSending(true);
              void answerStep(view, [], {}).finally(() => setSending(false));
            }}
          >
            <button type="submit" className="btn-primary" disabled={busy}>
              {step.buttonLabel}
              <ArrowRightIcon />
            </button>
          </Form>
          <FormError />
        </div>
      </section>
    </StepChrome>
  );
}
