/** The page's headline, rating, benefits and proof, an optional picture, and a button to the plans. */
import { ContentImage } from "~/components/content-image";
import { CheckIcon } from "~/components/ui/icons";
import { Stars } from "~/components/ui/offer-icons";
import { ScrollButton } from "../offer-parts";
import type { SectionProps } from "./section-props";

export function Hero({ section, first }: SectionProps<"hero">) {
  return (
    <section className={`mx-auto w-full max-w-3xl px-5 text-center ${first ? "pt-10 sm:pt-14" : "pt-8 sm:pt-12"}`}>
      {section.badge ? <p className="mx-auto inline-flex rounded-full bg-rose-100 px-4 py-1.5 text-sm font-semibold text-rose-700">{section.badge}</p> : null}
      <h1 className="mt-4 text-4xl font-semibold leading-[1.1] sm:text-5xl">{section.headline}</h1>
      {section.subheadline ? <p className="mx-auto mt-4 max-w-2xl text-lg text-muted">{section.subheadline}</p> : null}
      {section.rating ? (
        <p className="mt-5 flex flex-wrap items-center justify-center gap-2 text-sm">
          <Stars />
          <span className="font-semibold">{section.rating.value}</span>
          <span className="text-muted">{section.rating.label}</span>
        </p>
      ) : null}
      {section.benefits.length ? (
        <ul className="mx-auto mt-6 grid max-w-xl gap-2.5 text-left">
          {section.benefits.map((benefit) => (
            <li key={benefit} className="flex items-start gap-3">
              <span className="mt-0.5 flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-rose-100 text-rose-700">
                <CheckIcon />
              </span>
              <span>{benefit}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {section.proof.length ? (
        <ul className="mt-6 flex flex-wrap justify-center gap-2">
          {section.proof.map((p) => (
            <li key={p} className="rounded-full border border-line bg-white px-3 py-1 text-sm text-muted">
              {p}
            </li>
          ))}
        </ul>
      ) : null}
      {section.image ? (
        // Above the fold on the first section: loaded at once.
        <ContentImage
          image={section.image}
          sizes="(min-width: 48rem) 44rem, calc(100vw - 2.5rem)"
          eager={first}
          className="mx-auto mt-8 h-auto w-full max-w-2xl rounded-3xl object-cover shadow-soft"
        />
      ) : null}
      {section.cta ? (
        <div className="mt-8">
          <ScrollButton href={section.cta.href} className="btn-primary">
            {section.cta.label}
          </ScrollButton>
        </div>
      ) : null}
    </section>
  );
}
