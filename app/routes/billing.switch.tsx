/**
 * /billing/switch?entitlement=…&to=…: switching a subscription to its offer's other plan
 * (monthly ↔ annual), confirmed here in both modes (ADR 33). Before the member confirms, the
 * page says what happens to the money already paid: Stripe's invoice preview for exactly this
 * change in Stripe mode, the test portal's own reckoning locally. A plain form, no JavaScript
 * needed; the confirmation e-mail repeats the same lines.
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/auth/guards.server";
import { AuthCard, FormAlert } from "~/components/ui/form";
import { displayPrice } from "~/billing/catalogue";
import { PageId, SwitchForm } from "~/payments/forms.server";
import { confirmSwitch, previewSwitch } from "~/payments/portal.server";
import { parseForm, replyRefused } from "~/utils/form.server";
import { formErrorsOf } from "~/utils/form-errors";
import { isRefusal } from "~/utils/outcome";
import { goTo } from "~/utils/responses.server";
import { formPageHeaders } from "~/utils/route-headers";
import { TestModeBadge } from "~/payments/components/test-mode-badge";

export const headers = formPageHeaders;

export const meta: MetaFunction = () => [{ title: "Change plan · Glow Coach" }, { name: "robots", content: "noindex" }];

const SUFFIX = { monthly: "/month", annual: "/year", single_payment: "" } as const;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const entitlement = PageId.safeParse(url.searchParams.get("entitlement"));
  const to = PageId.safeParse(url.searchParams.get("to"));
  if (!entitlement.success || !to.success) return data({ preview: null, problem: "That plan can't be chosen here." }, { status: 400 });
  const preview = await previewSwitch(user.id, entitlement.data, to.data);
  if (isRefusal(preview)) return data({ preview: null, problem: preview.message }, { status: preview.status });
  const { toPlan } = preview;
  return {
    preview: {
      entitlementId: preview.entitlementId,
      fromPlan: preview.fromPlan,
      toPlanId: toPlan.id,
      toPlan: toPlan.name,
      toPrice: `${displayPrice(toPlan.priceMinor, toPlan.currency)}${SUFFIX[toPlan.tier]}`,
      dueNow: displayPrice(preview.proration.dueNowMinor, preview.proration.currency),
      lines: preview.lines,
      testMode: preview.testMode,
      pricedAt: preview.prorationDate,
    },
    problem: null,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const { submission, status } = await parseForm(request, SwitchForm);
  if (submission.status !== "success") return data(submission.reply(), { status });
  const { entitlement, planId, pricedAt } = submission.value;
  const outcome = await confirmSwitch(user, entitlement, planId, pricedAt);
  return isRefusal(outcome) ? replyRefused(submission, outcome) : goTo(outcome);
}

export default function SwitchPlan() {
  const { preview, problem } = useLoaderData<typeof loader>();
  const errors = formErrorsOf(useActionData<typeof action>());
  return (
    <AuthCard>
      {preview?.testMode ? <TestModeBadge className="mb-5" /> : null}
      <h1 className="text-center text-3xl font-semibold">Change plan</h1>
      <div className="mt-6 empty:hidden">
        <FormAlert errors={errors ?? (problem ? [problem] : undefined)} />
      </div>
      {preview ? (
        <>
          <dl className="mt-6 grid gap-3 rounded-2xl border border-line bg-cream/60 p-5 text-sm">
            <div className="flex justify-between gap-4">
              <dt className="text-muted">Now</dt>
              <dd className="text-right font-semibold">{preview.fromPlan}</dd>
            </div>
            <div className="flex justify-between gap-4">
              <dt className="shrink-0 text-muted">New plan</dt>
              <dd className="text-right font-semibold">
                {preview.toPlan} – {preview.toPrice}
              </dd>
            </div>
            <div className="flex justify-between gap-4">
              <dt className="text-muted">Charged to your card today</dt>
              <dd className="text-right font-semibold">{preview.dueNow}</dd>
            </div>
          </dl>
          <section aria-labelledby="money-title" className="mt-6">
            <h2 id="money-title" className="text-lg font-semibold">
              What happens to what you paid
            </h2>
            <ul className="mt-2 grid gap-2 text-sm leading-relaxed text-muted">
              {preview.lines.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          </section>
          <Form method="post" className="mt-6 grid gap-3">
            <input type="hidden" name="entitlement" value={preview.entitlementId} />
            <input type="hidden" name="planId" value={preview.toPlanId} />
            {preview.pricedAt ? <input type="hidden" name="pricedAt" value={preview.pricedAt} /> : null}
            <button type="submit" className="btn-primary w-full">
              Switch to {preview.toPlan}
            </button>
          </Form>
        </>
      ) : null}
      <div className="mt-4 text-center">
        <Link to="/profile" className="text-sm font-medium text-muted underline underline-offset-4 hover:text-ink">
          {preview ? `Keep the ${preview.fromPlan}` : "Return to profile"}
        </Link>
      </div>
    </AuthCard>
  );
}
