/** /registration 'Create Your Account'. */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useNavigate, useNavigation } from "@remix-run/react";
import { formPageHeaders } from "~/utils/route-headers";
import { requireAnonymous } from "~/auth/guards.server";
import { HONEYPOT_FIELD } from "~/auth/honeypot";
import { register } from "~/auth/registration.server";
import { ArrowLeftIcon } from "~/components/ui/icons";
import { AuthCard, FormAlert, Honeypot, TextField } from "~/components/ui/form";
import { fieldsOf, readFormEntries } from "~/utils/form.server";
import { seo } from "~/utils/seo";

export const meta: MetaFunction = (args) =>
  seo(args, { title: "Create your account · Glow Coach", description: "Create your account to access your personalised plan." });

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireAnonymous(request);
  const form = await readFormEntries(request);
  if (!form.ok) return data({ errors: { form: form.error }, values: {} as Record<string, string> }, { status: form.status });
  const fields = fieldsOf(form.entries);
  // A filled honeypot gets the same form back with nothing created.
  if (fields[HONEYPOT_FIELD]) return data({ errors: { form: "Please try again." }, values: {} as Record<string, string> }, { status: 400 });
  const outcome = await register(request, fields, context.clientIp);
  if (outcome instanceof Response) return outcome;
  const values = { name: fields.name ?? "", email: fields.email ?? "" };
  return data({ errors: outcome.errors, values }, { status: outcome.status, headers: outcome.headers });
}

export default function Registration() {
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const busy = navigation.state === "submitting";
  const errors: Record<string, string | undefined> = result?.errors ?? {};
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
      <Form method="post" className="mt-7 grid gap-4" noValidate>
        <Honeypot />
        <TextField label="Full Name" name="name" autoComplete="name" required defaultValue={result?.values.name} error={errors.name} />
        <TextField label="Email" name="email" type="email" autoComplete="email" required defaultValue={result?.values.email} error={errors.email} />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          hint="At least 8 characters."
          error={errors.password}
        />
        <TextField label="Confirm Password" name="confirmPassword" type="password" autoComplete="new-password" required error={errors.confirmPassword} />
        <FormAlert>{errors.form}</FormAlert>
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
