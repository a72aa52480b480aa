/**
 * Form building blocks: one look, one way to show errors. Fields come from Conform's
 * `useForm` (ids, names, the value typed before a refused submit, errors and their ARIA
 * links), so the same markup works with and without JavaScript.
 */
import { getInputProps, type FieldMetadata } from "@conform-to/react";
import type { InputHTMLAttributes, ReactNode } from "react";
import { HONEYPOT_FIELD } from "./honeypot";

type InputType = "text" | "email" | "password" | "tel" | "number";

export function TextField({
  label,
  field,
  type = "text",
  hint,
  ...input
}: { label: string; field: FieldMetadata<string | undefined>; type?: InputType; hint?: ReactNode } & Omit<
  InputHTMLAttributes<HTMLInputElement>,
  "id" | "name" | "type" | "defaultValue" | "form"
>) {
  const { key, ...props } = getInputProps(field, { type, ariaAttributes: true });
  const error = field.errors?.[0];
  return (
    <div className="grid gap-1.5 text-left">
      <label htmlFor={field.id} className="text-sm font-semibold text-ink">
        {label}
      </label>
      <input
        key={key}
        className="min-h-12 rounded-2xl border border-line bg-white px-4 text-base text-ink shadow-soft placeholder:text-muted/70 focus:border-rose-500 aria-[invalid]:border-danger"
        {...props}
        {...input}
      />
      {hint && !error ? <p className="text-sm text-muted">{hint}</p> : null}
      {error ? (
        <p id={field.errorId} className="text-sm font-medium text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A field people never see; bots that fill it are treated as if their request worked. */
export function Honeypot() {
  return (
    <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
      <label>
        Leave this field empty
        <input type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
      </label>
    </div>
  );
}

/** The errors of the form as a whole (Conform's `form.errors`), above its button. */
export function FormAlert({ errors, id }: { errors?: string[]; id?: string }) {
  if (!errors?.length) return null;
  return (
    <p id={id} role="alert" className="rounded-2xl border border-danger/20 bg-danger/5 px-4 py-3 text-sm font-medium text-danger">
      {errors[0]}
    </p>
  );
}

/** The narrow, centred card the account pages sit in. */
export function AuthCard({ children }: { children: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-md px-5 py-10 sm:py-16">
      <div className="card relative px-6 py-8 sm:px-8">{children}</div>
    </div>
  );
}
