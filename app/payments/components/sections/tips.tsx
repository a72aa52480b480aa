/** The routine plan's home tips for the visitor's answers, some locked until they buy (their text never sent). */
import { usePage } from "../offer-page-state";
import { LockOverlay, SectionTitle, UnlockButton, Wrap } from "../offer-parts";
import type { SectionProps } from "./section-props";

/** Drawn blurred where a locked tip's text would be: a locked tip's own words stay on the server. */
const LOCKED_TEXT = "Unlock your plan to read this tip, chosen for your skin.";

export function Tips({ section }: SectionProps<"tips">) {
  const { tips } = usePage();
  if (!tips.length) return null;
  return (
    <Wrap>
      <SectionTitle title={section.title} />
      <ul className="mt-8 grid gap-4 md:grid-cols-3">
        {tips.map((tip) => (
          <li key={tip.title} className="card relative overflow-hidden p-5" data-testid="offer-tip" data-locked={tip.locked}>
            <div className={tip.locked ? "select-none blur-[5px]" : undefined} aria-hidden={tip.locked || undefined}>
              <p className="font-semibold">{tip.title}</p>
              <p className="mt-2 text-muted" data-testid="offer-tip-text">
                {tip.text ?? LOCKED_TEXT}
              </p>
            </div>
            {tip.locked ? <LockOverlay>{tip.title} locked</LockOverlay> : null}
          </li>
        ))}
      </ul>
      <UnlockButton unlock={section.unlock} />
    </Wrap>
  );
}
