import type { SubmissionResult } from "@conform-to/react";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import { formErrorsOf } from "~/utils/form-errors";
import type { ViewOf } from "../view";
import { StepChrome, useStepFocus } from "./step-chrome";

/**
 * "Where should we send your plan?": a plain HTML form with the address, a consent box that
 * starts unticked, and two buttons: on with the address, or on without it (the result is never
 * held back). Without JavaScript the same form posts as is; the server checks the address. The
 * visitor's time zone comes from the gc_tz cookie every page sets (no field, no script here).
 */
export function EmailStep({ view }: { view: ViewOf<"email"> }) {
  const { step } = view;
  const heading = useStepFocus<HTMLHeadingElement>();
  const busy = useNavigation().state !== "idle";
  const reply = useActionData<SubmissionResult<string[]>>();
  const errors = formErrorsOf(reply);
  const typed = typeof reply?.initialValue?.email === "string" ? reply.initialValue.email : "";
  const consentTicked = reply?.initialValue?.consent === "yes";
  // One e-mail step per page: fixed ids.
  const id = "email-step";

  return (
    <StepChrome backHref={view.backHref} label={step.label} progress={step.progress}>
      <h1 ref={heading} tabIndex={-1} className="text-3xl font-semibold leading-tight outline-none sm:text-4xl">
        {step.title}
      </h1>
      {step.subtitle ? <p className="mt-2 text-base text-muted">{step.subtitle}</p> : null}

      <Form method="post" className="mt-7 grid gap-5" noValidate>
        <div className="grid gap-1.5">
          <label htmlFor={`${id}-email`} className="text-sm font-semibold text-ink">
            {step.emailLabel}
          </label>
          <input
            id={`${id}-email`}
            type="email"
            name="email"
            autoComplete="email"
            inputMode="email"
            defaultValue={typed}
            aria-invalid={errors ? true : undefined}
            aria-describedby={errors ? `${id}-error` : undefined}
            className="min-h-12 rounded-2xl border border-line bg-white px-4 text-base text-ink shadow-soft placeholder:text-muted/70 focus:border-rose-500 aria-[invalid]:border-danger"
          />
        </div>

        <label className="flex cursor-pointer items-start gap-3 rounded-2xl border border-line bg-white px-4 py-3.5 text-sm text-ink shadow-soft has-[:checked]:border-rose-500 has-[:checked]:bg-rose-50 has-[:focus-visible]:outline has-[:focus-visible]:outline-[3px] has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-rose-500">
          <input type="checkbox" name="consent" value="yes" defaultChecked={consentTicked} className="mt-0.5 h-5 w-5 shrink-0 accent-rose-600" />
          <span>{step.consentLabel}</span>
        </label>

        {errors ? (
          <p id={`${id}-error`} role="alert" className="rounded-2xl border border-danger/20 bg-danger/5 px-4 py-3 text-sm font-medium text-danger">
            {errors.join(" ")}
          </p>
        ) : null}

        <div className="flex flex-col items-center gap-3">
          <button type="submit" name="intent" value="continue" className="btn-primary continue-button w-full" disabled={busy}>
            {step.continueLabel}
          </button>
          <button
            type="submit"
            name="intent"
            value="skip"
            formNoValidate
            className="rounded-full px-4 py-2 text-sm font-semibold text-muted underline underline-offset-4 hover:text-ink"
            disabled={busy}
          >
            {step.skipLabel}
          </button>
          {step.note ? <p className="text-center text-sm text-muted">{step.note}</p> : null}
        </div>
      </Form>
    </StepChrome>
  );
}
