/**
 * /checkout/test/:id — the local test checkout, used when STRIPE_SECRET_KEY is not set.
 * Stands in for Stripe Checkout: the order, the buyer's e-mail, complete or cancel.
 */
import { getFormProps, useForm } from "@conform-to/react";
import type { FormInput } from "~/utils/form-types";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { getSession } from "~/auth/guards.server";
import { pixelEventOnce } from "~/analytics/conversions.server";
import { AuthCard, FormAlert, TextField } from "~/components/ui/form";
import { ShieldIcon } from "~/components/ui/icons";
import { cancelLocalCheckout, completeLocalCheckout, openLocalCheckout } from "~/payments/local-checkout.server";
import { parseForm, replyRefused } from "~/utils/form.server";
import { isGo, isRefusal } from "~/utils/outcome";
import { goTo } from "~/utils/responses.server";
import { z } from "zod";
import { notFound } from "~/utils/http.server";
import { formPageHeaders } from "~/utils/route-headers";
import { localTestPayments } from "~/payments/stripe.server";
import { env } from "~/utils/env.server";
import { TestModeBadge } from "~/payments/components/test-mode-badge";
import { TEST_CARDS } from "~/payments/one-tap";

export const headers = formPageHeaders;

export const meta: MetaFunction = () => [{ title: "Test checkout · Glow Coach" }, { name: "robots", content: "noindex" }];

/** Only on a developer's machine without Stripe, and only while plans are on sale. */
function testCheckoutOpen(): boolean {
  return localTestPayments() && !env.paymentsOff;
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  if (!testCheckoutOpen()) throw notFound(request);
  const view = await openLocalCheckout(params.id ?? "", context.visitorId, (await getSession(request))?.user ?? null);
  if (!view) throw notFound(request);
  if (isGo(view)) throw goTo(view);
  // The checkout's InitiateCheckout for the pixel: this page stands where Stripe Checkout would (ADR 32).
  const started = await pixelEventOnce(request, view.id, "InitiateCheckout");
  return { ...view, pixelEvents: started ? [started] : [] };
}

const CheckoutForm = z.object({
  intent: z.enum(["complete", "cancel"], { error: "Please use the buttons on the page." }),
  // Required only when the checkout has no address yet: the domain decides (a signed-in buyer's is fixed).
  email: z.string().optional(),
  // The saved test card's answer to the one-tap offer's charge (ADR 45).
  testCard: z.enum(TEST_CARDS).optional(),
});

export async function action({ request, params, context }: ActionFunctionArgs) {
  if (!testCheckoutOpen()) throw notFound(request);
  const { submission, status } = await parseForm(request, CheckoutForm);
  if (submission.status !== "success") return data(submission.reply(), { status });
  const { intent, email, testCard } = submission.value;
  const id = params.id ?? "";
  const outcome =
    intent === "cancel"
      ? await cancelLocalCheckout({ id, visitorId: context.visitorId })
      : await completeLocalCheckout({ id, visitorId: context.visitorId, user: (await getSession(request))?.user ?? null, email, testCard });
  if (!outcome) throw notFound(request);
  return isRefusal(outcome) ? replyRefused(submission, outcome) : goTo(outcome);
}

export default function TestCheckout() {
  const order = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm<FormInput<typeof CheckoutForm>>({ lastResult, defaultValue: { email: order.fixedEmail ?? undefined } });
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "complete";
  return (
    <AuthCard>
      <TestModeBadge />
      <h1 className="mt-5 text-center text-3xl font-semibold">{order.authenticating ? "Confirm your payment" : "Checkout"}</h1>
      {order.authenticating ? <p className="mt-2 text-center text-muted">Your bank asks you to confirm this payment. Nothing has been charged yet.</p> : null}
      <section aria-label="Your order" className="mt-6 rounded-2xl border border-line bg-cream/60 p-5">
        <div className="flex items-start justify-between gap-4">
          <div>
            <p className="font-semibold">{order.planName}</p>
            <p className="mt-1 text-sm text-muted">{order.billing}</p>
          </div>
          <p className="font-display text-2xl font-semibold">{order.price}</p>
        </div>
        <p className="mt-4 flex justify-between border-t border-line pt-3 font-semibold">
          <span>Total due today</span>
          <span>{order.price}</span>
        </p>
      </section>
      <Form method="post" className="mt-6 grid gap-4" {...getFormProps(form)}>
        <FormAlert errors={form.errors} id={form.errorId} />
        {order.fixedEmail ? (
          <TextField label="E-mail" field={fields.email} type="email" readOnly aria-readonly="true" hint="Your plan will be linked to this account." />
        ) : (
          <TextField
            label="E-mail"
            field={fields.email}
            type="email"
            autoComplete="email"
            placeholder="you@example.com"
            required
            hint="We'll create your account and send your access details here."
          />
        )}
        {order.savesCard ? (
          <fieldset className="grid gap-2 rounded-2xl border border-line px-4 py-3 text-sm">
            <legend className="px-1 font-semibold">Saved test card, for the one-tap offer</legend>
            <label className="flex items-center gap-2">
              <input type="radio" name="testCard" value="approves" defaultChecked className="accent-rose-600" /> Approves one-tap payments
            </label>
            <label className="flex items-center gap-2">
              <input type="radio" name="testCard" value="authenticate" className="accent-rose-600" /> Asks for authentication (like a bank's 3-D Secure)
            </label>
          </fieldset>
        ) : null}
        <div className="rounded-2xl border border-dashed border-line px-4 py-3 text-sm text-muted">
          No card needed: this is the local test checkout. With Stripe configured, this step is Stripe Checkout.
        </div>
        <button type="submit" name="intent" value="complete" className="btn-primary w-full" disabled={busy}>
          {busy ? "Processing..." : "Complete test payment"}
        </button>
        <button type="submit" name="intent" value="cancel" formNoValidate className="btn-secondary w-full">
          Cancel
        </button>
      </Form>
      <p className="mt-5 flex items-center justify-center gap-1.5 text-center text-sm text-muted">
        <ShieldIcon className="h-4 w-4 text-sage" /> Nothing is charged in test mode.
      </p>
    </AuthCard>
  );
}
