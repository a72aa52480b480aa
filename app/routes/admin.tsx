/**
 * /admin: admins only (signed-out → /login, members → /home). Funnels, revenue and
 * subscriptions, retention, and members (search, role change with a confirmation step).
 * Every control is a link or an HTML form, so the dashboard works without JavaScript.
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { dashboardView, parsePeriod, ROLES, setMemberRole } from "~/admin/dashboard.server";
import { DropOffChart } from "~/admin/drop-off-chart";
import { PERIODS, percent } from "~/admin/format";
import { Panel, ScrollX } from "~/admin/ui";
import { requireAdmin } from "~/auth/guards.server";
import { FormAlert } from "~/components/ui/form";
import { formErrorsOf } from "~/utils/form-errors";
import { parseForm, replyRefused } from "~/utils/form.server";
import { isRefusal } from "~/utils/outcome";
import { goTo } from "~/utils/responses.server";
import { seo } from "~/utils/seo";

export const meta: MetaFunction = (args) =>
  seo(args, { title: "Admin · Glow Coach", description: "Funnels, revenue, retention and members at a glance.", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  const search = new URL(request.url).searchParams;
  return dashboardView({ admin, period: parsePeriod(search.get("days")), query: search.get("q") ?? "", confirmId: search.get("confirm") });
}

/** The confirmation screen's form: the member, the role they get, and the search to go back to. */
const SetRoleForm = z.object({
  intent: z.literal("set-role", { error: "Please use the buttons on the page." }),
  role: z.enum(ROLES, { error: "Please choose a role: user or admin." }),
  confirm: z.literal("yes", { error: "Please confirm the role change." }),
  userId: z.string({ error: "That member does not exist." }).max(100, { error: "That member does not exist." }),
  q: z.string({ error: "Please use the buttons on the page." }).optional(),
});

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const { submission, status } = await parseForm(request, SetRoleForm);
  if (submission.status !== "success") return data(submission.reply(), { status });
  const { userId, role, q } = submission.value;
  const outcome = await setMemberRole({ admin, userId, role, query: q });
  return isRefusal(outcome) ? replyRefused(submission, outcome) : goTo(outcome);
}

const money = (amount: number, currency: string) => new Intl.NumberFormat("en-US", { style: "currency", currency }).format(amount);
const TIER_LABEL: Record<string, string> = { monthly: "Monthly", annual: "Annual", single_payment: "Lifetime" };

function Stat({ label, value, note, testId }: { label: string; value: string | number; note?: string; testId?: string }) {
  return (
    <div className="rounded-2xl border border-line bg-cream px-4 py-3" data-testid={testId}>
      <dt className="text-xs font-semibold uppercase tracking-wide text-muted">{label}</dt>
      <dd className="mt-1 font-display text-2xl font-semibold" data-value>
        {value}
      </dd>
      {note ? <dd className="text-xs text-muted">{note}</dd> : null}
    </div>
  );
}

export default function Admin() {
  const { email, adminId, period, funnels, revenue, oneTap, recovery, subscriptions, retention, query, members, confirm } = useLoaderData<typeof loader>();
  const errors = formErrorsOf(useActionData<typeof action>());
  const periodLink = (days: number) => `/admin?${new URLSearchParams({ days: String(days), ...(query ? { q: query } : {}) })}`;
  return (
    <div className="mx-auto w-full max-w-5xl px-5 py-10">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-3xl font-semibold">Admin Dashboard</h1>
          <p className="mt-1 text-muted">Welcome, {email}</p>
        </div>
        <div className="flex flex-wrap gap-3">
          <Link to="/admin/experiments" className="btn-secondary">
            Experiments
          </Link>
          <Link to="/home" className="btn-secondary">
            Back to Home
          </Link>
          <Form method="post" action="/logout">
            <button type="submit" className="btn-secondary">
              Logout
            </button>
          </Form>
        </div>
      </div>
      <div className="mt-6 flex flex-wrap items-center justify-between gap-3">
        <p className="inline-flex rounded-full bg-sage/15 px-4 py-1.5 text-sm font-semibold text-sage">Admin Access Granted</p>
        <nav aria-label="Period" className="flex rounded-full border border-line bg-white p-1 text-sm font-semibold">
          {PERIODS.map((days) => (
            <Link
              key={days}
              to={periodLink(days)}
              aria-current={days === period ? "page" : undefined}
              className={`rounded-full px-4 py-1.5 ${days === period ? "bg-rose-600 text-white" : "text-muted hover:text-ink"}`}
            >
              Last {days} days
            </Link>
          ))}
        </nav>
      </div>

      <Panel id="funnels" title="Funnels" aside={<span className="text-sm text-muted">Distinct visitors, last {period} days</span>}>
        <ul className="mt-5 space-y-5">
          {funnels
            .filter((funnel) => funnel.views > 0)
            .map((funnel) => (
              <li key={funnel.id} className="rounded-2xl border border-line p-4 sm:p-5" data-testid={`funnel-${funnel.id}`}>
                <h3 className="text-lg font-semibold">{funnel.title}</h3>
                <dl className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-4">
                  <Stat label="Views" value={funnel.views} testId="views" />
                  <Stat label="Completions" value={funnel.completions} note={`${percent(funnel.rates.completion)} of views`} testId="completions" />
                  <Stat label="Checkouts" value={funnel.checkouts} note={`${percent(funnel.rates.checkout)} of completions`} testId="checkouts" />
                  <Stat
                    label="Purchases"
                    value={funnel.purchases}
                    note={`${percent(funnel.rates.purchase)} of checkouts · ${percent(funnel.rates.overall)} of views`}
                    testId="purchases"
                  />
                </dl>
                {funnel.views > 0 ? (
                  <details className="mt-4" open={funnel.id === funnels[0]?.id}>
                    <summary className="cursor-pointer text-sm font-semibold text-rose-700">Drop-off by step</summary>
                    {/* Scrolls sideways on a phone rather than shrinking the labels to nothing. */}
                    <ScrollX label={`${funnel.title}: drop-off by step`} className="mt-3">
                      <DropOffChart title={funnel.title} steps={funnel.steps} />
                    </ScrollX>
                  </details>
                ) : null}
              </li>
            ))}
        </ul>
        {funnels.some((funnel) => funnel.views === 0) ? (
          <>
            <h3 className="mt-6 text-sm font-semibold text-muted">No views in this period</h3>
            <ul className="mt-2 flex flex-wrap gap-2">
              {funnels
                .filter((funnel) => funnel.views === 0)
                .map((funnel) => (
                  <li key={funnel.id} data-testid={`funnel-${funnel.id}`} className="rounded-full border border-line bg-cream px-3 py-1 text-sm">
                    {funnel.title}{" "}
                    <span data-testid="views" className="text-muted">
                      (<span data-value>{funnel.views}</span> views)
                    </span>
                  </li>
                ))}
            </ul>
          </>
        ) : null}
      </Panel>

      <Panel id="revenue" title="Revenue and subscriptions">
        <dl className="mt-5 grid grid-cols-3 gap-3">
          <Stat label="Active monthly" value={subscriptions.monthly} testId="active-monthly" />
          <Stat label="Active annual" value={subscriptions.annual} testId="active-annual" />
          <Stat label="Lifetime" value={subscriptions.lifetime} testId="active-lifetime" />
        </dl>
        <h3 className="mt-6 font-semibold">Revenue by offer, last {period} days</h3>
        {revenue.length ? (
          <ScrollX label="Revenue by offer" className="mt-2">
            <table className="w-full text-left text-sm" data-testid="revenue-table">
              <thead className="text-muted">
                <tr>
                  <th className="py-2 pr-4 font-semibold">Offer</th>
                  <th className="py-2 pr-4 text-right font-semibold">Purchases</th>
                  <th className="py-2 text-right font-semibold">Revenue</th>
                </tr>
              </thead>
              <tbody>
                {revenue.map((row) => (
                  <tr key={`${row.offer}-${row.currency}`} className="border-t border-line">
                    <td className="py-2 pr-4 font-medium">{row.offer}</td>
                    <td className="py-2 pr-4 text-right">{row.purchases}</td>
                    <td className="py-2 text-right font-semibold">{money(row.amount, row.currency)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollX>
        ) : (
          <p className="mt-2 text-sm text-muted">No purchases in this period.</p>
        )}
        <h3 className="mt-6 font-semibold">One-tap offer after purchase</h3>
        <p className="mt-1 text-sm text-muted">
          Shown: the purchases it followed (a reload counts once). Also in the offer rows above. Split by experiment variant while one runs.
        </p>
        <ScrollX label="One-tap offer after purchase" className="mt-2">
          <table className="w-full text-left text-sm" data-testid="one-tap-table">
            <thead className="text-muted">
              <tr>
                <th className="py-2 pr-4 font-semibold">Visitors</th>
                <th className="py-2 pr-4 text-right font-semibold">Shown</th>
                <th className="py-2 pr-4 text-right font-semibold">Bought</th>
                <th className="py-2 text-right font-semibold">Revenue</th>
              </tr>
            </thead>
            <tbody>
              {oneTap.map((row) => (
                <tr key={row.variant ?? "all"} className="border-t border-line" data-testid={row.variant ? `one-tap-${row.variant}` : "one-tap-all"}>
                  <td className="py-2 pr-4 font-medium">{row.variant ?? "Everyone"}</td>
                  <td className="py-2 pr-4 text-right">{row.shownAfter}</td>
                  <td className="py-2 pr-4 text-right">{row.bought}</td>
                  <td className="py-2 text-right font-semibold">
                    {row.revenue.length ? row.revenue.map((r) => money(r.amount, r.currency)).join(" + ") : money(0, "USD")}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollX>
      </Panel>

      <Panel id="recovery" title="E-mail step and recovery e-mails">
        <p className="mt-1 text-sm text-muted">
          Visitors who gave an address at a quiz's e-mail step in the last {period} days, how many bought, and what the recovery e-mails did. Split by
          experiment variant while one runs.
        </p>
        {recovery[0].leads ? (
          <ScrollX label="Leads and recovery e-mails" className="mt-4">
            <table className="w-full text-left text-sm" data-testid="recovery-table">
              <thead className="text-muted">
                <tr>
                  <th className="py-2 pr-4 font-semibold">Visitors</th>
                  <th className="py-2 pr-4 text-right font-semibold">Leads (consented)</th>
                  <th className="py-2 pr-4 text-right font-semibold">Lead → purchase</th>
                  <th className="py-2 pr-4 text-right font-semibold">Sent · opened · clicked</th>
                  <th className="py-2 pr-4 text-right font-semibold">Bought after recovery</th>
                  <th className="py-2 text-right font-semibold">Revenue from recovery</th>
                </tr>
              </thead>
              <tbody>
                {recovery.map((row) => (
                  <tr key={row.variant ?? "all"} className="border-t border-line" data-testid={row.variant ? `recovery-${row.variant}` : "recovery-all"}>
                    <td className="py-2 pr-4 font-medium">{row.variant ?? "Everyone"}</td>
                    <td className="py-2 pr-4 text-right">
                      {row.leads} ({row.consenting})
                    </td>
                    <td className="py-2 pr-4 text-right">
                      {row.leadPurchases} · {percent(row.leadToPurchase)}
                    </td>
                    <td className="py-2 pr-4 text-right">
                      {row.sent} · {row.opened} · {row.clicked}
                    </td>
                    <td className="py-2 pr-4 text-right">{row.recoveredPurchases}</td>
                    <td className="py-2 text-right font-semibold">
                      {row.recoveredRevenue.length ? row.recoveredRevenue.map((r) => money(r.amount, r.currency)).join(" + ") : "—"}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollX>
        ) : (
          <p className="mt-2 text-sm text-muted">No addresses given in this period.</p>
        )}
      </Panel>

      <Panel id="retention" title="Retention">
        <p className="mt-1 text-sm text-muted">
          Buyers from each funnel who completed the routine on days 1-7 and 22-30 after buying (day 1 is the day of purchase). Only buyers for whom the whole
          window has passed count.
        </p>
        {retention.length ? (
          <ScrollX label="Retention by funnel" className="mt-4">
            <table className="w-full text-left text-sm" data-testid="retention-table">
              <thead className="text-muted">
                <tr>
                  <th className="py-2 pr-4 font-semibold">Funnel</th>
                  <th className="py-2 pr-4 text-right font-semibold">Days 1-7</th>
                  <th className="py-2 text-right font-semibold">Days 22-30</th>
                </tr>
              </thead>
              <tbody>
                {retention.map((row) => (
                  <tr key={row.funnel ?? "none"} className="border-t border-line" data-funnel={row.funnel ?? "none"}>
                    <td className="py-2 pr-4 font-medium">{row.title}</td>
                    <td className="py-2 pr-4 text-right">
                      {percent(row.week1.share)}{" "}
                      <span className="text-muted">
                        ({row.week1.active} of {row.week1.eligible})
                      </span>
                    </td>
                    <td className="py-2 text-right">
                      {percent(row.month.share)}{" "}
                      <span className="text-muted">
                        ({row.month.active} of {row.month.eligible})
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollX>
        ) : (
          <p className="mt-3 text-sm text-muted">No buyers yet.</p>
        )}
      </Panel>

      <Panel id="users" title="Users">
        <Form method="get" action="/admin#users" className="mt-4 flex flex-col gap-3 sm:flex-row">
          <input type="hidden" name="days" value={period} />
          <label className="sr-only" htmlFor="user-search">
            Search by e-mail
          </label>
          <input
            id="user-search"
            type="search"
            name="q"
            defaultValue={query}
            maxLength={200}
            placeholder="Search by e-mail"
            className="min-h-12 flex-1 rounded-full border border-line bg-white px-5 text-base"
          />
          <button type="submit" className="btn-secondary">
            Search
          </button>
        </Form>
        {errors ? (
          <div className="mt-4">
            <FormAlert errors={errors} />
          </div>
        ) : null}
        {confirm ? (
          <div className="mt-5 rounded-2xl border-2 border-rose-200 bg-rose-50 p-5" role="alertdialog" aria-labelledby="confirm-heading">
            <h3 id="confirm-heading" className="font-semibold">
              Change the role of {confirm.email} from {confirm.role} to {confirm.role === "admin" ? "user" : "admin"}?
            </h3>
            <p className="mt-1 text-sm text-muted">
              {confirm.role === "admin" ? "They will lose access to this dashboard." : "They will see every member and the business numbers on this dashboard."}
            </p>
            <Form method="post" className="mt-4 flex flex-wrap gap-3">
              <input type="hidden" name="intent" value="set-role" />
              <input type="hidden" name="userId" value={confirm.id} />
              <input type="hidden" name="role" value={confirm.role === "admin" ? "user" : "admin"} />
              <input type="hidden" name="confirm" value="yes" />
              <input type="hidden" name="q" value={query} />
              <button type="submit" className="btn-primary sm:min-w-0">
                Yes, make {confirm.role === "admin" ? "user" : "admin"}
              </button>
              <Link to={`/admin?${new URLSearchParams({ q: query })}#users`} className="btn-secondary">
                Cancel
              </Link>
            </Form>
          </div>
        ) : null}
        {query ? (
          members.length ? (
            <ScrollX label="Members found" className="mt-5">
              <table className="w-full text-left text-sm" data-testid="members-table">
                <thead className="text-muted">
                  <tr>
                    <th className="py-2 pr-4 font-semibold">E-mail</th>
                    <th className="py-2 pr-4 font-semibold">Role</th>
                    <th className="py-2 pr-4 font-semibold">Plans</th>
                    <th className="py-2 pr-4 text-right font-semibold">Streak</th>
                    <th className="py-2 font-semibold">
                      <span className="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {members.map((m) => (
                    <tr key={m.id} className="border-t border-line" data-email={m.email}>
                      <td className="py-2 pr-4">
                        <span className="font-medium">{m.email}</span>
                        {m.source ? (
                          <span className="block text-xs text-muted">
                            Came from{" "}
                            <span data-testid="source">
                              {[
                                m.source.funnel ?? "No funnel",
                                m.source.answers ? `${m.source.answers} answers` : null,
                                m.source.utmSource ?? m.source.referrer,
                              ]
                                .filter(Boolean)
                                .join(" · ")}
                            </span>
                          </span>
                        ) : null}
                      </td>
                      <td className="py-2 pr-4">{m.role}</td>
                      <td className="py-2 pr-4">
                        {m.plans.length
                          ? m.plans.map((p, i) => (
                              <span key={i} className="block">
                                {TIER_LABEL[p.tier ?? ""] ?? p.tier} · {p.subscribed ? "active" : (p.status ?? "inactive")} · {p.offerId}
                              </span>
                            ))
                          : "Free"}
                      </td>
                      <td className="py-2 pr-4 text-right">
                        {m.streak} {m.streak === 1 ? "day" : "days"}
                      </td>

                      <td className="py-2 text-right">
                        {m.id === adminId ? (
                          <span className="text-xs text-muted">You</span>
                        ) : (
                          <Link to={`/admin?${new URLSearchParams({ q: query, confirm: m.id })}#users`} className="font-semibold text-rose-700 hover:underline">
                            {m.role === "admin" ? "Make user" : "Make admin"}
                          </Link>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollX>
          ) : (
            <p className="mt-4 text-sm text-muted">No member matches “{query}”.</p>
          )
        ) : null}
      </Panel>
    </div>
  );
}
