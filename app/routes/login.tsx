/**
 * /login 'Access Your Plan': e-mail link (default), password for accounts that have one,
 * and Google when configured. Signed-in members go to /home.
 */
import { getFormProps, useForm } from "@conform-to/react";
import type { FormInput } from "~/utils/form-types";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { formPageHeaders } from "~/utils/route-headers";
import { GoogleButton } from "~/auth/google-button";
import { LoginForm } from "~/auth/forms.server";
import { getSession, requireAnonymous } from "~/auth/guards.server";
import { sendSignInLink, signInWithPassword } from "~/auth/login.server";
import { HONEYPOT_FIELD } from "~/components/ui/honeypot";
import { safeRedirect } from "~/auth/redirect";
import { AuthCard, FormAlert, Honeypot, TextField } from "~/components/ui/form";
import { env } from "~/utils/env.server";
import { parseForm, replyRefused } from "~/utils/form.server";
import { isRefusal } from "~/utils/outcome";
import { goTo } from "~/utils/responses.server";
import { seo } from "~/utils/seo";

export const meta: MetaFunction = (args) => seo(args, { title: "Sign in · Glow Coach", description: "Access your personalised skincare plan." });

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  const url = new URL(request.url);
  const session = await getSession(request);
  return {
    // A browser that just paid for an address nobody has verified yet: confirming it opens the rest.
    purchaseEmail: session?.kind === "purchase" ? session.user.email : null,
    google: env.google !== null,
    redirectTo: safeRedirect(url.searchParams.get("redirectTo")),
    withPassword: url.searchParams.get("method") === "password",
  };
}

// The address comes back into the form (never the password), so a reload without JavaScript keeps it.
const hideFields = ["password"];

export async function action({ request, context }: ActionFunctionArgs) {
  await requireAnonymous(request);
  const { submission, status } = await parseForm(request, LoginForm);
  if (submission.status !== "success") return data(submission.reply({ hideFields }), { status });
  const form = submission.value;
  const outcome =
    form.intent === "password"
      ? await signInWithPassword({
          email: form.email,
          password: form.password ?? "",
          redirectTo: form.redirectTo,
          clientIp: context.clientIp,
          visitorId: context.visitorId,
        })
      : await sendSignInLink({
          cookieHeader: request.headers.get("Cookie"),
          email: form.email,
          redirectTo: form.redirectTo,
          honeypotFilled: Boolean(form[HONEYPOT_FIELD]),
          clientIp: context.clientIp,
        });
  return isRefusal(outcome) ? replyRefused(submission, outcome, { hideFields }) : goTo(outcome);
}

export default function Login() {
  const { google, redirectTo, withPassword, purchaseEmail } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm<FormInput<typeof LoginForm>>({ lastResult, defaultValue: { email: purchaseEmail ?? undefined } });
  const navigation = useNavigation();
  const [params] = useSearchParams();
  const busy = navigation.state === "submitting";
  const otherMethod = new URLSearchParams(params);
  if (withPassword) otherMethod.delete("method");
  else otherMethod.set("method", "password");

  return (
    <AuthCard>
      <h1 className="text-center text-3xl font-semibold">Access Your Plan</h1>
      <p className="mt-2 text-center text-muted">
        {withPassword ? "Sign in with your e-mail and password." : "Enter your e-mail and we'll send you a link to sign in. No password needed."}
      </p>
      {purchaseEmail ? (
        <p role="status" className="mt-5 rounded-2xl border border-line bg-cream/60 px-4 py-3 text-center text-sm">
          You can use the routine you just bought on this device. To open your profile and the rest of your account, confirm <strong>{purchaseEmail}</strong>{" "}
          with a sign-in link.
        </p>
      ) : null}

      <Form method="post" className="send-link-form mt-7 grid gap-4" {...getFormProps(form)}>
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <input type="hidden" name="intent" value={withPassword ? "password" : "email-link"} />
        <Honeypot />
        <TextField label="E-mail" field={fields.email} type="email" autoComplete="email" inputMode="email" placeholder="you@example.com" required />
        {withPassword ? <TextField label="Password" field={fields.password} type="password" autoComplete="current-password" required /> : null}
        <FormAlert errors={form.errors} id={form.errorId} />
        {/* 'Send Magic Link' appears once an e-mail is typed (CSS :placeholder-shown, so also without JavaScript). */}
        <button type="submit" className={`btn-primary w-full ${withPassword ? "" : "send-link-button"}`} disabled={busy}>
          {withPassword ? (busy ? "Signing in..." : "Sign in") : busy ? "Sending..." : "Send Magic Link"}
        </button>
      </Form>

      <div className="mt-4 text-center">
        <Link to={`/login?${otherMethod}`} className="text-sm font-semibold text-rose-700 underline-offset-4 hover:underline">
          {withPassword ? "Use a magic link instead" : "Use a password instead"}
        </Link>
      </div>

      {google ? (
        <>
          <div className="my-6 flex items-center gap-3 text-sm text-muted" aria-hidden="true">
            <span className="h-px flex-1 bg-line" /> or <span className="h-px flex-1 bg-line" />
          </div>
          <GoogleButton redirectTo={redirectTo} />
        </>
      ) : null}

      <div className="mt-8 flex flex-col items-center gap-2 text-sm">
        <p className="text-muted">
          New here?{" "}
          <Link to="/registration" className="font-semibold text-rose-700 hover:underline">
            Create an account
          </Link>
        </p>
        <Link to="/" className="font-medium text-muted hover:text-ink">
          Back to Home
        </Link>
      </div>
    </AuthCard>
  );
}
export const headers = formPageHeaders;
