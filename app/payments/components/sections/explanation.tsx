/** Why the plan works: paragraphs and numbered points, at an anchor buttons can point to. */
import { Wrap } from "../offer-parts";
import type { SectionProps } from "./section-props";

export function Explanation({ section }: SectionProps<"explanation">) {
  return (
    <Wrap id={section.anchorId} className="scroll-mt-6">
      <div className="card mx-auto max-w-3xl p-6 sm:p-10">
        <h2 className="text-3xl font-semibold">{section.title}</h2>
        {section.paragraphs.map((p) => (
          <p key={p} className="mt-4 text-lg text-muted">
            {p}
          </p>
        ))}
        {section.points.length ? (
          <ol className="mt-6 grid gap-3">
            {section.points.map((point, i) => (
              <li key={point} className="flex items-start gap-3">
                <span className="flex h-7 w-7 shrink-0 items-center justify-center rounded-full bg-rose-100 text-sm font-semibold text-rose-700">{i + 1}</span>
                <span className="pt-0.5">{point}</span>
              </li>
            ))}
          </ol>
        ) : null}
      </div>
    </Wrap>
  );
}
