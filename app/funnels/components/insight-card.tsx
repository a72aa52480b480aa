import { CheckIcon } from "~/components/ui/icons";
import type { InsightView } from "../view";

/** A personalised insight: title, lead, paragraphs and what the plan focuses on. */
export function InsightCard({ insight }: { insight: InsightView }) {
  return (
    <article className="card mt-8 p-6 text-left sm:p-8">
      <h2 className="text-2xl font-semibold leading-snug">{insight.title}</h2>
      <p className="mt-3 text-lg leading-relaxed text-ink">{insight.summary}</p>
      {insight.body.map((paragraph) => (
        <p key={paragraph} className="mt-3 leading-relaxed text-muted">
          {paragraph}
        </p>
      ))}
      {insight.highlights.length ? (
        <>
          <h3 className="mt-7 font-sans text-sm font-semibold uppercase tracking-[0.12em] text-rose-700">What your plan focuses on</h3>
          <ul className="mt-3 grid gap-2.5">
            {insight.highlights.map((item) => (
              <li key={item} className="flex items-start gap-3">
                <span className="mt-0.5 flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-rose-100 text-rose-700">
                  <CheckIcon className="h-3.5 w-3.5" />
                </span>
                <span>{item}</span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </article>
  );
}

export function MissingInsight() {
  return <p className="card mt-8 p-6 text-muted">Your plan is ready. We couldn't load its details just now, but everything you told us is saved with it.</p>;
}
