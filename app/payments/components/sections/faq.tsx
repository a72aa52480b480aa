/** The questions and answers, as <details>: they open and close without JavaScript. */
import { SectionTitle, Wrap } from "../offer-parts";
import type { SectionProps } from "./section-props";

/**
 * One open item at a time, and the open one can be closed. <details name=...> does both
 * natively; the toggle handler does the same where the name attribute is not supported.
 */
export function Faq({ section }: SectionProps<"faq">) {
  const group = "offer-faq";
  return (
    <Wrap>
      <SectionTitle title={section.title} />
      <div className="mx-auto mt-8 grid max-w-2xl gap-3">
        {section.items.map((item) => (
          <details
            key={item.question}
            // React 18 passes the attribute through; browsers make the group exclusive.
            {...{ name: group }}
            className="card group px-5 py-1 open:pb-4"
            onToggle={(event) => {
              const opened = event.currentTarget;
              if (!opened.open) return;
              for (const other of document.querySelectorAll<HTMLDetailsElement>(`details[name="${group}"]`)) if (other !== opened) other.open = false;
            }}
          >
            <summary className="flex cursor-pointer list-none items-center justify-between gap-4 py-3 font-semibold [&::-webkit-details-marker]:hidden">
              {item.question}
              <span className="text-xl text-rose-700 transition-transform group-open:rotate-45" aria-hidden="true">
                +
              </span>
            </summary>
            <p className="text-muted">{item.answer}</p>
          </details>
        ))}
      </div>
    </Wrap>
  );
}
