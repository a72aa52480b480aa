/** Building blocks of the admin pages (/admin, /admin/experiments). */
import type { ReactNode } from "react";

export function Panel({ id, title, children, aside }: { id: string; title: string; children: ReactNode; aside?: ReactNode }) {
  return (
    <section id={id} className="card mt-8 p-5 sm:p-7" aria-labelledby={`${id}-heading`}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={`${id}-heading`} className="text-2xl font-semibold">
          {title}
        </h2>
        {aside}
      </div>
      {children}
    </section>
  );
}

/** A chart or table that scrolls sideways on a phone: a focusable region, so the keyboard can scroll it too. */
export function ScrollX({ label, className, children }: { label: string; className: string; children: ReactNode }) {
  return (
    // A scrollable table wrapper: focusable so keyboard users can scroll it (axe asks for it).
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
    <div role="region" aria-label={label} tabIndex={0} className={`${className} overflow-x-auto`}>
      {children}
    </div>
  );
}
