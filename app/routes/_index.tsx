/**
 * / and /app: the landing page. Hero, the quizzes as entry cards, the claims, how it works,
 * testimonials and a pointer for brands. Copy comes from the "page-landing" document.
 */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { ArrowRightIcon, BadgeIcon, StarIcon } from "~/components/ui/icons";
import { getLandingPage } from "~/content/content.server";
import { seo } from "~/utils/seo";

export async function loader(_: LoaderFunctionArgs) {
  const page = await getLandingPage();
  if (!page) throw new Response("The landing page content is missing.", { status: 503 });
  return page;
}

export const meta: MetaFunction<typeof loader> = (args) =>
  seo(args, {
    title: args.data?.meta.title ?? "Glow Coach · Personal skincare and makeup coaching",
    description: args.data?.meta.description ?? "Personal skincare and makeup coaching.",
  });

export default function Landing() {
  const page = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto w-full max-w-5xl px-5 pb-20 pt-10 sm:pt-16">
      <section className="relative overflow-hidden rounded-[2rem] border border-line bg-white px-6 py-12 text-center shadow-soft sm:px-14 sm:py-20">
        <div aria-hidden="true" className="pointer-events-none absolute -right-20 -top-24 h-72 w-72 rounded-full bg-rose-100/80 blur-2xl" />
        <div aria-hidden="true" className="pointer-events-none absolute -bottom-28 -left-20 h-72 w-72 rounded-full bg-sand blur-2xl" />
        <div className="relative">
          <p className="text-sm font-semibold uppercase tracking-[0.14em] text-rose-700">{page.eyebrow}</p>
          <h1 className="mx-auto mt-4 max-w-3xl text-4xl font-semibold leading-[1.08] sm:text-6xl">{page.headline}</h1>
          <p className="mx-auto mt-5 max-w-2xl text-lg leading-relaxed text-muted">{page.subheadline}</p>
          <Link to={page.primaryCta.href} className="btn-primary mt-9">
            {page.primaryCta.label}
            <ArrowRightIcon />
          </Link>
          <ul className="mt-9 flex flex-wrap justify-center gap-2.5" aria-label="Why people trust us">
            {page.claims.map((claim) => (
              <li key={claim} className="inline-flex items-center gap-2 rounded-full border border-line bg-cream px-3.5 py-1.5 text-sm font-medium">
                <BadgeIcon text={claim} className="h-4 w-4 text-gold" />
                {claim}
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="mt-14" aria-labelledby="quizzes-heading">
        <h2 id="quizzes-heading" className="text-center text-3xl font-semibold">
          {page.quizzesHeading}
        </h2>
        <ul className="mx-auto mt-8 grid max-w-3xl gap-4 sm:grid-cols-2">
          {page.quizzes.map((quiz) => (
            <li key={quiz.href}>
              <Link to={quiz.href} className="card group flex h-full flex-col p-6 transition-colors hover:border-rose-200">
                <span className="text-sm font-semibold text-rose-700">{quiz.minutes} min</span>
                <span className="mt-2 font-display text-2xl font-semibold">{quiz.title}</span>
                <span className="mt-2 flex-1 text-muted">{quiz.text}</span>
                <span className="mt-5 inline-flex items-center gap-2 font-semibold text-rose-700">
                  Take the quiz <ArrowRightIcon className="h-4 w-4 transition-transform group-hover:translate-x-0.5" />
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </section>

      <section className="mt-20" aria-labelledby="claims-heading">
        <h2 id="claims-heading" className="text-center text-3xl font-semibold">
          {page.claimsHeading}
        </h2>
        <ul className="mt-8 grid grid-cols-2 gap-4 lg:grid-cols-4">
          {page.claimStats.map((claim) => (
            <li key={claim.label} className="card flex flex-col items-center p-5 text-center sm:p-6">
              <span className="font-display text-2xl font-semibold text-rose-700 sm:text-4xl">{claim.value}</span>
              <span className="mt-2 text-sm text-muted">{claim.label}</span>
            </li>
          ))}
        </ul>
      </section>

      <section className="mt-20" aria-labelledby="how-heading">
        <h2 id="how-heading" className="text-center text-3xl font-semibold">
          {page.howItWorks.heading}
        </h2>
        <ol className="mt-8 grid gap-4 sm:grid-cols-3">
          {page.howItWorks.steps.map((step, i) => (
            <li key={step.title} className="card p-6">
              <span className="flex h-9 w-9 items-center justify-center rounded-full bg-rose-600 font-semibold text-white">{i + 1}</span>
              <h3 className="mt-4 text-xl font-semibold">{step.title}</h3>
              <p className="mt-2 text-muted">{step.text}</p>
            </li>
          ))}
        </ol>
      </section>

      <section className="mt-20" aria-labelledby="testimonials-heading">
        <h2 id="testimonials-heading" className="text-center text-3xl font-semibold">
          {page.testimonials.heading}
        </h2>
        <ul className="mt-8 grid gap-4 sm:grid-cols-3">
          {page.testimonials.items.map((item) => (
            <li key={item.name}>
              <figure className="card flex h-full flex-col p-6">
                <span className="flex gap-0.5 text-gold" aria-hidden="true">
                  {[0, 1, 2, 3, 4].map((n) => (
                    <StarIcon key={n} />
                  ))}
                </span>
                <blockquote className="mt-3 flex-1 leading-relaxed">“{item.quote}”</blockquote>
                <figcaption className="mt-4 text-sm">
                  <span className="font-semibold">{item.name}</span>
                  <span className="text-muted"> · {item.detail}</span>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </section>

      <section
        className="mt-20 flex flex-col items-center gap-4 rounded-[2rem] border border-line bg-sand/60 px-6 py-10 text-center sm:px-14"
        aria-labelledby="brands-heading"
      >
        <h2 id="brands-heading" className="text-2xl font-semibold sm:text-3xl">
          {page.brandsTeaser.heading}
        </h2>
        <p className="max-w-xl text-muted">{page.brandsTeaser.text}</p>
        <Link to={page.brandsTeaser.link.href} className="btn-secondary">
          {page.brandsTeaser.link.label}
          <ArrowRightIcon />
        </Link>
      </section>
    </div>
  );
}
