/** Tips from the plan, some locked until they buy. */
import { LockOverlay, SectionTitle, UnlockButton, Wrap } from "../offer-parts";
import type { SectionProps } from "./section-props";

export function Tips({ section }: SectionProps<"tips">) {
  return (
    <Wrap>
      <SectionTitle title={section.title} />
      <ul className="mt-8 grid gap-4 md:grid-cols-3">
        {section.tips.map((tip) => (
          <li key={tip.title} className="card relative overflow-hidden p-5">
            <div className={tip.locked ? "select-none blur-[5px]" : undefined} aria-hidden={tip.locked || undefined}>
              <p className="font-semibold">{tip.title}</p>
              <p className="mt-2 text-muted">{tip.text}</p>
            </div>
            {tip.locked ? <LockOverlay>{tip.title.split(":")[0]} locked</LockOverlay> : null}
          </li>
        ))}
      </ul>
      <UnlockButton unlock={section.unlock} />
    </Wrap>
  );
}
