/**
 * /billing/refund?entitlement=…: the money-back guarantee, claimed (ADR 33). The billing page
 * (/profile) links here while a purchase is inside the refund window its plan promises; this
 * page says what will be refunded and that the access ends, and its one button (a plain form,
 * no JavaScript needed) makes the refund. Someone else's purchase is not found (404); outside
 * the window (403) or already refunded (409), the page says so and nothing changes.
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/auth/guards.server";
import { longDate } from "~/billing/refund-policy";
import { AuthCard, FormAlert } from "~/components/ui/form";
import { PageId, RefundForm } from "~/payments/forms.server";
import { refundQuote, requestRefund } from "~/payments/refund.server";
import { parseForm, replyRefused } from "~/utils/form.server";
import { formErrorsOf } from "~/utils/form-errors";
import { isRefusal } from "~/utils/outcome";
import { goTo } from "~/utils/responses.server";
import { formPageHeaders } from "~/utils/route-headers";
import { TestModeBadge } from "~/payments/components/test-mode-badge";

export const headers = formPageHeaders;

export const meta: MetaFunction = () => [{ title: "Request a refund · Glow Coach" }, { name: "robots", content: "noindex" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const id = PageId.safeParse(new URL(request.url).searchParams.get("entitlement"));
  if (!id.success) return data({ quote: null, problem: "Please use the Request a refund link on your profile." }, { status: 400 });
  const quote = await refundQuote(user.id, id.data);
  if (isRefusal(quote)) return data({ quote: null, problem: quote.message }, { status: quote.status });
  return { quote: { ...quote, endsOn: longDate(quote.endsAt, user.timeZone), endsAt: undefined }, problem: null };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const { submission, status } = await parseForm(request, RefundForm);
  if (submission.status !== "success") return data(submission.reply(), { status });
  const outcome = await requestRefund(user, submission.value.entitlement);
  return isRefusal(outcome) ? replyRefused(submission, outcome) : goTo(outcome);
}

export default function RefundPage() {
  const { quote, problem } = useLoaderData<typeof loader>();
  const errors = formErrorsOf(useActionData<typeof action>());
  return (
    <AuthCard>
      {quote?.testMode ? <TestModeBadge /> : null}
      <h1 className="mt-5 text-center text-3xl font-semibold">Request a refund</h1>
      {/* A refused request says why here; the page's own problem (outside the window, already refunded) too. */}
      <div className="mt-6 empty:hidden">
        <FormAlert errors={errors ?? (problem ? [problem] : undefined)} />
      </div>
      {quote ? (
        <>
          <p className="mt-4 text-center text-muted">Our money-back guarantee: a full refund until {quote.endsOn}, no questions asked.</p>
          <dl className="mt-6 grid gap-3 rounded-2xl border border-line bg-cream/60 p-5 text-sm">
            <div className="flex justify-between gap-4">
              <dt className="text-muted">Plan</dt>
              <dd className="text-right font-semibold">{quote.planName}</dd>
            </div>
            <div className="flex justify-between gap-4">
              <dt className="text-muted">Refund to your card</dt>
              <dd className="text-right font-semibold">{quote.amount}</dd>
            </div>
          </dl>
          <p className="mt-5 text-sm text-muted">
            Your access to {quote.productName} ends as soon as the refund is made.
            {quote.recurring ? " Your subscription is cancelled with it, so you won't be charged again." : ""} Refunds take 5-10 business days to appear on your
            statement.
          </p>
          <Form method="post" className="mt-6 grid gap-3">
            <input type="hidden" name="entitlement" value={quote.entitlementId} />
            <button type="submit" className="btn-primary w-full">
              Refund {quote.amount} and end my access
            </button>
          </Form>
        </>
      ) : null}
      <div className="mt-4 text-center">
        <Link to="/profile" className="text-sm font-medium text-muted underline underline-offset-4 hover:text-ink">
          {quote ? "Keep my plan" : "Return to profile"}
        </Link>
      </div>
    </AuthCard>
  );
}
