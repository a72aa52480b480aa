/** The few icons the app uses, inline so they cost no requests. Decorative unless labelled. */
type IconProps = { className?: string };

const base = { fill: "none", stroke: "currentColor", strokeWidth: 1.8, strokeLinecap: "round", strokeLinejoin: "round", "aria-hidden": true } as const;

export function CheckIcon({ className = "h-4 w-4" }: IconProps) {
  return (
    <svg viewBox="0 0 24 24" className={className} {...base} strokeWidth={2.4}>
      <path d="m5 12.5 4.5 4.5L19 7.5" />
    </svg>
  );
}

export function ArrowLeftIcon({ className = "h-4 w-4" }: IconProps) {
  return (
    <svg viewBox="0 0 24 24" className={className} {...base}>
      <path d="M19 12H5m6-6-6 6 6 6" />
    </svg>
  );
}

export function ArrowRightIcon({ className = "h-4 w-4" }: IconProps) {
  return (
    <svg viewBox="0 0 24 24" className={className} {...base}>
      <path d="M5 12h14m-6-6 6 6-6 6" />
    </svg>
  );
}

export function StarIcon({ className = "h-4 w-4" }: IconProps) {
  return (
    <svg viewBox="0 0 24 24" className={className} aria-hidden="true" fill="currentColor">
      <path d="m12 3.2 2.6 5.5 6 .7-4.4 4.1 1.2 5.9L12 16.5l-5.4 2.9 1.2-5.9L3.4 9.4l6-.7L12 3.2Z" />
    </svg>
  );
}

export function ShieldIcon({ className = "h-4 w-4" }: IconProps) {
  return (
    <svg viewBox="0 0 24 24" className={className} {...base}>
      <path d="M12 3 5 6v5.5c0 4.2 2.9 7.9 7 9.5 4.1-1.6 7-5.3 7-9.5V6l-7-3Z" />
      <path d="m9 12 2 2 4-4" />
    </svg>
  );
}

export function UsersIcon({ className = "h-4 w-4" }: IconProps) {
  return (
    <svg viewBox="0 0 24 24" className={className} {...base}>
      <circle cx="9" cy="8" r="3.2" />
      <path d="M3.5 19c.6-3.2 2.8-5 5.5-5s4.9 1.8 5.5 5" />
      <path d="M15.5 5.2a3 3 0 0 1 0 5.6M17.5 14.3c1.6.6 2.7 2.2 3 4.7" />
    </svg>
  );
}

export function SparkleIcon({ className = "h-4 w-4" }: IconProps) {
  return (
    <svg viewBox="0 0 24 24" className={className} aria-hidden="true" fill="currentColor">
      <path d="M12 2.5c.8 4.7 3 7 7.6 7.9-4.6.9-6.8 3.2-7.6 8-.8-4.8-3-7.1-7.6-8C9 9.5 11.2 7.2 12 2.5Z" />
      <path d="M19 15.5c.3 1.8 1.1 2.6 2.8 3-1.7.3-2.5 1.2-2.8 3-.3-1.8-1.1-2.7-2.8-3 1.7-.4 2.5-1.2 2.8-3Z" />
    </svg>
  );
}

/** Picks an icon for a trust badge by what it says. */
export function BadgeIcon({ text, className }: { text: string; className?: string }) {
  const t = text.toLowerCase();
  if (t.includes("rating") || t.includes("rated")) return <StarIcon className={className} />;
  if (t.includes("dermatologist") || t.includes("approved")) return <ShieldIcon className={className} />;
  if (t.includes("users") || t.includes("women") || t.includes("members")) return <UsersIcon className={className} />;
  return <SparkleIcon className={className} />;
}
