/** What the plan holds, one card per item. */
import { SparkleIcon } from "~/components/ui/icons";
import { SectionTitle, Wrap } from "../offer-parts";
import type { SectionProps } from "./section-props";

export function WhatsInside({ section }: SectionProps<"whatsInside">) {
  return (
    <Wrap>
      <SectionTitle title={section.title} />
      <ul className="mt-8 grid gap-4 sm:grid-cols-2">
        {section.items.map((item) => (
          <li key={item.title} className="card p-6">
            <SparkleIcon className="h-6 w-6 text-rose-500" />
            <h3 className="mt-3 text-xl font-semibold">{item.title}</h3>
            <p className="mt-1 text-muted">{item.text}</p>
          </li>
        ))}
      </ul>
    </Wrap>
  );
}
