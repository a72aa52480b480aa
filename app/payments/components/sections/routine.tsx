/** The routine plan's steps for the visitor's answers: the first ones open, the rest locked under a button to the plans. */
import { LockIcon } from "~/components/ui/offer-icons";
import { usePage } from "../offer-page-state";
import { ScrollButton, SectionTitle, Wrap } from "../offer-parts";
import type { SectionProps } from "./section-props";

export function Routine({ section }: SectionProps<"routine">) {
  const { routine } = usePage();
  if (!routine.length) return null;
  const visible = routine.slice(0, section.visibleSteps);
  const locked = routine.slice(section.visibleSteps);
  return (
    <Wrap>
      <SectionTitle title={section.title} subtitle={section.subtitle} />
      <ol className="mx-auto mt-8 grid max-w-2xl gap-3" data-testid="routine-preview">
        {visible.map((step, i) => (
          <li key={i} className="card flex gap-4 p-5">
            <span className="flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-rose-600 font-semibold text-white">{i + 1}</span>
            <div>
              <p className="font-semibold" data-testid="routine-step-name">
                {step.name}
              </p>
              {step.detail ? (
                <p className="mt-1 text-muted" data-testid="routine-step-detail">
                  {step.detail}
                </p>
              ) : null}
            </div>
          </li>
        ))}
        {locked.length ? (
          <li className="relative">
            <ol className="grid gap-3" start={section.visibleSteps + 1}>
              {locked.map((step, i) => (
                <li key={i} className="card flex items-center gap-4 p-5">
                  <span className="flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-rose-100 font-semibold text-rose-700">
                    {section.visibleSteps + i + 1}
                  </span>
                  <p className="flex-1 font-semibold" data-testid="routine-step-name">
                    {step.name}
                  </p>
                  <span className="text-muted" role="img" aria-label="Locked">
                    <LockIcon />
                  </span>
                </li>
              ))}
            </ol>
            <div className="pointer-events-none absolute inset-x-0 bottom-0 h-2/3 rounded-b-card bg-gradient-to-b from-transparent to-cream" />
          </li>
        ) : null}
      </ol>
      {locked.length ? (
        <div className="mt-5 flex flex-col items-center gap-3">
          <p className="inline-flex items-center gap-2 font-semibold text-rose-700">
            <LockIcon /> {section.lockedLabel.replaceAll("{count}", String(locked.length))}
          </p>
          <ScrollButton href={section.unlock.href} className="btn-primary">
            {section.unlock.label}
          </ScrollButton>
        </div>
      ) : null}
    </Wrap>
  );
}
