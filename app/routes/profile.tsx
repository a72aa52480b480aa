/**
 * /profile (signed in, else /login): who is signed in, what they pay for (one 'Subscription
 * Details' card per plan they have), and the way to manage each (the billing portal,
 * /billing/portal, opens in a new tab), upgrade, or log out; and the daily reminder e-mail
 * (on/off and its hour in the member's time zone), a plain form that works without JavaScript.
 */
import { getFormProps, getInputProps, getSelectProps, useForm, type FieldMetadata } from "@conform-to/react";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { FormAlert } from "~/components/ui/form";
import { ReminderForm } from "~/reminders/forms.server";
import { reminderSettings, saveReminderSettings } from "~/members/reminder-settings.server";
import { hourLabel } from "~/members/reminder-schedule";
import { parseForm } from "~/utils/form.server";
import type { FormInput } from "~/utils/form-types";
import { toastHeader } from "~/utils/toast.server";
import { initials } from "~/auth/display";
import { requireUser } from "~/auth/guards.server";
import { entitlementsOf, NOT_SUBSCRIBED } from "~/billing/entitlements.server";
import { getFunnelById, getPlan } from "~/content/content.server";
import { ArrowRightIcon, CheckIcon } from "~/components/ui/icons";
import { goalChoices } from "~/members/goals";
import { subscriptionDetails } from "~/members/profile";
import { billingRefunds } from "~/payments/refund.server";
import { seo } from "~/utils/seo";
import { pageMayBeStored, type PageInput } from "~/utils/page-record.server";
import { logger } from "~/utils/logger.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Profile · Glow Coach", description: "Your account and subscription details.", noindex: true });

/** What /profile, root layout included, is rendered from (checked against its render's statements: stored-page-reads.test.ts). */
const PROFILE_READS = [
  "url",
  "cookies",
  "content",
  "clock",
  "member:User",
  "member:Session",
  "member:Entitlement",
  "member:EntitlementState",
  "member:Refund",
] as const satisfies readonly PageInput[];

export async function loader({ request }: LoaderFunctionArgs) {
  // Kept and answered again from memory to this browser while what it reads stays the same (ADR 26, 40).
  pageMayBeStored(PROFILE_READS);
  const user = await requireUser(request);
  const entitlements = await entitlementsOf(user.id).catch((error) => {
    // A subscription check error on the profile is logged only: the page still shows what it can.
    logger.error({ err: error }, "[profile] subscription check failed");
    return [];
  });
  const paid = entitlements.filter((e) => e.subscribed);
  // The money-back guarantee of each purchase (ADR 33): still open until a date, or ended; and the refunds made.
  const refunds = await billingRefunds(
    user.id,
    user.timeZone,
    paid.map((e) => e.id),
  );
  const cards = paid.length
    ? await Promise.all(
        paid.map(async (e) => ({
          id: e.id,
          routinePlan: (await getPlan(e.routinePlanId))?.name ?? null,
          refund: refunds.standing.get(e.id) ?? null,
          ...subscriptionDetails(e, user.timeZone),
        })),
      )
    : [{ id: null, routinePlan: null, refund: null, ...subscriptionDetails(NOT_SUBSCRIBED, user.timeZone) }];
  const [reminder, goalFunnel] = await Promise.all([reminderSettings(user.id), getFunnelById("app-goal")]);
  const saved = new URL(request.url).searchParams.get("saved") === "reminder";
  return {
    email: user.email,
    initial: initials(user.email).slice(0, 1),
    cards,
    refunded: refunds.refunded,
    reminder,
    timeZone: user.timeZone,
    saved,
    goals: goalChoices(goalFunnel),
  };
}

/** Saves the reminder settings; from /home's one-tap offer it goes back there with a toast. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const { submission, status } = await parseForm(request, ReminderForm);
  if (submission.status !== "success") return data(submission.reply(), { status });
  const { reminder: on, hour, from } = submission.value;
  await saveReminderSettings(user.id, { on, hour });
  if (from === "home") {
    const toast = { title: `Daily reminder on at ${hourLabel(hour)}`, description: "Change or stop it any time on your profile." };
    return redirect("/home", { status: 303, headers: { "Set-Cookie": await toastHeader(toast) } });
  }
  return redirect("/profile?saved=reminder#reminder-title", 303);
}

function RefreshIcon({ spinning }: { spinning: boolean }) {
  return (
    <svg
      viewBox="0 0 24 24"
      className={`h-4 w-4 ${spinning ? "animate-spin" : ""}`}
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d="M20 12a8 8 0 1 1-2.3-5.6M20 4v5h-5" />
    </svg>
  );
}

/** A field's error, beside it (the field's aria-describedby names it). */
function FieldError({ field }: { field: FieldMetadata<unknown> }) {
  const error = field.errors?.[0];
  return error ? (
    <p id={field.errorId} className="text-sm font-medium text-danger">
      {error}
    </p>
  ) : null;
}

export default function Profile() {
  const { email, initial, cards, refunded, reminder, timeZone, saved, goals } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm<FormInput<typeof ReminderForm>>({
    lastResult,
    defaultValue: { reminder: reminder.on ? "on" : undefined, hour: String(reminder.hour) },
  });
  const refreshing = useNavigation().state === "loading";

  return (
    <div className="mx-auto w-full max-w-xl px-5 pb-16 pt-8 sm:pt-12">
      <div className="flex flex-col items-center text-center">
        <span
          className="flex h-20 w-20 items-center justify-center rounded-full bg-rose-600 font-display text-3xl font-semibold text-white shadow-soft"
          aria-hidden="true"
        >
          {initial}
        </span>
        <h1 className="mt-4 text-3xl font-semibold">Your Profile</h1>
        <p className="mt-1 break-all text-muted">{email}</p>
      </div>

      {cards.map((card, i) => (
        <section key={card.id ?? "free"} className="card mt-8 p-5 sm:p-7" aria-labelledby={`subscription-title-${i}`}>
          <div className="flex items-center justify-between gap-3">
            <div>
              <h2 id={`subscription-title-${i}`} className="text-xl font-semibold">
                Subscription Details
              </h2>
              {card.routinePlan ? <p className="text-sm text-muted">{card.routinePlan}</p> : null}
            </div>
            {/* A GET to this page runs the loader again: a fresh subscription check, also without JavaScript. */}
            {i === 0 ? (
              <Form method="get" action="/profile">
                <button
                  type="submit"
                  className="inline-flex items-center gap-1.5 rounded-full border border-line px-3 py-1.5 text-sm font-semibold text-muted hover:border-rose-200 hover:text-rose-700"
                  aria-label="Refresh subscription details"
                >
                  <RefreshIcon spinning={refreshing} /> Refresh
                </button>
              </Form>
            ) : null}
          </div>
          <dl className="mt-5 divide-y divide-line/70">
            {card.rows.map((row) => (
              <div key={row.label} className="flex items-baseline justify-between gap-4 py-3">
                <dt className="text-muted">{row.label}</dt>
                <dd className={`text-right font-semibold ${row.label === "Status" && row.value === "Active" ? "text-sage" : ""}`}>{row.value}</dd>
              </div>
            ))}
          </dl>

          <div className="mt-5">
            {card.action === "manage" ? (
              // The billing portal (payments) opens in a new tab; a plain form so it needs no JavaScript.
              <form method="post" action="/billing/portal" target="_blank" rel="noopener">
                {card.id ? <input type="hidden" name="entitlement" value={card.id} /> : null}
                <button type="submit" className="btn-primary w-full sm:w-full">
                  Manage Subscription
                </button>
              </form>
            ) : card.action === "lifetime" ? (
              <p className="flex items-center justify-center gap-2 rounded-2xl bg-[#eef3ee] px-4 py-3 font-semibold text-sage" role="status">
                <CheckIcon /> Lifetime Access Active
              </p>
            ) : (
              <Link to="/subscribe" className="btn-primary w-full sm:w-full">
                Upgrade to Premium
              </Link>
            )}
          </div>
          {card.refund?.kind === "open" ? (
            <div className="mt-4 flex flex-col items-center gap-1 text-center text-sm sm:flex-row sm:justify-between sm:text-left">
              <p className="text-muted">Money-back guarantee: a full refund until {card.refund.until}.</p>
              <Link
                to={`/billing/refund?${new URLSearchParams({ entitlement: card.id ?? "" })}`}
                className="shrink-0 font-semibold text-rose-700 underline underline-offset-4 hover:text-ink"
              >
                Request a refund
              </Link>
            </div>
          ) : card.refund?.kind === "ended" ? (
            <p className="mt-4 text-center text-sm text-muted sm:text-left">{card.refund.text}</p>
          ) : null}
        </section>
      ))}

      {refunded.length ? (
        <section className="card mt-8 p-5 sm:p-7" aria-labelledby="refunds-title">
          <h2 id="refunds-title" className="text-xl font-semibold">
            Refunds
          </h2>
          <ul className="mt-3 divide-y divide-line/70">
            {refunded.map((refund) => (
              <li key={refund.id} className="flex flex-col gap-0.5 py-3 sm:flex-row sm:items-baseline sm:justify-between sm:gap-4">
                <p className="font-semibold">{refund.planName}</p>
                <p className="text-muted">{refund.text}</p>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section className="card mt-8 p-5 sm:p-7" aria-labelledby="reminder-title">
        <h2 id="reminder-title" className="text-xl font-semibold">
          Daily Reminder
        </h2>
        <p className="mt-1 text-sm text-muted">One e-mail a day at your hour, only when today's routine isn't done yet.</p>
        <Form method="post" action="/profile" className="mt-5 grid gap-4" {...getFormProps(form)}>
          <input type="hidden" name="intent" value="reminder" />
          <FormAlert errors={form.errors} id={form.errorId} />
          <div className="grid gap-1.5">
            {/* The label draws the focus ring, as the quiz's answer cards do. */}
            <label className="flex cursor-pointer items-center gap-3 rounded-2xl border border-line bg-white px-4 py-3.5 font-semibold transition-colors hover:border-rose-200 has-[:checked]:border-rose-500 has-[:checked]:bg-rose-50 has-[:focus-visible]:outline has-[:focus-visible]:outline-[3px] has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-rose-500 has-[[aria-invalid]]:border-danger">
              <input {...getInputProps(fields.reminder, { type: "checkbox", value: "on" })} className="h-5 w-5 accent-rose-600" />
              Send me a daily reminder
            </label>
            <FieldError field={fields.reminder} />
          </div>
          <div className="grid gap-1.5">
            <label htmlFor={fields.hour.id} className="text-sm font-semibold">
              At
            </label>
            <select
              {...getSelectProps(fields.hour, { ariaDescribedBy: "reminder-zone" })}
              className="min-h-12 rounded-2xl border border-line bg-white px-4 text-base aria-[invalid]:border-danger"
            >
              {Array.from({ length: 24 }, (_, hour) => (
                <option key={hour} value={hour}>
                  {hourLabel(hour)}
                </option>
              ))}
            </select>
            <FieldError field={fields.hour} />
            <span id="reminder-zone" className="text-sm text-muted">
              Your time zone: {timeZone.replaceAll("_", " ")}
            </span>
          </div>
          <button type="submit" className="btn-primary w-full sm:w-full">
            Save Reminder
          </button>
          {saved && lastResult?.status !== "error" ? (
            <p className="flex items-center justify-center gap-2 text-sm font-semibold text-sage" role="status" data-testid="reminder-status">
              <CheckIcon /> {reminder.on ? `Saved: every day at ${hourLabel(reminder.hour)}` : "Saved: reminders are off"}
            </p>
          ) : null}
        </Form>
      </section>

      {goals.length ? (
        <section className="card mt-8 p-5 sm:p-7" aria-labelledby="goals-title">
          <h2 id="goals-title" className="text-xl font-semibold">
            Your Goals
          </h2>
          <p className="mt-1 text-sm text-muted">Explore another focus any time: each starts with a few quick questions.</p>
          <ul className="mt-5 grid gap-3">
            {goals.map((goal) => (
              <li key={goal.href}>
                <Link
                  to={goal.href}
                  className="flex items-center justify-between gap-4 rounded-2xl border border-line bg-white px-4 py-3.5 transition-colors hover:border-rose-200 hover:bg-rose-50"
                >
                  <span>
                    <span className="block font-semibold">{goal.label}</span>
                    {goal.description ? <span className="mt-0.5 block text-sm text-muted">{goal.description}</span> : null}
                  </span>
                  <ArrowRightIcon className="h-5 w-5 shrink-0 text-rose-700" />
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <div className="mt-6 grid gap-3 sm:grid-cols-2">
        <Form method="post" action="/logout" className="grid">
          <button type="submit" className="btn-secondary">
            Log Out
          </button>
        </Form>
        <Link to="/home" className="btn-secondary">
          Back to Home
        </Link>
      </div>
    </div>
  );
}
