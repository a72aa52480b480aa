import type { SubmissionResult } from "@conform-to/react";

/**
 * The form-level errors of an action's answer, for forms made only of buttons (funnel steps,
 * offer plans, routine steps): they have no fields to bind, so they read the answer without
 * loading @conform-to/react's `useForm` into the page's JavaScript. Field errors, if any, are
 * shown as well, since such a form has nowhere else to show them.
 */
export function formErrorsOf(result: SubmissionResult<string[]> | null | undefined): string[] | undefined {
  const errors = Object.values(result?.error ?? {}).flatMap((messages) => messages ?? []);
  return errors.length ? errors : undefined;
}
