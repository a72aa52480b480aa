/**
 * /payment-success?session_id=...: where checkout returns. Verifies the payment, e-mails a
 * sign-in link, and says what this browser can do now: everything (already signed in), the
 * routine just bought (an address not yet verified), or sign in by link first
 * (payment-success.server.ts).
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { CheckEmailSteps } from "~/components/check-email-steps";
import { ErrorBox } from "~/components/ui/error-box";
import { getSession } from "~/auth/guards.server";
import { AuthCard } from "~/components/ui/form";
import { CheckIcon } from "~/components/ui/icons";
import { getSiteSettings } from "~/content/content.server";
import { pixelEventOnce } from "~/analytics/conversions.server";
import { EMAIL_ERROR, VERIFICATION_ERROR } from "~/payments/messages";
import { checkPayment } from "~/payments/payment-success.server";
import { buyOneTap, type OneTapView } from "~/payments/one-tap.server";
import { parseForm } from "~/utils/form.server";
import { notFound } from "~/utils/http.server";
import { isGo, isRefusal } from "~/utils/outcome";
import { goTo } from "~/utils/responses.server";
import { formPageHeaders } from "~/utils/route-headers";

/** How often a page waiting for confirmation checks again. */
const RECHECK_SECONDS = 3;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const checkoutSessionId = new URL(request.url).searchParams.get("session_id");
  const session = await getSession(request);
  const outcome = await checkPayment({
    checkoutSessionId,
    visitorId: context.visitorId,
    clientIp: context.clientIp,
    cookieHeader: request.headers.get("Cookie"),
    browserSession: session ? { kind: session.kind, userId: session.user.id } : null,
  });
  if (isGo(outcome)) throw goTo(outcome);
  const { supportEmail } = await getSiteSettings();
  // Meta's Purchase for the pixel, on the first paid page only: never again on a reload (ADR 32).
  // "paid" means the session_id in the address is this browser's paid checkout (checkPayment).
  const purchase = outcome.state === "paid" && checkoutSessionId ? await pixelEventOnce(request, checkoutSessionId, "Purchase") : null;
  const status = outcome.state === "no-session" ? 400 : outcome.state === "unverified" ? 404 : 200;
  return data({ ...outcome, supportEmail, pixelEvents: purchase ? [purchase] : [] }, { status, headers: { "Referrer-Policy": "same-origin" } });
}

/** The one-tap offer's button: nothing but its intent (what is sold comes from the purchase). */
const OneTapForm = z.object({ intent: z.literal("one-tap", { error: "Please use the button on the page." }) });

/** The one tap (ADR 45): charged once however often it is pressed, then this page again. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { submission, status } = await parseForm(request, OneTapForm);
  if (submission.status !== "success") return data({ oneTapError: "Please use the button on the page." }, { status });
  const purchaseId = new URL(request.url).searchParams.get("session_id") ?? "";
  const outcome = await buyOneTap({ purchaseId, visitorId: context.visitorId });
  if (!outcome) throw notFound(request);
  if (isRefusal(outcome)) return data({ oneTapError: outcome.message }, { status: outcome.status });
  throw goTo(outcome);
}

export const headers = formPageHeaders;

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: "Payment · Glow Coach" },
  { name: "robots", content: "noindex" },
  // Waiting for the payment provider: check again, with or without JavaScript.
  ...(data?.state === "pending" ? [{ httpEquiv: "refresh", content: String(RECHECK_SECONDS) } as const] : []),
];

function Support({ email }: { email: string }) {
  return (
    <p className="mt-6 text-center text-sm text-muted">
      Questions about your order? Write to us at{" "}
      <a href={`mailto:${email}`} className="font-semibold text-rose-700 hover:underline">
        {email}
      </a>
      .
    </p>
  );
}

/** The success lines, naming the routine plan the purchase unlocked. */
function paidText(tier: string, routinePlan: string | null): string {
  if (tier === "single_payment") {
    return `Your ${routinePlan ? `${routinePlan} routine` : "Personalized Makeup Routine"} is now active with lifetime access! We're sending you access details via email.`;
  }
  return `Your ${routinePlan ? `${routinePlan} subscription` : "subscription"} is active. We're sending you access details via email.`;
}

/** The one further offer after a purchase, bought with one tap on the card just used (ADR 45). */
function OneTapOffer({ offer, error }: { offer: OneTapView; error: string | null }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "one-tap";
  if (offer.state === "bought") {
    return (
      <section aria-labelledby="one-tap" className="mt-7 rounded-2xl border border-[#cfe0d3] bg-[#f1f7f2] p-5 text-center">
        <h2 id="one-tap" className="text-xl font-semibold">
          {offer.productName} added
        </h2>
        <p className="mt-1 text-sm text-muted">
          {offer.testPayment
            ? `Your test payment of ${offer.price} went through (no real money moved) and we e-mailed you a receipt.`
            : `We charged ${offer.price} to the card you just used and e-mailed you a receipt.`}{" "}
          It's waiting on your home page.
        </p>
      </section>
    );
  }
  return (
    <section aria-labelledby="one-tap" className="mt-7 rounded-2xl border border-rose-200 bg-rose-50/60 p-5">
      <p className="text-center text-xs font-semibold uppercase tracking-wide text-rose-700">One-time offer</p>
      <h2 id="one-tap" className="mt-1 text-center text-2xl font-semibold">
        {offer.headline}
      </h2>
      <p className="mt-2 text-center text-sm text-muted">{offer.text}</p>
      {error ? <ErrorBox className="mt-4" title="Nothing was charged" description={error} /> : null}
      <Form method="post" className="mt-4">
        <input type="hidden" name="intent" value="one-tap" />
        <button type="submit" className="btn-primary w-full" disabled={busy} aria-busy={busy}>
          {busy ? "Processing..." : offer.buttonLabel}
        </button>
      </Form>
      <p className="mt-2 text-center text-xs text-muted">
        {offer.testPayment
          ? `A test payment of ${offer.price} on your saved test card: no real money moves. No subscription.`
          : `Charged once, ${offer.price}, to the card you just used. No subscription.`}
      </p>
    </section>
  );
}

function Spinner() {
  return <span className="mx-auto block h-10 w-10 animate-spin rounded-full border-4 border-rose-100 border-t-rose-600" aria-hidden="true" />;
}

export default function PaymentSuccess() {
  const result = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();

  if (result.state === "pending") {
    return (
      <AuthCard>
        <Spinner />
        <h1 className="mt-5 text-center text-3xl font-semibold">Processing Payment...</h1>
        <p className="mt-2 text-center text-muted">Please wait while we verify your subscription.</p>
        <p className="mt-4 text-center text-sm text-muted" role="status">
          Your payment isn't confirmed yet. This page checks again every {RECHECK_SECONDS} seconds.
        </p>
        <Support email={result.supportEmail} />
      </AuthCard>
    );
  }

  if (result.state === "canceled") {
    return (
      <AuthCard>
        <h1 className="text-center text-3xl font-semibold">Checkout cancelled</h1>
        <p className="mt-2 text-center text-muted">This checkout was cancelled, so no payment was taken. You can pick a plan again whenever you're ready.</p>
        <div className="mt-7 grid gap-3">
          <Link to={result.offerPath} className="btn-primary w-full">
            Back to the offer
          </Link>
          <Link to="/" className="btn-secondary w-full">
            Back to Home
          </Link>
        </div>
        <Support email={result.supportEmail} />
      </AuthCard>
    );
  }

  if (result.state === "no-session" || result.state === "unverified") {
    return (
      <AuthCard>
        {result.state === "unverified" ? <ErrorBox title={VERIFICATION_ERROR.title} description={VERIFICATION_ERROR.description} /> : null}
        <h1 className="mt-5 text-center text-3xl font-semibold">{result.state === "unverified" ? "We couldn't verify this payment" : "No payment to check"}</h1>
        <p className="mt-2 text-center text-muted">
          {result.state === "unverified"
            ? "Open this page in the browser you paid in, or sign in with the e-mail you used at checkout."
            : "This page shows the result of a checkout. Choose a plan to get started."}
        </p>
        <div className="mt-7 grid gap-3">
          <Link to="/login" className="btn-primary w-full">
            Sign in
          </Link>
          <Link to="/" className="btn-secondary w-full">
            Back to Home
          </Link>
        </div>
        <Support email={result.supportEmail} />
      </AuthCard>
    );
  }

  return (
    <AuthCard>
      <span className="mx-auto flex h-14 w-14 items-center justify-center rounded-full bg-[#e5efe7] text-sage">
        <CheckIcon className="h-7 w-7" />
      </span>
      <h1 className="mt-4 text-center text-3xl font-semibold">Payment Successful!</h1>
      <p className="mt-2 text-center text-muted">{paidText(result.tier, result.routinePlan)}</p>
      {result.emailStatus === "sent" ? (
        <section aria-labelledby="check-email" className="mt-7 rounded-2xl border border-line bg-cream/60 p-5">
          <h2 id="check-email" className="text-center text-2xl font-semibold">
            Check Your Email!
          </h2>
          <p className="mt-1 text-center text-sm text-muted">
            {result.access === "signed-in" ? (
              <>
                You're signed in on this device. To open your plan on another device, use the link we sent to{" "}
                <strong className="text-ink">{result.email}</strong>.
              </>
            ) : result.access === "purchase" ? (
              <>
                You can start your routine on this device now. To see your profile and use other devices, confirm{" "}
                <strong className="text-ink">{result.email}</strong> with the link we sent there.
              </>
            ) : (
              <>
                <strong className="text-ink">{result.email}</strong> already has an account, so your plan was added to it. Sign in with the link we sent there,
                or type the code from that e-mail here.
              </>
            )}
          </p>
          <CheckEmailSteps />
        </section>
      ) : result.emailStatus === "failed" ? (
        <ErrorBox className="mt-6" title={EMAIL_ERROR.title} description={EMAIL_ERROR.description} />
      ) : null}
      {result.oneTap ? (
        <OneTapOffer offer={result.oneTap} error={actionData?.oneTapError ?? null} />
      ) : actionData?.oneTapError ? (
        <ErrorBox className="mt-6" title="Nothing was charged" description={actionData.oneTapError} />
      ) : null}
      <div className="mt-7 grid gap-3">
        {result.access === "sign-in-by-link" ? (
          <Link to="/login/check-email" className="btn-primary w-full">
            Sign in with the code
          </Link>
        ) : null}
        <Link to="/home" className={result.access === "sign-in-by-link" ? "btn-secondary w-full" : "btn-primary w-full"}>
          Go to My Plan
        </Link>
      </div>
      <Support email={result.supportEmail} />
    </AuthCard>
  );
}
