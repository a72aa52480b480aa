import { Link } from "@remix-run/react";

export function BrandMark({ className = "" }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" className={className}>
      <circle cx="16" cy="16" r="15" fill="#f6e0e1" />
      <path d="M16 6.5c.9 5.3 3.4 7.9 8.6 8.9-5.2 1-7.7 3.6-8.6 9-.9-5.4-3.4-8-8.6-9 5.2-1 7.7-3.6 8.6-8.9Z" fill="#9c4a5b" />
    </svg>
  );
}

export function SiteHeader({ brandName }: { brandName: string }) {
  return (
    <header className="border-b border-line/70 bg-cream/90">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:rounded-full focus:bg-white focus:px-4 focus:py-2">
        Skip to content
      </a>
      <div className="mx-auto flex h-16 max-w-5xl items-center justify-between px-5">
        <Link to="/" className="flex items-center gap-2 font-display text-xl font-semibold text-ink" aria-label={`${brandName} home`}>
          <BrandMark className="h-8 w-8" />
          <span>{brandName}</span>
        </Link>
      </div>
    </header>
  );
}

export function SiteFooter({ brandName, supportEmail }: { brandName: string; supportEmail?: string }) {
  return (
    <footer className="border-t border-line/70 bg-sand/50">
      <div className="mx-auto flex max-w-5xl flex-col gap-2 px-5 py-6 text-sm text-muted sm:flex-row sm:items-center sm:justify-between">
        <p>
          © {new Date().getFullYear()} {brandName}. Skincare guidance, not medical advice.
        </p>
        {supportEmail ? (
          <p>
            Questions? <a className="font-medium text-rose-700 underline-offset-2 hover:underline" href={`mailto:${supportEmail}`}>{supportEmail}</a>
          </p>
        ) : null}
      </div>
    </footer>
  );
}
