/**
 * Icons only the offer pages draw (lock, clock, rating stars). They live apart from icons.tsx
 * because that module's chunk is loaded by nearly every page, the funnel step included, whose
 * JavaScript budget (90 KB gzip) has no room for icons it never shows.
 */
import { StarIcon } from "./icons";

type IconProps = { className?: string };

/** Five stars in gold, as beside a rating. */
export function Stars({ className = "h-4 w-4" }: IconProps) {
  return (
    <span className="inline-flex text-gold" aria-hidden="true">
      {[0, 1, 2, 3, 4].map((i) => (
        <StarIcon key={i} className={className} />
      ))}
    </span>
  );
}

export function LockIcon({ className = "h-4 w-4" }: IconProps) {
  return (
    <svg viewBox="0 0 24 24" className={className} fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" aria-hidden="true">
      <rect x="5" y="10.5" width="14" height="10" rx="2.5" />
      <path d="M8.5 10.5V8a3.5 3.5 0 0 1 7 0v2.5" />
    </svg>
  );
}

export function ClockIcon({ className = "h-5 w-5" }: IconProps) {
  return (
    <svg viewBox="0 0 24 24" className={className} fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" aria-hidden="true">
      <circle cx="12" cy="12" r="8.5" />
      <path d="M12 7.5V12l3 2" />
    </svg>
  );
}
