/**
 * /admin/experiments: admins only (signed-out → /login, members → /home). Each experiment,
 * running or stopped, per variant: visitors, completions, checkouts, purchases, revenue per
 * visitor and buyers still doing the routine, with the probability that each variant is the
 * best, and a warning while there are too few visitors or buyers to tell.
 */
import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { percent } from "~/admin/format";
import { Panel, ScrollX } from "~/admin/ui";
import { requireAdmin } from "~/auth/guards.server";
import { experimentReports } from "~/admin/experiment-report.server";
import type { ExperimentReport, VariantResult } from "~/admin/experiment-report";
import { now } from "~/utils/clock.server";
import { seo } from "~/utils/seo";

export const meta: MetaFunction = (args) =>
  seo(args, { title: "Experiments · Admin · Glow Coach", description: "How each experiment's variants do, by revenue and retention.", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return data({ reports: await experimentReports(now()) });
}

const money = (minor: number | null) =>
  minor === null ? "–" : new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(Math.round(minor) / 100);

function subjectOf(report: ExperimentReport): string {
  const { kind, offer, funnel, step } = report.experiment;
  if (kind === "offer") return offer ? `Offer “${offer}”` : "Subject unknown";
  return `Quiz “${funnel}”, step ${step}`;
}

/** A count with its share of the variant's visitors. */
function Count({ metric, value, of }: { metric: string; value: number; of: number | null }) {
  return (
    <td className="py-2 pr-4 text-right" data-metric={metric} data-value={value}>
      {value} <span className="text-xs text-muted">{percent(of)}</span>
    </td>
  );
}

function Retained({ metric, shares }: { metric: string; shares: VariantResult["retention"]["week1"] }) {
  return (
    <td className="py-2 pr-4 text-right" data-metric={metric} data-value={shares.share ?? ""} data-active={shares.active} data-eligible={shares.eligible}>
      {percent(shares.share)}{" "}
      <span className="text-xs text-muted">
        ({shares.active} of {shares.eligible})
      </span>
    </td>
  );
}

/** A probability as a percent, the leader in bold. */
function Chance({ metric, value, leads }: { metric: string; value: number; leads: boolean }) {
  return (
    <td className={`py-2 pr-4 text-right ${leads ? "font-semibold text-sage" : ""}`} data-metric={metric} data-value={value.toFixed(4)}>
      {`${Math.round(value * 100)}%`}
    </td>
  );
}

const BEST_COLUMNS = [
  ["completion", "Completion rate"],
  ["checkout", "Checkout rate"],
  ["purchase", "Purchase rate"],
  ["revenuePerVisitor", "Revenue per visitor"],
  ["week1", "Routine days 1-7"],
  ["month", "Routine days 22-30"],
] as const;

function ExperimentPanel({ report }: { report: ExperimentReport }) {
  const { experiment, variants } = report;
  const running = experiment.status === "running";
  const leader = (metric: (typeof BEST_COLUMNS)[number][0]) => Math.max(...variants.map((v) => v.best[metric]));
  return (
    <Panel
      id={`experiment-${experiment.experimentId}`}
      title={experiment.name}
      aside={
        <span
          className={`rounded-full px-3 py-1 text-sm font-semibold ${running ? "bg-sage/15 text-sage" : "bg-cream text-muted"}`}
          data-testid="experiment-status"
        >
          {running ? "Running" : "Stopped"}
        </span>
      }
    >
      <p className="mt-1 text-sm text-muted">
        {subjectOf(report)} · id <code>{experiment.experimentId}</code>
      </p>
      {experiment.hypothesis ? <p className="mt-2 text-sm">{experiment.hypothesis}</p> : null}
      {report.warning ? (
        <p className="mt-4 rounded-2xl border border-gold/40 bg-gold/10 px-4 py-3 text-sm font-medium" data-testid="sample-warning">
          {report.warning}
        </p>
      ) : null}

      <ScrollX label={`${experiment.name}: results by variant`} className="mt-4">
        <table className="w-full text-left text-sm" data-testid="variant-results">
          <thead className="text-muted">
            <tr>
              <th className="py-2 pr-4 font-semibold">Variant</th>
              <th className="py-2 pr-4 text-right font-semibold">Weight</th>
              <th className="py-2 pr-4 text-right font-semibold">Visitors</th>
              <th className="py-2 pr-4 text-right font-semibold">Completions</th>
              <th className="py-2 pr-4 text-right font-semibold">Checkouts</th>
              <th className="py-2 pr-4 text-right font-semibold">Purchases</th>
              <th className="py-2 pr-4 text-right font-semibold">Revenue</th>
              <th className="py-2 pr-4 text-right font-semibold">Per visitor</th>
              <th className="py-2 pr-4 text-right font-semibold">Routine days 1-7</th>
              <th className="py-2 text-right font-semibold">Days 22-30</th>
            </tr>
          </thead>
          <tbody>
            {variants.map((v) => (
              <tr key={v.key} className="border-t border-line" data-variant={v.key}>
                <th scope="row" className="py-2 pr-4 font-medium">
                  {v.name} <span className="block text-xs font-normal text-muted">{v.key}</span>
                </th>
                <td className="py-2 pr-4 text-right">{percent(v.share)}</td>
                <td className="py-2 pr-4 text-right" data-metric="visitors" data-value={v.visitors}>
                  {v.visitors}
                </td>
                <Count metric="completions" value={v.completions} of={v.rates.completion} />
                <Count metric="checkouts" value={v.checkouts} of={v.rates.checkout} />
                <Count metric="purchases" value={v.purchases} of={v.rates.purchase} />
                <td className="py-2 pr-4 text-right" data-metric="revenue" data-value={v.revenueMinor}>
                  {money(v.revenueMinor)}
                </td>
                <td className="py-2 pr-4 text-right" data-metric="revenue-per-visitor" data-value={v.revenuePerVisitorMinor ?? ""}>
                  {money(v.revenuePerVisitorMinor)}
                </td>
                <Retained metric="week1" shares={v.retention.week1} />
                <Retained metric="month" shares={v.retention.month} />
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollX>

      <h3 className="mt-6 font-semibold">Chance each variant is best</h3>
      <p className="mt-1 text-sm text-muted">
        Rates: Beta-Binomial posteriors, compared by simulation. Revenue per visitor: a bootstrap over the variant&apos;s visitors. Trust them once the warning
        above is gone.
      </p>
      {report.retentionWarning ? <p className="mt-1 text-sm text-muted">{report.retentionWarning}</p> : null}
      <ScrollX label={`${experiment.name}: chance each variant is best`} className="mt-3">
        <table className="w-full text-left text-sm" data-testid="variant-best">
          <thead className="text-muted">
            <tr>
              <th className="py-2 pr-4 font-semibold">Variant</th>
              {BEST_COLUMNS.map(([key, label]) => (
                <th key={key} className="py-2 pr-4 text-right font-semibold">
                  {label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {variants.map((v) => (
              <tr key={v.key} className="border-t border-line" data-variant={v.key}>
                <th scope="row" className="py-2 pr-4 font-medium">
                  {v.name}
                </th>
                {BEST_COLUMNS.map(([key]) => (
                  <Chance key={key} metric={key} value={v.best[key]} leads={variants.length > 1 && v.best[key] === leader(key)} />
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollX>
    </Panel>
  );
}

export default function AdminExperiments() {
  const { reports } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto w-full max-w-5xl px-5 py-10">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-3xl font-semibold">Experiments</h1>
          <p className="mt-1 text-muted">Every number counts what visitors did while in a variant. Stopped experiments keep their results.</p>
        </div>
        <Link to="/admin" className="btn-secondary">
          Back to Dashboard
        </Link>
      </div>
      {reports.length ? (
        reports.map((report) => <ExperimentPanel key={report.experiment.experimentId} report={report} />)
      ) : (
        <p className="card mt-8 p-6 text-muted">
          No experiments yet. Create one in the Studio (Experiments), or see “Running an experiment” in the marketers’ guide.
        </p>
      )}
    </div>
  );
}
