/**
 * The consent banner, rendered to HTML on the server (ADR 32). The root layout places the
 * markup as it is, so the banner adds no JavaScript to any page (the quiz steps are at their
 * budget) and works the same with JavaScript off: a plain form POST to /cookie-settings, which
 * remembers the choice and brings the visitor back to the page they were on.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { CONSENT_ACTION, ConsentButtons } from "./consent-choice";

export function consentBannerHtml(returnTo: string): string {
  return renderToStaticMarkup(
    <>
      {/* Room below the page, so the footer can be scrolled clear of the banner while it is up. */}
      <div aria-hidden="true" className="h-52 sm:h-48" />
      <section
        aria-labelledby="consent-title"
        className="fixed inset-x-3 bottom-3 z-50 mx-auto max-w-xl rounded-card border border-line bg-white/95 p-4 shadow-soft backdrop-blur sm:bottom-5 sm:p-5"
      >
        <h2 id="consent-title" className="text-lg font-semibold">
          May we measure our ads?
        </h2>
        <p className="mt-1 text-sm leading-relaxed text-muted">
          With your OK, Meta&apos;s pixel tells us which of our ads brought you here. It stays off until you choose.
        </p>
        <form method="post" action={CONSENT_ACTION} className="mt-3">
          <input type="hidden" name="returnTo" value={returnTo} />
          <ConsentButtons />
        </form>
      </section>
    </>,
  );
}
