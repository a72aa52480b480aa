/**
 * /magic?token=...&id=...: the page an e-mailed sign-in link opens. One button signs in;
 * a link that cannot be used says why and offers a new one.
 */
import { getFormProps, useForm } from "@conform-to/react";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { formPageHeaders } from "~/utils/route-headers";
import { MagicLinkForm } from "~/auth/forms.server";
import { TOKEN_MESSAGES } from "~/auth/login-tokens.server";
import { openLink, spendLink, statusFor, type LinkView } from "~/auth/magic-link.server";
import { AuthCard, Honeypot, TextField } from "~/components/ui/form";
import { parseForm } from "~/utils/form.server";
import { isGo } from "~/utils/outcome";
import { goTo } from "~/utils/responses.server";
import { seo } from "~/utils/seo";

export const meta: MetaFunction = (args) => seo(args, { title: "Sign in · Glow Coach", description: "Finish signing in to Glow Coach.", noindex: true });

function present(view: LinkView) {
  const message = view.state === "valid" ? null : TOKEN_MESSAGES[view.state];
  return {
    state: view.state,
    email: view.email ?? null,
    purpose: view.purpose ?? "sign-in",
    returning: view.returning ?? false,
    token: view.token,
    id: view.id,
    message,
  };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const { searchParams } = new URL(request.url);
  const view = await openLink({ token: searchParams.get("token"), id: searchParams.get("id") });
  // The URL holds the token: never send it to another site as a referrer. ("same-origin",
  // not "no-referrer": with that, browsers send `Origin: null` and Remix refuses the form POST.)
  return data(present(view), { status: statusFor(view.state), headers: { "Referrer-Policy": "same-origin" } });
}

export async function action({ request }: ActionFunctionArgs) {
  const { submission, status } = await parseForm(request, MagicLinkForm);
  if (submission.status !== "success") return data(present({ state: "malformed", token: "", id: "" }), { status });
  const outcome = await spendLink({ token: submission.value.token, id: submission.value.id, cookieHeader: request.headers.get("Cookie") });
  if (isGo(outcome)) return goTo(outcome);
  return data(present(outcome), { status: statusFor(outcome.state) });
}

export default function MagicLink() {
  const opened = useLoaderData<typeof loader>();
  const used = useActionData<typeof action>();
  const view = used ?? opened;
  // 'Send a new link' posts to /login, which answers its errors there.
  const [newLinkForm, newLinkFields] = useForm<{ email: string }>({ id: "new-link", defaultValue: { email: view.email ?? undefined } });
  const busy = useNavigation().state === "submitting";

  if (!view.message) {
    const confirming = view.purpose === "registration";
    return (
      <AuthCard>
        <h1 className="text-center text-3xl font-semibold">{confirming ? "Confirm your e-mail" : view.returning ? "Welcome back" : "Welcome"}</h1>
        <p className="mt-2 text-center text-muted">
          {confirming
            ? `Press the button to confirm ${view.email} is yours, finish creating your account and sign in on this device.`
            : "Press the button to finish signing in on this device."}
        </p>
        <Form method="post" className="mt-8">
          <input type="hidden" name="token" value={view.token} />
          <input type="hidden" name="id" value={view.id} />
          <button type="submit" className="btn-primary w-full" disabled={busy}>
            {busy ? "Signing in..." : confirming ? "Confirm and sign in" : `Sign in as ${view.email}`}
          </button>
        </Form>
      </AuthCard>
    );
  }

  return (
    <AuthCard>
      <h1 className="text-center text-3xl font-semibold">{view.message.title}</h1>
      <p className="mt-3 text-center text-muted">{view.message.text}</p>
      <Form method="post" action="/login" className="mt-7 grid gap-4" {...getFormProps(newLinkForm)}>
        <Honeypot />
        <TextField label="E-mail" field={newLinkFields.email} type="email" autoComplete="email" placeholder="you@example.com" required />
        <button type="submit" className="btn-primary w-full">
          Send a new link
        </button>
      </Form>
      <div className="mt-6 text-center">
        <Link to="/" className="text-sm font-medium text-muted hover:text-ink">
          Back to Home
        </Link>
      </div>
    </AuthCard>
  );
}
export const headers = formPageHeaders;
