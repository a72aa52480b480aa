/** /registration 'Create Your Account'. */
import { getFormProps, useForm } from "@conform-to/react";
import type { FormInput } from "~/utils/form-types";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useNavigate, useNavigation } from "@remix-run/react";
import { formPageHeaders } from "~/utils/route-headers";
import { RegistrationForm } from "~/auth/forms.server";
import { requireAnonymous } from "~/auth/guards.server";
import { HONEYPOT_FIELD } from "~/components/ui/honeypot";
import { register } from "~/auth/registration.server";
import { ArrowLeftIcon } from "~/components/ui/icons";
import { AuthCard, FormAlert, Honeypot, TextField } from "~/components/ui/form";
import { parseForm, replyRefused } from "~/utils/form.server";
import { isRefusal } from "~/utils/outcome";
import { goTo } from "~/utils/responses.server";
import { seo } from "~/utils/seo";

export const meta: MetaFunction = (args) =>
  seo(args, { title: "Create your account · Glow Coach", description: "Create your account to access your personalised plan." });

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  return null;
}

// Passwords are never sent back into the page.
const hideFields = ["password", "confirmPassword"];

export async function action({ request, context }: ActionFunctionArgs) {
  await requireAnonymous(request);
  const { submission, status } = await parseForm(request, RegistrationForm);
  if (submission.status !== "success") return data(submission.reply({ hideFields }), { status });
  // A filled honeypot gets the same form back with nothing created.
  if (submission.value[HONEYPOT_FIELD]) return data(submission.reply({ formErrors: ["Please try again."], hideFields }), { status: 400 });
  const { name, email, password } = submission.value;
  const outcome = await register({ name, email, password, clientIp: context.clientIp, cookieHeader: request.headers.get("Cookie") });
  return isRefusal(outcome) ? replyRefused(submission, outcome, { hideFields }) : goTo(outcome);
}

export default function Registration() {
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm<FormInput<typeof RegistrationForm>>({ lastResult });
  const navigation = useNavigation();
  const navigate = useNavigate();
  const busy = navigation.state === "submitting";
  return (
    <AuthCard>
      {/* Back goes one step back in history (a link to / without JavaScript). */}
      <a
        href="/"
        onClick={(event) => {
          event.preventDefault();
          navigate(-1);
        }}
        className="-ml-2 inline-flex items-center gap-1.5 rounded-full px-2 py-1 text-sm font-medium text-muted hover:text-ink"
      >
        <ArrowLeftIcon /> Back
      </a>
      <h1 className="mt-3 text-center text-3xl font-semibold">Create Your Account</h1>
      <p className="mt-2 text-center text-muted">Save your plan and follow your routine day by day. We'll e-mail you a link to confirm your address.</p>
      <Form method="post" className="mt-7 grid gap-4" {...getFormProps(form)}>
        <Honeypot />
        <TextField label="Full Name" field={fields.name} autoComplete="name" required />
        <TextField label="Email" field={fields.email} type="email" autoComplete="email" required />
        <TextField label="Password" field={fields.password} type="password" autoComplete="new-password" required minLength={8} hint="At least 8 characters." />
        <TextField label="Confirm Password" field={fields.confirmPassword} type="password" autoComplete="new-password" required />
        <FormAlert errors={form.errors} id={form.errorId} />
        <button type="submit" className="btn-primary w-full" disabled={busy}>
          {busy ? "Creating Account..." : "Create Account"}
        </button>
      </Form>
      <p className="mt-5 text-center text-sm text-muted">
        By creating an account you agree to our{" "}
        <Link to="/terms-of-service" className="font-medium text-rose-700 hover:underline">
          Terms of Service
        </Link>{" "}
        and{" "}
        <Link to="/privacy-policy" className="font-medium text-rose-700 hover:underline">
          Privacy Policy
        </Link>
        .
      </p>
      <p className="mt-4 text-center text-sm text-muted">
        Already have an account?{" "}
        <Link to="/login" className="font-semibold text-rose-700 hover:underline">
          Sign in
        </Link>
      </p>
    </AuthCard>
  );
}
export const headers = formPageHeaders;
