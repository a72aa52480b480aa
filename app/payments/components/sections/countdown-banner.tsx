/** The sticky bar over the page while the countdown runs: "Offer expires in 9:59" and a badge. */
import { useCountdownLive } from "../offer-page-state";
import { Timed } from "../offer-parts";
import type { SectionProps } from "./section-props";

export function CountdownBanner({ section }: SectionProps<"countdownBanner">) {
  if (!useCountdownLive()) return null;
  return (
    <div className="sticky top-0 z-30 bg-rose-700 text-white shadow-soft">
      <p className="mx-auto flex max-w-5xl flex-wrap items-center justify-center gap-x-3 gap-y-1 px-5 py-2.5 text-sm sm:text-base" aria-live="off">
        <span>
          <Timed text={section.text} />
        </span>
        <span className="rounded-full bg-white px-3 py-0.5 text-sm font-semibold text-rose-700">{section.badge}</span>
      </p>
    </div>
  );
}
