/** The money-back guarantee. */
import { ShieldIcon } from "~/components/ui/icons";
import { Wrap } from "../offer-parts";
import type { SectionProps } from "./section-props";

export function Guarantee({ section }: SectionProps<"guarantee">) {
  return (
    <Wrap>
      <div className="mx-auto flex max-w-2xl items-start gap-4 rounded-card border border-sage/30 bg-[#f1f5f1] p-6">
        <span className="flex h-11 w-11 shrink-0 items-center justify-center rounded-full bg-sage/15 text-sage">
          <ShieldIcon className="h-6 w-6" />
        </span>
        <div>
          <h2 className="text-xl font-semibold">{section.title}</h2>
          <p className="mt-1 text-lg">{section.text}</p>
        </div>
      </div>
    </Wrap>
  );
}
