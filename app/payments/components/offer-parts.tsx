/** The building blocks offer sections share: the section frame and title, countdown text, and buttons that scroll to a plan. */
import type { ReactNode } from "react";
import { LockIcon } from "~/components/ui/offer-icons";
import { countdownDuration, formatCountdown } from "~/billing/catalogue";
import { usePage } from "./offer-page-state";

/** A section of the page: centred, with the space above it. */
export function Wrap({ children, className = "", id }: { children: ReactNode; className?: string; id?: string }) {
  return (
    <section id={id} className={`mx-auto w-full max-w-5xl px-5 pt-12 sm:pt-16 ${className}`}>
      {children}
    </section>
  );
}

export function SectionTitle({ title, subtitle }: { title: string; subtitle?: string }) {
  return (
    <div className="mx-auto max-w-2xl text-center">
      <h2 className="text-3xl font-semibold leading-tight sm:text-4xl">{title}</h2>
      {subtitle ? <p className="mt-3 text-lg text-muted">{subtitle}</p> : null}
    </div>
  );
}

/** The countdown's current text, e.g. "Offer expires in 9:59". */
export function Timed({ text }: { text: string }) {
  const { seconds } = usePage();
  const [before, after] = text.split("{time}");
  if (after === undefined) return <>{text}</>;
  return (
    <>
      {before}
      <time className="font-semibold tabular-nums" dateTime={countdownDuration(seconds)} data-countdown>
        {formatCountdown(seconds)}
      </time>
      {after}
    </>
  );
}

/** The anchor a scroll button points at: "#plan-annual" → "annual". */
function planIdOf(href: string): string | null {
  return href.startsWith("#plan-") ? href.slice("#plan-".length) : null;
}

/** A link to a plan card that also selects it (the offer's buttons that scroll to the plans). */
export function ScrollButton({ href, children, className }: { href: string; children: ReactNode; className: string }) {
  const { select } = usePage();
  const planId = planIdOf(href);
  return (
    <a
      href={href}
      className={className}
      onClick={(event) => {
        const target = document.getElementById(href.slice(1));
        if (!target) return;
        event.preventDefault();
        if (planId) select(planId);
        target.scrollIntoView({ behavior: "smooth", block: "center" });
        history.replaceState(null, "", href);
      }}
    >
      {children}
    </a>
  );
}

/** "Unlock …" under locked content: scrolls to (and selects) the plan it names. */
export function UnlockButton({ unlock }: { unlock: { href: string; label: string } }) {
  return (
    <div className="mt-6 text-center">
      <ScrollButton href={unlock.href} className="btn-secondary">
        <LockIcon /> {unlock.label}
      </ScrollButton>
    </div>
  );
}

/** The lock badge over content blurred until the plan is bought. */
export function LockOverlay({ children }: { children: ReactNode }) {
  return (
    <div className="absolute inset-0 flex items-center justify-center">
      <span className="inline-flex items-center gap-2 rounded-full bg-white/95 px-4 py-1.5 text-sm font-semibold text-ink shadow-soft">
        <LockIcon />
        {children}
      </span>
    </div>
  );
}
