import { Link } from "@remix-run/react";
import type { LegalPage } from "~/content-model/content-types";
import { ArrowLeftIcon } from "~/components/ui/icons";

function formatDate(date: string): string {
  return new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" }).format(new Date(`${date}T00:00:00Z`));
}

export function LegalPageView({ page, backHref }: { page: LegalPage; backHref: string }) {
  return (
    <div className="mx-auto w-full max-w-3xl px-5 pb-20 pt-8 sm:pt-12">
      <Link to={backHref} className="btn-secondary min-h-10 px-4 py-2 text-sm" data-testid="legal-back">
        <ArrowLeftIcon />
        {page.backLabel}
      </Link>
      <article className="card mt-6 px-6 py-8 sm:px-12 sm:py-12">
        <header className="border-b border-line pb-6">
          <h1 className="text-4xl font-semibold sm:text-5xl">{page.title}</h1>
          <p className="mt-3 text-sm text-muted">
            Last updated <time dateTime={page.updated}>{formatDate(page.updated)}</time>
          </p>
          <p className="mt-5 text-lg leading-relaxed text-muted">{page.intro}</p>
        </header>
        {page.sections.map((section, i) => (
          <section key={section.heading} className="mt-8" aria-labelledby={`section-${i}`}>
            <h2 id={`section-${i}`} className="text-2xl font-semibold">
              {section.heading}
            </h2>
            {section.paragraphs.map((paragraph) => (
              <p key={paragraph} className="mt-3 leading-relaxed">
                {paragraph}
              </p>
            ))}
          </section>
        ))}
      </article>
    </div>
  );
}
