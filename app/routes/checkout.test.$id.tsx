/**
 * /checkout/test/:id — the local test checkout, used when STRIPE_SECRET_KEY is not set.
 * Stands in for Stripe Checkout: the order, the buyer's e-mail, complete or cancel.
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { getSession } from "~/auth/guards.server";
import { AuthCard, FormAlert, TextField } from "~/components/ui/form";
import { ShieldIcon } from "~/components/ui/icons";
import { cancelLocalCheckout, completeLocalCheckout, openLocalCheckout } from "~/payments/local-checkout.server";
import { fieldsOf, readFormEntries } from "~/utils/form.server";
import { notFound } from "~/utils/http.server";
import { formPageHeaders } from "~/utils/route-headers";
import { localTestPayments } from "~/payments/stripe.server";
import { env } from "~/utils/env.server";

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
  if (view instanceof Response) throw view;
  return view;
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  if (!testCheckoutOpen()) throw notFound(request);
  const form = await readFormEntries(request);
  if (!form.ok) return data({ error: form.error, field: undefined }, { status: form.status });
  const { intent, email } = fieldsOf(form.entries);
  const id = params.id ?? "";
  const outcome =
    intent === "cancel"
      ? await cancelLocalCheckout({ id, visitorId: context.visitorId })
      : intent === "complete"
        ? await completeLocalCheckout({ id, visitorId: context.visitorId, user: (await getSession(request))?.user ?? null, email })
        : { status: 400, error: "Please use the buttons on the page.", field: undefined };
  if (!outcome) throw notFound(request);
  if (outcome instanceof Response) return outcome;
  return data({ error: outcome.error, field: outcome.field }, { status: outcome.status });
}

export default function TestCheckout() {
  const order = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "complete";
  return (
    <AuthCard>
      <p className="mx-auto flex w-fit items-center gap-2 rounded-full border border-gold/40 bg-[#fbf3e4] px-4 py-1.5 text-sm font-semibold text-[#7a5a22]">
        Test mode — no real charge
      </p>
      <h1 className="mt-5 text-center text-3xl font-semibold">Checkout</h1>
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
      <Form method="post" className="mt-6 grid gap-4" noValidate>
        {answer?.error && !answer.field ? <FormAlert>{answer.error}</FormAlert> : null}
        {order.fixedEmail ? (
          <TextField
            label="E-mail"
            name="email"
            type="email"
            value={order.fixedEmail}
            readOnly
            aria-readonly="true"
            hint="Your plan will be linked to this account."
          />
        ) : (
          <TextField
            label="E-mail"
            name="email"
            type="email"
            autoComplete="email"
            placeholder="you@example.com"
            required
            error={answer?.field === "email" ? answer.error : undefined}
            hint="We'll create your account and send your access details here."
          />
        )}
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
