/**
 * /partnerships: the business landing page, open to everyone. One page combining the
 * brand pitch and the partnership form; every text from the "page-partnerships" document, the booking link from site
 * settings. It draws its own footer (Terms, Privacy, copyright).
 */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { ArrowRightIcon, CheckIcon, SparkleIcon } from "~/components/ui/icons";
import { getPartnershipsPage, getSiteSettings } from "~/content/content.server";
import type { RouteHandle } from "~/root";
import { copyrightYear } from "~/utils/copyright-year.server";
import { seo } from "~/utils/seo";
import { ContentImage } from "~/components/content-image";

export const handle: RouteHandle = { siteFooter: false };

export async function loader(_: LoaderFunctionArgs) {
  const [page, settings] = await Promise.all([getPartnershipsPage(), getSiteSettings()]);
  if (!page) throw new Response("The partnerships page content is missing.", { status: 503 });
  return { page, bookingUrl: settings.bookingUrl, brandName: settings.brandName, year: copyrightYear() };
}

export const meta: MetaFunction<typeof loader> = (args) =>
  seo(args, {
    title: args.data?.page.meta.title ?? "Partnerships · Glow Coach",
    description: args.data?.page.meta.description ?? "Glow Coach for beauty brands.",
  });

function BookingLinks({ bookingUrl, bookDemo, seeExample, className = "" }: { bookingUrl: string; bookDemo: string; seeExample: string; className?: string }) {
  return (
    <div className={`flex flex-col gap-3 sm:flex-row sm:justify-center ${className}`}>
      {/* An external scheduling page: a new tab keeps this page open. */}
      <a href={bookingUrl} target="_blank" rel="noopener noreferrer" className="btn-primary sm:min-w-48">
        {bookDemo}
        <ArrowRightIcon />
      </a>
      <a href={bookingUrl} target="_blank" rel="noopener noreferrer" className="btn-secondary sm:min-w-48">
        {seeExample}
      </a>
    </div>
  );
}

function Section({ id, heading, children, className = "" }: { id: string; heading: string; children: ReactNode; className?: string }) {
  return (
    <section className={`mt-20 sm:mt-24 ${className}`} aria-labelledby={id}>
      <h2 id={id} className="mx-auto max-w-2xl text-center text-3xl font-semibold sm:text-4xl">
        {heading}
      </h2>
      {children}
    </section>
  );
}

function PhoneMock({ phone }: { phone: ReturnType<typeof useLoaderData<typeof loader>>["page"]["demo"]["phone"] }) {
  return (
    <div
      className="mx-auto w-64 rounded-[2.6rem] border-[10px] border-ink bg-ink shadow-soft"
      role="img"
      aria-label={`Demo of the coach app: ${phone.planName}, ${phone.streak}`}
    >
      <div className="overflow-hidden rounded-[1.9rem] bg-cream" aria-hidden="true">
        <div className="mx-auto mt-2 h-4 w-20 rounded-full bg-ink" />
        <div className="px-4 pb-5 pt-4">
          <p className="text-[0.65rem] font-semibold uppercase tracking-[0.14em] text-rose-700">{phone.brand}</p>
          <p className="mt-1 font-display text-lg font-semibold leading-tight">{phone.greeting}</p>
          <div className="mt-3 rounded-2xl bg-white p-3 shadow-soft">
            <div className="flex items-center justify-between">
              <span className="text-sm font-semibold">{phone.planName}</span>
              <span className="rounded-full bg-rose-50 px-2 py-0.5 text-[0.65rem] font-semibold text-rose-700">{phone.streak}</span>
            </div>
            <ol className="mt-3 space-y-2">
              {phone.steps.map((step, i) => (
                <li key={step} className="flex items-center gap-2 text-xs">
                  <span
                    className={`flex h-5 w-5 items-center justify-center rounded-full text-[0.6rem] font-bold ${i < 2 ? "bg-sage text-white" : "border border-line text-muted"}`}
                  >
                    {i < 2 ? "✓" : i + 1}
                  </span>
                  <span className={i < 2 ? "text-muted line-through" : ""}>{step}</span>
                </li>
              ))}
            </ol>
          </div>
          <div className="mt-3 rounded-full bg-rose-600 py-2 text-center text-xs font-semibold text-white">{phone.cta}</div>
        </div>
      </div>
    </div>
  );
}

export default function Partnerships() {
  const { page, bookingUrl, brandName, year } = useLoaderData<typeof loader>();
  const links = { bookingUrl, bookDemo: page.cta.bookDemo, seeExample: page.cta.seeExample };
  return (
    <>
      <div className="mx-auto w-full max-w-5xl px-5 pb-16 pt-10 sm:pt-16">
        <section className="relative overflow-hidden rounded-[2rem] border border-line bg-white px-6 py-12 text-center shadow-soft sm:px-14 sm:py-20">
          <div aria-hidden="true" className="pointer-events-none absolute -right-20 -top-24 h-72 w-72 rounded-full bg-rose-100/80 blur-2xl" />
          <div aria-hidden="true" className="pointer-events-none absolute -bottom-28 -left-20 h-72 w-72 rounded-full bg-sand blur-2xl" />
          <div className="relative">
            <p className="text-sm font-semibold uppercase tracking-[0.14em] text-rose-700">{page.hero.eyebrow}</p>
            <h1 className="mx-auto mt-4 max-w-3xl text-4xl font-semibold leading-[1.08] sm:text-6xl">{page.hero.headline}</h1>
            <p className="mx-auto mt-5 max-w-2xl text-lg leading-relaxed text-muted">{page.hero.text}</p>
            <p className="mt-7 inline-flex items-center gap-2 rounded-full bg-sage/15 px-4 py-1.5 text-sm font-semibold text-sage">
              <SparkleIcon /> {page.hero.badge}
            </p>
            <BookingLinks {...links} className="mt-6" />
            <ul className="mt-8 flex flex-wrap justify-center gap-2.5" aria-label="Our promises">
              {page.hero.promises.map((promise) => (
                <li key={promise} className="inline-flex items-center gap-1.5 rounded-full border border-line bg-cream px-3.5 py-1.5 text-sm font-medium">
                  <CheckIcon className="h-4 w-4 text-sage" />
                  {promise}
                </li>
              ))}
            </ul>
          </div>
        </section>

        <Section id="problems" heading={page.problems.heading}>
          <ul className="mt-8 grid gap-4 sm:grid-cols-3">
            {page.problems.items.map((item) => (
              <li key={item.title} className="card p-6">
                <h3 className="text-xl font-semibold">{item.title}</h3>
                <p className="mt-2 text-muted">{item.text}</p>
              </li>
            ))}
          </ul>
        </Section>

        <Section id="features" heading={page.features.heading}>
          <ul className="mt-8 grid gap-4 sm:grid-cols-3">
            {page.features.items.map((item) => (
              <li key={item.title} className="card border-rose-100 bg-rose-50/60 p-6">
                <SparkleIcon className="h-6 w-6 text-rose-600" />
                <h3 className="mt-3 text-xl font-semibold">{item.title}</h3>
                <p className="mt-2 text-muted">{item.text}</p>
              </li>
            ))}
          </ul>
        </Section>

        <section className="card mt-20 grid items-center gap-10 px-6 py-12 sm:mt-24 sm:grid-cols-2 sm:px-12" aria-labelledby="demo">
          <div>
            <h2 id="demo" className="text-3xl font-semibold sm:text-4xl">
              {page.demo.heading}
            </h2>
            <p className="mt-4 text-lg leading-relaxed text-muted">{page.demo.text}</p>
            <a
              href={bookingUrl}
              target="_blank"
              rel="noopener noreferrer"
              className="mt-6 inline-flex items-center gap-2 font-semibold text-rose-700 hover:underline"
            >
              {page.cta.seeExample} <ArrowRightIcon />
            </a>
          </div>
          <PhoneMock phone={page.demo.phone} />
        </section>

        <Section id="journey" heading={page.journey.heading}>
          <ol className="mt-8 grid gap-4 sm:grid-cols-4">
            {page.journey.items.map((item, i) => (
              <li key={item.title} className="card p-6">
                <span className="flex h-9 w-9 items-center justify-center rounded-full bg-rose-600 font-semibold text-white">{i + 1}</span>
                <h3 className="mt-4 text-lg font-semibold">{item.title}</h3>
                <p className="mt-2 text-sm text-muted">{item.text}</p>
              </li>
            ))}
          </ol>
        </Section>

        <Section id="impact" heading={page.impact.heading}>
          <ul className="mt-8 grid gap-4 sm:grid-cols-3">
            {page.impact.stats.map((stat) => (
              <li key={stat.label} className="card p-6 text-center">
                <p className="font-display text-5xl font-semibold text-rose-700">{stat.value}</p>
                <p className="mt-2 font-medium">{stat.label}</p>
              </li>
            ))}
          </ul>
          <p className="mt-4 text-center text-sm text-muted">{page.impact.footnote}</p>
        </Section>

        <Section id="tiers" heading={page.tiers.heading}>
          <ul className="mx-auto mt-8 grid max-w-3xl gap-4 sm:grid-cols-2">
            {page.tiers.items.map((tier) => (
              <li key={tier.name} className={`card flex flex-col p-7 ${tier.highlighted ? "border-2 border-rose-500" : ""}`}>
                <h3 className="text-2xl font-semibold">{tier.name}</h3>
                <p className="mt-3 font-display text-4xl font-semibold">{tier.price}</p>
                <p className="text-sm text-muted">{tier.note}</p>
                <ul className="mt-5 flex-1 space-y-2">
                  {tier.features.map((feature) => (
                    <li key={feature} className="flex items-start gap-2">
                      <CheckIcon className="mt-1 h-4 w-4 shrink-0 text-sage" />
                      {feature}
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
          <p className="mt-5 text-center font-semibold text-sage">{page.finalCta.badge}</p>
        </Section>

        <Section id="brands" heading={page.brands.heading}>
          <ul className="mt-8 grid grid-cols-2 items-center justify-items-center gap-6 sm:grid-cols-4">
            {page.brands.logos.map((logo) => (
              <li key={logo.src}>
                {/* 3rem tall: as wide as its shape makes it. */}
                <ContentImage image={logo} sizes={`${Math.ceil((48 * logo.width) / logo.height)}px`} className="h-12 w-auto" />
              </li>
            ))}
          </ul>
          <figure className="card mx-auto mt-10 max-w-3xl px-6 py-8 text-center sm:px-12">
            <blockquote className="font-display text-xl leading-relaxed sm:text-2xl">“{page.testimonial.quote}”</blockquote>
            <figcaption className="mt-5 text-sm">
              <span className="font-semibold">{page.testimonial.name}</span>
              <span className="text-muted"> · {page.testimonial.role}</span>
            </figcaption>
          </figure>
        </Section>

        <section className="mt-20 rounded-[2rem] bg-rose-600 px-6 py-12 text-center text-white sm:mt-24 sm:px-14" aria-labelledby="final-cta">
          <h2 id="final-cta" className="text-3xl font-semibold sm:text-4xl">
            {page.finalCta.heading}
          </h2>
          <p className="mx-auto mt-4 max-w-xl text-lg text-rose-50">{page.finalCta.text}</p>
          <div className="mt-7 flex flex-col gap-3 sm:flex-row sm:justify-center">
            <a href={bookingUrl} target="_blank" rel="noopener noreferrer" className="btn-secondary border-white sm:min-w-48">
              {page.cta.bookDemo}
              <ArrowRightIcon />
            </a>
          </div>
        </section>
      </div>
      <footer className="border-t border-line/70 bg-sand/50">
        <div className="mx-auto flex max-w-5xl flex-col gap-3 px-5 py-6 text-sm text-muted sm:flex-row sm:items-center sm:justify-between">
          <p>
            © {year} {brandName}. All rights reserved.
          </p>
          <nav aria-label="Legal" className="flex gap-5">
            <Link to="/terms-of-service" className="font-medium text-rose-700 hover:underline">
              Terms
            </Link>
            <Link to="/privacy-policy" className="font-medium text-rose-700 hover:underline">
              Privacy
            </Link>
          </nav>
        </div>
      </footer>
    </>
  );
}
