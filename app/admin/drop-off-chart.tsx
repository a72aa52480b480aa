/** A funnel's per-step drop-off as a server-rendered SVG bar chart (no chart library, no JavaScript). */
import type { StepBar } from "./metrics";

const ROW = 30;
const LABEL_W = 220;
const BAR_W = 300;
const WIDTH = LABEL_W + BAR_W + 90;

function shorten(label: string, max = 28): string {
  return label.length > max ? `${label.slice(0, max - 1)}…` : label;
}

export function DropOffChart({ title, steps }: { title: string; steps: StepBar[] }) {
  const top = Math.max(1, ...steps.map((s) => s.visitors));
  const first = steps[0]?.visitors ?? 0;
  const height = steps.length * ROW + 8;
  return (
    <svg viewBox={`0 0 ${WIDTH} ${height}`} className="h-auto w-full min-w-[560px]" role="img" aria-label={`Visitors at each step of ${title}`}>
      <title>{`Visitors at each step of ${title}`}</title>
      {steps.map((step, i) => {
        const y = i * ROW + 4;
        const w = Math.max(step.visitors > 0 ? 2 : 0, Math.round((step.visitors / top) * BAR_W));
        const share = first > 0 ? `${Math.round((step.visitors / first) * 100)}%` : "–";
        return (
          <g key={step.id} data-step={step.id}>
            <text x={LABEL_W - 10} y={y + 17} textAnchor="end" fontSize="12" fill="#6f5d65">
              {shorten(step.label)}
            </text>
            <rect x={LABEL_W} y={y + 3} width={BAR_W} height={ROW - 10} rx="5" fill="#f3e9df" />
            <rect x={LABEL_W} y={y + 3} width={w} height={ROW - 10} rx="5" fill={i === 0 || i === steps.length - 1 ? "#9c4a5b" : "#c98a97"} />
            <text x={LABEL_W + BAR_W + 8} y={y + 17} fontSize="12" fill="#2e2227" fontWeight="600">
              {`${step.visitors} · ${share}`}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
