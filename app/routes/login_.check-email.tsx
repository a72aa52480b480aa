/**
 * 'Check Your Email!' after a sign-in link is sent, or after signing up (then the e-mail
 * confirms the address and finishes the account), with the code from the e-mail as a way to
 * sign in on a device where the link doesn't open.
 */
import { getFormProps, useForm } from "@conform-to/react";
import type { FormInput } from "~/utils/form-types";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { formPageHeaders } from "~/utils/route-headers";
import { CodeForm } from "~/auth/forms.server";
import { requireAnonymous } from "~/auth/guards.server";
import { pendingEmail, signInWithCode } from "~/auth/login.server";
import { CheckEmailSteps } from "~/components/check-email-steps";
import { AuthCard, FormAlert, TextField } from "~/components/ui/form";
import { parseForm, replyRefused } from "~/utils/form.server";
import { isRefusal } from "~/utils/outcome";
import { goTo } from "~/utils/responses.server";
import { seo } from "~/utils/seo";

export const meta: MetaFunction = (args) =>
  seo(args, { title: "Check your email · Glow Coach", description: "Open the link or type the code we sent you to sign in.", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  const pending = await pendingEmail(request.headers.get("Cookie"));
  if (!pending) throw redirect("/login");
  return pending;
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireAnonymous(request);
  const { submission, status } = await parseForm(request, CodeForm);
  if (submission.status !== "success") return data(submission.reply(), { status });
  const outcome = await signInWithCode({ cookieHeader: request.headers.get("Cookie"), code: submission.value.code, clientIp: context.clientIp });
  return isRefusal(outcome) ? replyRefused(submission, outcome) : goTo(outcome);
}

export default function CheckEmail() {
  const { email, purpose } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm<FormInput<typeof CodeForm>>({ lastResult });
  const busy = useNavigation().state === "submitting";
  return (
    <AuthCard>
      <h1 className="text-center text-3xl font-semibold">Check Your Email!</h1>
      {purpose === "registration" ? (
        <p className="mt-2 text-center text-muted">
          To finish creating your account, open the link we sent to <strong className="text-ink">{email}</strong>. Until then, nothing is saved and nobody can
          sign in with your password.
        </p>
      ) : (
        <p className="mt-2 text-center text-muted">
          We sent a sign-in link to <strong className="text-ink">{email}</strong>.
        </p>
      )}
      <CheckEmailSteps />

      <Form method="post" className="mt-8 grid gap-3 border-t border-line pt-6" {...getFormProps(form)}>
        <TextField
          label="Opening the e-mail on another device? Enter the code from it"
          field={fields.code}
          autoComplete="one-time-code"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={9}
          placeholder="ABC123"
          className="min-h-12 rounded-2xl border border-line bg-white px-4 text-center font-mono text-xl tracking-[0.3em] uppercase"
        />
        <FormAlert errors={form.errors} id={form.errorId} />
        <button type="submit" className="btn-secondary w-full" disabled={busy}>
          {busy ? "Checking..." : "Sign in with code"}
        </button>
      </Form>

      {purpose === "registration" ? (
        // A new sign-in link would replace the confirmation, and its password with it.
        <p className="mt-4 text-center text-sm text-muted">
          Didn't get it? Check your spam folder, or{" "}
          <Link to="/registration" className="font-semibold text-rose-700 underline-offset-4 hover:underline">
            sign up again
          </Link>
          .
        </p>
      ) : (
        <Form method="post" action="/login" className="mt-4 text-center">
          <input type="hidden" name="email" value={email} />
          <p className="text-sm text-muted">
            Didn't get it?{" "}
            <button type="submit" className="font-semibold text-rose-700 underline-offset-4 hover:underline">
              Send a new link
            </button>
          </p>
        </Form>
      )}
      <div className="mt-6 text-center">
        <Link to="/" className="btn-primary w-full">
          Back to Home
        </Link>
      </div>
    </AuthCard>
  );
}
export const headers = formPageHeaders;
