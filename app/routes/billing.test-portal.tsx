/**
 * /billing/test-portal?entitlement=…: the local stand-in for Stripe's customer portal (no
 * STRIPE_SECRET_KEY). Shows one of the member's subscriptions, links to the switch page for
 * the offer's other plan (monthly ↔ annual), and cancels it at the end of the paid period (or
 * resumes it).
 */
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/auth/guards.server";
import { AuthCard, FormAlert } from "~/components/ui/form";
import { displayPrice } from "~/billing/catalogue";
import { PageId, TestPortalForm } from "~/payments/forms.server";
import { changeSubscriptionLocally, testPortalView } from "~/payments/portal.server";
import { localTestPayments } from "~/payments/stripe.server";
import { parseForm } from "~/utils/form.server";
import { formErrorsOf } from "~/utils/form-errors";
import { notFound } from "~/utils/http.server";
import { goTo } from "~/utils/responses.server";
import { formPageHeaders } from "~/utils/route-headers";
import { TestModeBadge } from "~/payments/components/test-mode-badge";

export const headers = formPageHeaders;

export const meta: MetaFunction = () => [{ title: "Manage subscription (test) · Glow Coach" }, { name: "robots", content: "noindex" }];

const idOf = (value: unknown) => PageId.safeParse(value).data ?? null;

export async function loader({ request }: LoaderFunctionArgs) {
  if (!localTestPayments()) throw notFound(request);
  const user = await requireUser(request);
  const url = new URL(request.url);
  const view = await testPortalView(user.id, idOf(url.searchParams.get("entitlement")));
  if (!view) throw redirect("/profile");
  const suffix = (tier: string) => (tier === "annual" ? "/year" : "/month");
  return data({
    entitlementId: view.entitlement.id,
    planName: view.entitlement.planName,
    priceText: view.entitlement.priceText && view.entitlement.tier ? `${view.entitlement.priceText}${suffix(view.entitlement.tier)}` : null,
    currentPeriodEnd: view.entitlement.currentPeriodEnd,
    cancelAtPeriodEnd: view.entitlement.cancelAtPeriodEnd,
    switchTo: view.switchTo.map((plan) => ({ id: plan.id, name: plan.name, price: `${displayPrice(plan.priceMinor, plan.currency)}${suffix(plan.tier)}` })),
    suggested: idOf(url.searchParams.get("switchTo")),
  });
}

export async function action({ request }: ActionFunctionArgs) {
  if (!localTestPayments()) throw notFound(request);
  const user = await requireUser(request);
  const { submission, status } = await parseForm(request, TestPortalForm);
  if (submission.status !== "success") return data(submission.reply(), { status });
  const { entitlement, ...change } = submission.value;
  return goTo(await changeSubscriptionLocally(user.id, entitlement ?? null, change));
}

export default function TestPortal() {
  const view = useLoaderData<typeof loader>();
  const errors = formErrorsOf(useActionData<typeof action>());
  const periodEnd = view.currentPeriodEnd ? new Date(view.currentPeriodEnd).toLocaleDateString("en-US", { dateStyle: "long", timeZone: "UTC" }) : null;
  return (
    <AuthCard>
      <TestModeBadge />
      <h1 className="mt-5 text-center text-3xl font-semibold">Manage subscription</h1>
      <dl className="mt-6 grid gap-3 rounded-2xl border border-line bg-cream/60 p-5 text-sm">
        <div className="flex justify-between gap-4">
          <dt className="text-muted">Plan</dt>
          <dd className="font-semibold">{view.planName}</dd>
        </div>
        <div className="flex justify-between gap-4">
          <dt className="text-muted">Price</dt>
          <dd className="font-semibold">{view.priceText}</dd>
        </div>
        {periodEnd ? (
          <div className="flex justify-between gap-4">
            <dt className="text-muted">{view.cancelAtPeriodEnd ? "Access ends" : "Renews on"}</dt>
            <dd className="font-semibold">{periodEnd}</dd>
          </div>
        ) : null}
      </dl>
      <div className="mt-6 empty:hidden">
        <FormAlert errors={errors} />
      </div>
      {view.switchTo.length ? (
        <section aria-labelledby="switch-title" className="mt-6">
          <h2 id="switch-title" className="text-lg font-semibold">
            Change plan
          </h2>
          <p className="mt-1 text-sm text-muted">
            Your subscription moves to the new plan today; you won't pay for two. The next page shows what happens to what you paid.
          </p>
          <div className="mt-3 grid gap-3">
            {view.switchTo.map((plan) => (
              <Link
                key={plan.id}
                to={`/billing/switch?${new URLSearchParams({ entitlement: view.entitlementId, to: plan.id })}`}
                className={view.suggested === plan.id ? "btn-primary w-full" : "btn-secondary w-full"}
              >
                Switch to {plan.name} – {plan.price}
              </Link>
            ))}
          </div>
        </section>
      ) : null}
      <Form method="post" className="mt-6 grid gap-3">
        <input type="hidden" name="entitlement" value={view.entitlementId} />
        {view.cancelAtPeriodEnd ? (
          <>
            <p className="text-center text-sm text-muted">Your subscription is cancelled and won't renew. You keep access until the end of the paid period.</p>
            <button type="submit" name="intent" value="resume" className="btn-primary w-full">
              Resume subscription
            </button>
          </>
        ) : (
          <button type="submit" name="intent" value="cancel" className="btn-secondary w-full">
            Cancel at period end
          </button>
        )}
      </Form>
      <div className="mt-4 text-center">
        <Link to="/profile" className="text-sm font-medium text-muted underline underline-offset-4 hover:text-ink">
          Return to profile
        </Link>
      </div>
    </AuthCard>
  );
}
