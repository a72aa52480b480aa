/** / and /app: the landing page, linking to the quizzes. Copy comes from the content dataset. */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { ArrowRightIcon, BadgeIcon } from "~/components/ui/icons";
import { getLandingPage } from "~/content/content.server";

export async function loader(_: LoaderFunctionArgs) {
  const page = await getLandingPage();
  if (!page) throw new Response("The landing page content is missing.", { status: 503 });
  return page;
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: "Glow Coach · Personal skincare and makeup coaching" },
  { name: "description", content: data?.subheadline ?? "Personal skincare and makeup coaching." },
];

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
          Start with a quiz
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
    </div>
  );
}
