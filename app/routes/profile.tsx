/**
 * /profile (signed in, else /login): who is signed in, what they pay for (one 'Subscription
 * Details' card per plan they have), and the way to manage each (the billing portal,
 * /billing/portal, opens in a new tab), upgrade, or log out.
 */
import { type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { initials } from "~/auth/display";
import { requireUser } from "~/auth/guards.server";
import { entitlementsOf, NOT_SUBSCRIBED } from "~/billing/entitlements.server";
import { getPlan } from "~/content/content.server";
import { CheckIcon } from "~/components/ui/icons";
import { subscriptionDetails } from "~/members/profile";
import { seo } from "~/utils/seo";
import { logger } from "~/utils/logger.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Profile · Glow Coach", description: "Your account and subscription details.", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const entitlements = await entitlementsOf(user.id).catch((error) => {
    // The spec: a subscription check error on the profile is logged only.
    logger.error({ err: error }, "[profile] subscription check failed");
    return [];
  });
  const paid = entitlements.filter((e) => e.subscribed);
  const cards = paid.length
    ? await Promise.all(
        paid.map(async (e) => ({ id: e.id, routinePlan: (await getPlan(e.routinePlanId))?.name ?? null, ...subscriptionDetails(e, user.timeZone) })),
      )
    : [{ id: null, routinePlan: null, ...subscriptionDetails(NOT_SUBSCRIBED, user.timeZone) }];
  return { email: user.email, initial: initials(user.email).slice(0, 1), cards };
}

function RefreshIcon({ spinning }: { spinning: boolean }) {
  return (
    <svg viewBox="0 0 24 24" className={`h-4 w-4 ${spinning ? "animate-spin" : ""}`} fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d="M20 12a8 8 0 1 1-2.3-5.6M20 4v5h-5" />
    </svg>
  );
}

export default function Profile() {
  const { email, initial, cards } = useLoaderData<typeof loader>();
  const refreshing = useNavigation().state === "loading";

  return (
    <div className="mx-auto w-full max-w-xl px-5 pb-16 pt-8 sm:pt-12">
      <div className="flex flex-col items-center text-center">
        <span className="flex h-20 w-20 items-center justify-center rounded-full bg-rose-600 font-display text-3xl font-semibold text-white shadow-soft" aria-hidden="true">
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
                <button type="submit" className="inline-flex items-center gap-1.5 rounded-full border border-line px-3 py-1.5 text-sm font-semibold text-muted hover:border-rose-200 hover:text-rose-700" aria-label="Refresh subscription details">
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
              <form method="post" action="/billing/portal" target="_blank">
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
        </section>
      ))}

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
