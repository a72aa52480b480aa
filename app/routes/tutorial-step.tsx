/**
 * /path1 to /path6: the tutorial of the plan the member follows (signed in, else
 * /email-instructions). Content comes from the plan's tutorialStep documents.
 */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { requireUser } from "~/auth/guards.server";
import { ArrowLeftIcon, ArrowRightIcon } from "~/components/ui/icons";
import {
  AvoidIcon,
  AvoidList,
  BackToHome,
  MoonIcon,
  ProductGrid,
  ProductIcon,
  Progress,
  SectionCard,
  TipList,
  TipsIcon,
  VideoOrPicture,
} from "~/members/components/member-ui";
import { TutorialFooter } from "~/members/components/tutorial-footer";
import { tutorialStepView } from "~/members/tutorial.server";
import type { RouteHandle } from "~/root";
import { notFound } from "~/utils/http.server";
import { seo } from "~/utils/seo";

export const handle: RouteHandle = { siteFooter: false };

export const meta: MetaFunction<typeof loader> = (args) =>
  seo(args, {
    title: args.data ? `${args.data.step.title} · Glow Coach` : "Tutorial · Glow Coach",
    description: "Your routine tutorial, step by step.",
    noindex: true,
  });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "/email-instructions");
  const view = await tutorialStepView({ user, pathname: new URL(request.url).pathname, cookieHeader: request.headers.get("Cookie") });
  if (!view) throw notFound(request);
  return view;
}

export default function TutorialStepPage() {
  const { planName, step, total, percent, previousHref, footer } = useLoaderData<typeof loader>();

  // A new step starts at the top of the page, also when only the data changed.
  useEffect(() => {
    window.scrollTo({ top: 0 });
  }, [step.number]);

  return (
    <>
      <div className="mx-auto w-full max-w-3xl flex-1 px-5 pb-16 pt-5 sm:pt-8">
        <div className="flex items-center justify-between gap-4">
          <BackToHome />
          <p className="text-sm font-semibold text-rose-700">
            Step {step.number} of {total} <span className="text-muted">· {percent}%</span>
          </p>
        </div>
        <div className="mt-3">
          <Progress value={percent} label="Tutorial progress" />
        </div>

        <article key={step.number} className="animate-step-in">
          <p className="mt-6 text-sm font-semibold uppercase tracking-wider text-muted">{planName}</p>
          <h1 className="mt-1 text-3xl font-semibold sm:text-4xl">{step.title}</h1>

          <figure className="card mt-5 overflow-hidden">
            <VideoOrPicture video={step.video} image={step.image} sizes="(min-width: 48rem) 46rem, 100vw" className="aspect-[8/5] h-auto w-full" />
            {step.video ? (
              <figcaption className="flex items-center justify-between gap-3 px-4 py-3 text-sm">
                <span className="font-semibold">{step.video.title}</span>
                {step.video.duration ? <span className="shrink-0 text-muted">Video · {step.video.duration}</span> : null}
              </figcaption>
            ) : null}
          </figure>

          <section className="mt-6 grid gap-4 text-lg leading-relaxed text-ink/90" aria-label="Why it matters">
            {step.explanation.map((paragraph) => (
              <p key={paragraph}>{paragraph}</p>
            ))}
            <p className="rounded-2xl border-l-4 border-rose-500 bg-rose-50 px-5 py-4 font-display text-lg text-ink">
              <span className="block font-sans text-xs font-semibold uppercase tracking-wider text-rose-700">Key message</span>
              {step.keyMessage}
            </p>
          </section>

          <div className="mt-8 grid gap-6">
            <SectionCard title="Tips for You" icon={<TipsIcon />}>
              <TipList tips={step.tips} />
            </SectionCard>
            <SectionCard id="product" title={step.recommendedHeading} icon={step.recommendedHeading === "Recommended for You" ? <ProductIcon /> : <MoonIcon />}>
              <ProductGrid products={step.recommended} />
            </SectionCard>
            <SectionCard title="What to Avoid" icon={<AvoidIcon />}>
              <AvoidList items={step.avoid} />
            </SectionCard>
          </div>
        </article>

        <div className="mt-10 flex flex-col-reverse gap-3 sm:flex-row sm:items-center sm:justify-between">
          {previousHref ? (
            <Link to={previousHref} className="btn-secondary">
              <ArrowLeftIcon /> Previous Step
            </Link>
          ) : (
            <span className="hidden sm:block" />
          )}
          <Link to={step.next.href} className="btn-primary">
            {step.next.label} <ArrowRightIcon />
          </Link>
        </div>
      </div>
      <TutorialFooter footer={footer} />
    </>
  );
}
