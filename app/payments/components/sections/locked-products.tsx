/** "Chosen for your skin": the routine plan's products for the visitor's answers, some locked until they buy. */
import { CheckIcon, SparkleIcon } from "~/components/ui/icons";
import { usePage } from "../offer-page-state";
import { LockOverlay, SectionTitle, UnlockButton, Wrap } from "../offer-parts";
import type { SectionProps } from "./section-props";

export function LockedProducts({ section }: SectionProps<"lockedProducts">) {
  const { matches, reason, personalised } = usePage();
  if (!matches.length) return null;
  const subtitle = personalised ? section.subtitle : section.generalSubtitle;
  return (
    <Wrap>
      <SectionTitle title={section.title} subtitle={subtitle} />
      {reason ? (
        <p className="mt-3 flex items-center justify-center gap-2 text-center font-semibold text-rose-700" data-testid="offer-reason">
          <CheckIcon className="h-4 w-4" /> {reason}
        </p>
      ) : null}
      <ul className="mt-8 grid gap-4 sm:grid-cols-3">
        {matches.map((product, i) => (
          <li
            key={i}
            className="card relative overflow-hidden p-5"
            aria-label={product.locked ? `${product.fitLabel} ${product.fitPercent}% (locked)` : undefined}
            data-testid="product-match"
          >
            <div className={product.locked ? "select-none blur-[6px]" : undefined} aria-hidden={product.locked || undefined}>
              <div className="flex h-28 items-center justify-center rounded-2xl bg-gradient-to-br from-rose-50 to-sand">
                <SparkleIcon className="h-9 w-9 text-rose-500/70" />
              </div>
              <p className="mt-4 text-sm uppercase tracking-wide text-muted">{product.kind}</p>
              <p className="font-semibold">{product.name ?? "Hidden product name"}</p>
            </div>
            <div className="mt-3">
              <p className="flex items-center justify-between text-sm">
                <span className="font-semibold text-rose-700">{product.fitLabel}</span>
                <span className="font-semibold tabular-nums">{product.fitPercent}%</span>
              </p>
              <div className="mt-1.5 h-2 rounded-full bg-rose-100">
                <div className="h-2 rounded-full bg-rose-500" style={{ width: `${product.fitPercent}%` }} />
              </div>
            </div>
            {product.locked ? <LockOverlay>Locked</LockOverlay> : null}
          </li>
        ))}
      </ul>
      <UnlockButton unlock={section.unlock} />
    </Wrap>
  );
}
