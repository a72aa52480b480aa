/** "Only 4:32 left for discount": a reminder of the countdown, with a button to the plans. */
import { ClockIcon } from "~/components/ui/offer-icons";
import { useCountdownLive, usePage } from "../offer-page-state";
import { ScrollButton, Timed, Wrap } from "../offer-parts";
import type { SectionProps } from "./section-props";

export function Urgency({ section }: SectionProps<"urgency">) {
  const live = useCountdownLive();
  const { owned } = usePage();
  // "Only 4:32 left for discount" is only true while the countdown runs, and never for a member who has the plan.
  if (owned || (section.text.includes("{time}") && !live)) return null;
  return (
    <Wrap>
      <div className="mx-auto flex max-w-2xl flex-col items-center gap-4 rounded-card border border-gold/40 bg-[#fbf3e4] px-6 py-6 text-center sm:flex-row sm:text-left">
        <span className="flex h-11 w-11 shrink-0 items-center justify-center rounded-full bg-gold/15 text-gold" aria-hidden="true">
          <ClockIcon />
        </span>
        <p className="flex-1 text-lg">
          <Timed text={section.text} />
        </p>
        {section.cta ? (
          <ScrollButton href={section.cta.href} className="btn-primary sm:min-w-0">
            {section.cta.label}
          </ScrollButton>
        ) : null}
      </div>
    </Wrap>
  );
}
