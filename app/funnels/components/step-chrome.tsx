import type { SubmissionResult } from "@conform-to/react";
import { Link, useActionData } from "@remix-run/react";
import { useEffect, useRef, type ReactNode } from "react";
import { ArrowLeftIcon } from "~/components/ui/icons";
import { formErrorsOf } from "~/utils/form-errors";

/**
 * The page frame of every step: back link, step label and progress bar. `fadeIn`: the step's
 * content fades up as it appears. Questions appear at once instead (ADR 43, round 4): a fade is
 * drawn frame by frame for as long as it lasts, and in a quiz answered at speed the next tap
 * waited behind it (about 20 ms an answer).
 */
export function StepChrome({
  backHref,
  label,
  progress,
  children,
  wide = false,
  fadeIn = true,
}: {
  backHref?: string;
  label?: string;
  progress?: number;
  children: ReactNode;
  wide?: boolean;
  fadeIn?: boolean;
}) {
  const hasBar = progress !== undefined;
  return (
    <div className={`mx-auto w-full ${wide ? "max-w-3xl" : "max-w-xl"} px-5 pb-16 pt-6 sm:pt-10`}>
      {backHref || label || hasBar ? (
        <div className="mb-6 sm:mb-8">
          <div className="flex min-h-10 items-center justify-between gap-4">
            {backHref ? (
              <Link to={backHref} className="-ml-2 inline-flex items-center gap-1.5 rounded-full px-2 py-2 text-sm font-medium text-muted hover:text-ink">
                <ArrowLeftIcon />
                Back
              </Link>
            ) : (
              <span />
            )}
            {label ? <p className="text-sm font-semibold tracking-wide text-rose-700">{label}</p> : null}
          </div>
          {hasBar ? (
            <div
              role="progressbar"
              aria-label="Quiz progress"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={progress}
              aria-valuetext={`${progress}%`}
              className="mt-3 h-2 overflow-hidden rounded-full bg-sand"
            >
              {/* Moved, not resized: a transform glides without laying the page out again each frame. */}
              <div
                className="h-full w-full rounded-full bg-rose-500 transition-transform duration-500"
                style={{ transform: `translateX(${progress - 100}%)` }}
              />
            </div>
          ) : null}
        </div>
      ) : null}
      <div className={fadeIn ? "animate-step-in" : undefined}>{children}</div>
    </div>
  );
}

let firstPageRendered = false;

/**
 * Moves keyboard and screen-reader focus to the step's heading when a new step
 * appears after a navigation (not on the first page load, where the browser decides).
 */
export function useStepFocus<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (firstPageRendered) ref.current?.focus({ preventScroll: true });
    firstPageRendered = true;
  }, []);
  return ref;
}

/** Why the step's form was refused: the errors of the funnel action's answer (a Conform reply). */
export function FormError() {
  const errors = formErrorsOf(useActionData<SubmissionResult<string[]>>());
  if (!errors) return null;
  return (
    <p role="alert" className="mt-5 rounded-2xl border border-danger/20 bg-danger/5 px-4 py-3 text-sm font-medium text-danger">
      {errors.join(" ")}
    </p>
  );
}
