/**
 * The result step's typical-progress chart, rendered to HTML on the server (ADR 42). The
 * result step places the markup as it is, so the chart adds no JavaScript to the quiz (its
 * steps are at their budget) and reads the same with JavaScript off: an SVG picture with a
 * title and description, the small print saying it is typical, and the same numbers in a table.
 */
import { renderToStaticMarkup } from "react-dom/server";
import type { ProgressChart, ProgressPoint } from "../typical-progress";

/** The SVG's own coordinates; the picture scales to its box (about 1:1 on a phone). */
const VIEW = { width: 360, height: 216 };
const PLOT = { left: 34, right: 340, top: 30, bottom: 180 };

const x = (week: number, weeks: number) => PLOT.left + (week / weeks) * (PLOT.right - PLOT.left);
const y = (score: number) => PLOT.bottom - (score / 100) * (PLOT.bottom - PLOT.top);
const round = (n: number) => Math.round(n * 10) / 10;

/** A smooth line through every weekly point (Catmull-Rom as cubic Béziers): it passes through the numbers the table shows. */
function linePath(points: { x: number; y: number }[]): string {
  const at = (i: number) => points[Math.max(0, Math.min(points.length - 1, i))];
  let d = `M${round(points[0].x)} ${round(points[0].y)}`;
  for (let i = 0; i < points.length - 1; i++) {
    const [p0, p1, p2, p3] = [at(i - 1), at(i), at(i + 1), at(i + 2)];
    const c1 = { x: p1.x + (p2.x - p0.x) / 6, y: p1.y + (p2.y - p0.y) / 6 };
    const c2 = { x: p2.x - (p3.x - p1.x) / 6, y: p2.y - (p3.y - p1.y) / 6 };
    d += ` C${round(c1.x)} ${round(c1.y)} ${round(c2.x)} ${round(c2.y)} ${round(p2.x)} ${round(p2.y)}`;
  }
  return d;
}

/** Weeks labelled under the chart: now, about four evenly spaced weeks, and the last. */
export function weekTicks(weeks: number): number[] {
  const step = Math.ceil(weeks / 4);
  const ticks: number[] = [];
  for (let week = 0; week <= weeks; week += step) ticks.push(week);
  if (ticks.at(-1) !== weeks) {
    if (weeks - ticks.at(-1)! < step / 2) ticks.pop();
    ticks.push(weeks);
  }
  return ticks;
}

const weekLabel = (week: number) => (week === 0 ? "Now" : `Week ${week}`);

/** The sentence a screen reader hears for the picture: where the line starts, its middle and its end. */
export function chartDescription(chart: ProgressChart): string {
  const first = chart.points[0];
  const last = chart.points.at(-1)!;
  const middle = chart.points[Math.round(last.week / 2)];
  return `${chart.measure}, on a scale of 0 to 100: typically ${first.score} now, ${middle.score} by week ${middle.week} and ${last.score} by week ${last.week}.`;
}

function ProgressPicture({ chart }: { chart: ProgressChart }) {
  const weeks = chart.points.at(-1)!.week;
  const at = (p: ProgressPoint) => ({ x: x(p.week, weeks), y: y(p.score) });
  const line = linePath(chart.points.map(at));
  const first = at(chart.points[0]);
  const last = at(chart.points.at(-1)!);
  return (
    <svg
      role="img"
      aria-labelledby="progress-chart-title"
      aria-describedby="progress-chart-desc"
      viewBox={`0 0 ${VIEW.width} ${VIEW.height}`}
      className="block h-auto w-full overflow-visible"
    >
      <title id="progress-chart-title">{`${chart.title} (typical, not promised)`}</title>
      <desc id="progress-chart-desc">{chartDescription(chart)}</desc>
      <defs>
        <linearGradient id="progress-chart-fill" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#b45a6c" stopOpacity="0.22" />
          <stop offset="1" stopColor="#b45a6c" stopOpacity="0" />
        </linearGradient>
      </defs>
      {[0, 50, 100].map((score) => (
        <g key={score}>
          <line x1={PLOT.left} x2={PLOT.right} y1={y(score)} y2={y(score)} stroke="#eadbd0" strokeDasharray={score === 0 ? undefined : "3 4"} />
          <text x={PLOT.left - 8} y={y(score) + 4} textAnchor="end" fontSize="12" fill="#6f5d65">
            {score}
          </text>
        </g>
      ))}
      {weekTicks(weeks).map((week) => (
        <text key={week} x={x(week, weeks)} y={PLOT.bottom + 22} textAnchor={week === 0 ? "start" : week === weeks ? "end" : "middle"} fontSize="12" fill="#6f5d65">
          {weekLabel(week)}
        </text>
      ))}
      <path d={`${line} L${round(last.x)} ${PLOT.bottom} L${round(first.x)} ${PLOT.bottom} Z`} fill="url(#progress-chart-fill)" />
      <path d={line} fill="none" stroke="#9c4a5b" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" />
      <circle cx={first.x} cy={first.y} r="5" fill="#fff" stroke="#9c4a5b" strokeWidth="2.5" />
      <circle cx={last.x} cy={last.y} r="6" fill="#9c4a5b" stroke="#fff" strokeWidth="2.5" />
      <text x={first.x + 10} y={first.y - 10} fontSize="14" fontWeight="600" fill="#2e2227">
        {chart.points[0].score}
      </text>
      <text x={last.x} y={last.y - 14} textAnchor="end" fontSize="14" fontWeight="600" fill="#833c4b">
        {chart.points.at(-1)!.score}
      </text>
    </svg>
  );
}

export function ProgressChartCard({ chart }: { chart: ProgressChart }) {
  const weeks = chart.points.at(-1)!.week;
  return (
    <section aria-labelledby="progress-chart-heading" className="card mt-6 p-6 text-left sm:p-8">
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
        <h2 id="progress-chart-heading" className="text-2xl font-semibold leading-snug">
          {chart.title}
        </h2>
        <span className="rounded-full bg-sand px-3 py-1 text-xs font-semibold uppercase tracking-[0.1em] text-rose-700">Typical, not promised</span>
      </div>
      <p className="mt-2 leading-relaxed text-muted">
        {`${chart.measure} over ${weeks} weeks with ${chart.planName}${chart.basedOn.length ? ", drawn from your answers:" : "."}`}
      </p>
      {chart.basedOn.length ? (
        <ul aria-label="Your answers" className="mt-3 flex flex-wrap gap-2">
          {chart.basedOn.map((words) => (
            <li key={words} className="rounded-full bg-rose-50 px-3 py-1 text-sm text-rose-700">
              {words}
            </li>
          ))}
        </ul>
      ) : null}
      <figure className="mt-5">
        <ProgressPicture chart={chart} />
        <figcaption className="mt-3 text-sm leading-relaxed text-muted">{chart.note}</figcaption>
      </figure>
      <details className="mt-4 text-sm">
        <summary className="cursor-pointer font-medium text-rose-700 underline-offset-4 hover:underline">See the numbers</summary>
        {/* Weeks down the side: it fits a phone without scrolling sideways, however many weeks. */}
        <table className="mt-3 w-full max-w-xs border-collapse tabular-nums">
          <caption className="sr-only">{`${chart.measure}, typical score from 0 to 100, by week`}</caption>
          <thead>
            <tr className="border-b border-line text-left">
              <th scope="col" className="py-2 pr-4 font-semibold">
                Week
              </th>
              <th scope="col" className="py-2 text-right font-semibold">
                Typical score
              </th>
            </tr>
          </thead>
          <tbody>
            {chart.points.map((p) => (
              <tr key={p.week} className="border-b border-line/60 last:border-0">
                <th scope="row" className="py-1.5 pr-4 text-left font-normal text-muted">
                  {weekLabel(p.week)}
                </th>
                <td className="py-1.5 text-right font-semibold">{p.score}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </section>
  );
}

export function progressChartHtml(chart: ProgressChart): string {
  return renderToStaticMarkup(<ProgressChartCard chart={chart} />);
}
