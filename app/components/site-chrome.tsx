import { Form, Link } from "@remix-run/react";

export function BrandMark({ className = "" }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" className={className}>
      <circle cx="16" cy="16" r="15" fill="#f6e0e1" />
      <path d="M16 6.5c.9 5.3 3.4 7.9 8.6 8.9-5.2 1-7.7 3.6-8.6 9-.9-5.4-3.4-8-8.6-9 5.2-1 7.7-3.6 8.6-8.9Z" fill="#9c4a5b" />
    </svg>
  );
}

type HeaderUser = { email: string; initials: string; role: string; verified: boolean } | null;

export function SiteHeader({ brandName, user }: { brandName: string; user: HeaderUser }) {
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
        {user ? (
          <AvatarMenu user={user} />
        ) : (
          <Link to="/login" className="rounded-full px-4 py-2 text-sm font-semibold text-rose-700 hover:bg-rose-50">
            Sign in
          </Link>
        )}
      </div>
    </header>
  );
}

/** `year`: the server's (root loader's copyrightYear), so every footer shows the same one; null on an error page without it. */
export function SiteFooter({
  brandName,
  year,
  supportEmail,
  links = [],
}: {
  brandName: string;
  year: number | null;
  supportEmail?: string;
  links?: { label: string; href: string }[];
}) {
  return (
    <footer className="border-t border-line/70 bg-sand/50">
      <div className="mx-auto flex max-w-5xl flex-col gap-3 px-5 py-6 text-sm text-muted sm:flex-row sm:flex-wrap sm:items-center sm:justify-between">
        <p>
          {year ? `© ${year} ` : ""}
          {brandName}. Skincare guidance, not medical advice.
        </p>
        {links.length ? (
          <nav aria-label="Footer" className="flex flex-wrap gap-x-5 gap-y-2">
            {links.map((link) => (
              <Link key={link.href} to={link.href} className="font-medium text-rose-700 underline-offset-2 hover:underline">
                {link.label}
              </Link>
            ))}
          </nav>
        ) : null}
        {supportEmail ? (
          <p>
            Questions?{" "}
            <a className="font-medium text-rose-700 underline-offset-2 hover:underline" href={`mailto:${supportEmail}`}>
              {supportEmail}
            </a>
          </p>
        ) : null}
      </div>
    </footer>
  );
}

/** The signed-in member's menu. A <details> element, so it opens without JavaScript. */
function AvatarMenu({ user }: { user: NonNullable<HeaderUser> }) {
  return (
    <details className="group relative">
      <summary
        className="flex h-10 w-10 cursor-pointer list-none items-center justify-center rounded-full bg-rose-600 text-sm font-semibold text-white [&::-webkit-details-marker]:hidden"
        aria-label={`${user.initials}, Account menu for ${user.email}`}
      >
        {user.initials}
      </summary>
      <div className="absolute right-0 z-40 mt-2 w-56 rounded-2xl border border-line bg-white p-2 shadow-soft">
        <p className="truncate px-3 py-2 text-sm text-muted">{user.email}</p>
        {user.verified ? (
          <Link to="/profile" className="block rounded-xl px-3 py-2 text-sm font-medium hover:bg-rose-50">
            Settings
          </Link>
        ) : (
          // Bought, address not verified yet: confirming it by link opens the rest.
          <Link to="/login" className="block rounded-xl px-3 py-2 text-sm font-medium hover:bg-rose-50">
            Confirm your e-mail
          </Link>
        )}
        {user.role === "admin" ? (
          <Link to="/admin" className="block rounded-xl px-3 py-2 text-sm font-medium hover:bg-rose-50">
            Admin
          </Link>
        ) : null}
        <Form method="post" action="/logout">
          <button type="submit" className="block w-full rounded-xl px-3 py-2 text-left text-sm font-medium hover:bg-rose-50">
            Logout
          </button>
        </Form>
      </div>
    </details>
  );
}
