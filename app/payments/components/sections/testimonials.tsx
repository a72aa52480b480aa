/** Quotes from members, with their before and after when they gave one. */
import { Stars } from "~/components/ui/offer-icons";
import { SectionTitle, Wrap } from "../offer-parts";
import type { SectionProps } from "./section-props";

export function Testimonials({ section }: SectionProps<"testimonials">) {
  return (
    <Wrap>
      <SectionTitle title={section.title} />
      <ul className="mt-8 grid gap-4 md:grid-cols-3">
        {section.items.map((item) => (
          <li key={item.name} className="card flex flex-col p-5">
            {item.before && item.after ? (
              <div className="mb-4 grid grid-cols-2 gap-2 text-center text-sm">
                <div className="rounded-xl bg-sand px-2 py-3">
                  <p className="text-xs font-semibold uppercase tracking-wide text-muted">Before</p>
                  <p className="mt-1">{item.before}</p>
                </div>
                <div className="rounded-xl bg-rose-50 px-2 py-3">
                  <p className="text-xs font-semibold uppercase tracking-wide text-rose-700">After</p>
                  <p className="mt-1">{item.after}</p>
                </div>
              </div>
            ) : null}
            <Stars />
            <blockquote className="mt-2 flex-1">“{item.quote}”</blockquote>
            <p className="mt-4 text-sm">
              <span className="font-semibold">{item.name}</span> <span className="text-muted">· {item.detail}</span>
            </p>
          </li>
        ))}
      </ul>
    </Wrap>
  );
}
