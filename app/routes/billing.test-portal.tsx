/**
 * /billing/test-portal: the local stand-in for Stripe's customer portal (no STRIPE_SECRET_KEY).
 * Shows the member's plan and cancels it at the end of the paid period (or resumes it).
 */
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/auth/guards.server";
import { getSubscriptionView } from "~/billing/subscriptions.server";
import { AuthCard } from "~/components/ui/form";
import { cancelAtPeriodEndLocally } from "~/payments/portal.server";
import { localTestPayments } from "~/payments/stripe.server";
import { fieldsOf, readFormEntries } from "~/utils/form.server";
import { notFound } from "~/utils/http.server";
import { toastHeader } from "~/utils/toast.server";
import { formPageHeaders } from "~/utils/route-headers";

export const headers = formPageHeaders;

export const meta: MetaFunction = () => [{ title: "Manage subscription (test) · Glow Coach" }, { name: "robots", content: "noindex" }];

export async function loader({ request }: LoaderFunctionArgs) {
  if (!localTestPayments()) throw notFound(request);
  const user = await requireUser(request);
  const view = await getSubscriptionView(user.id);
  if (!view.recurring) throw redirect("/profile");
  return view;
}

export async function action({ request }: ActionFunctionArgs) {
  if (!localTestPayments()) throw notFound(request);
  const user = await requireUser(request);
  const form = await readFormEntries(request);
  if (!form.ok) return data({ error: form.error }, { status: form.status });
  const { intent } = fieldsOf(form.entries);
  if (intent !== "cancel" && intent !== "resume") return data({ error: "Please use the buttons on the page." }, { status: 400 });
  const changed = await cancelAtPeriodEndLocally(user.id, intent === "cancel");
  if (!changed) return redirect("/profile", 303);
  const toast = intent === "cancel" ? { title: "Subscription cancelled", description: "You keep full access until the end of your paid period." } : { title: "Subscription resumed", description: "Your plan will renew as usual." };
  return redirect("/billing/test-portal", { status: 303, headers: { "Set-Cookie": await toastHeader(toast) } });
}

export default function TestPortal() {
  const view = useLoaderData<typeof loader>();
  const periodEnd = view.currentPeriodEnd ? new Date(view.currentPeriodEnd).toLocaleDateString("en-US", { dateStyle: "long", timeZone: "UTC" }) : null;
  return (
    <AuthCard>
      <p className="mx-auto flex w-fit items-center gap-2 rounded-full border border-gold/40 bg-[#fbf3e4] px-4 py-1.5 text-sm font-semibold text-[#7a5a22]">Test mode — no real charge</p>
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
      <Form method="post" className="mt-6 grid gap-3">
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
