import { Link } from "@remix-run/react";
import { BrandMark } from "~/components/site-chrome";
import type { TutorialFooterData } from "~/members/tutorial.server";

/** The tutorial's own footer: the site's footer links (those with a page), the support e-mail and the copyright. */
export function TutorialFooter({ footer }: { footer: TutorialFooterData }) {
  return (
    // The site footer is hidden on these pages, so this one is the page's contentinfo landmark.
    <footer role="contentinfo" className="border-t border-line/70 bg-sand/50">
      <div className="mx-auto grid max-w-5xl gap-6 px-5 py-8 text-sm text-muted sm:grid-cols-[1.2fr_2fr]">
        <div>
          <p className="flex items-center gap-2 font-display text-lg font-semibold text-ink">
            <BrandMark className="h-7 w-7" /> {footer.brandName}
          </p>
          <p className="mt-2 max-w-xs">{footer.tagline}</p>
          <p className="mt-3">
            Support:{" "}
            <a className="font-medium text-rose-700 underline-offset-2 hover:underline" href={`mailto:${footer.supportEmail}`}>
              {footer.supportEmail}
            </a>
          </p>
        </div>
        {footer.links.length ? (
          <nav aria-label="Footer">
            <ul className="grid grid-cols-2 gap-x-6 gap-y-2 sm:grid-cols-3">
              {footer.links.map((link) => (
                <li key={link.label}>
                  <Link to={link.href} className="font-medium text-ink/80 hover:text-rose-700">
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        <p className="border-t border-line/70 pt-4 sm:col-span-2">{footer.copyright}</p>
      </div>
    </footer>
  );
}
