/** Form building blocks shared by the account pages: one look, one way to show errors. */
import type { InputHTMLAttributes, ReactNode } from "react";
import { HONEYPOT_FIELD } from "~/auth/honeypot";

export function TextField({
  label,
  error,
  hint,
  ...input
}: { label: string; error?: string; hint?: ReactNode } & InputHTMLAttributes<HTMLInputElement> & { name: string }) {
  const id = `field-${input.name}`;
  return (
    <div className="grid gap-1.5 text-left">
      <label htmlFor={id} className="text-sm font-semibold text-ink">
        {label}
      </label>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className="min-h-12 rounded-2xl border border-line bg-white px-4 text-base text-ink shadow-soft placeholder:text-muted/70 focus:border-rose-500 aria-[invalid]:border-danger"
        {...input}
      />
      {hint && !error ? <p className="text-sm text-muted">{hint}</p> : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm font-medium text-danger">
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

export function FormAlert({ children }: { children?: ReactNode }) {
  if (!children) return null;
  return (
    <p role="alert" className="rounded-2xl border border-danger/20 bg-danger/5 px-4 py-3 text-sm font-medium text-danger">
      {children}
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
