/**
 * /recover/unsubscribe?token=…: a recovery e-mail's "Unsubscribe" link and its List-Unsubscribe
 * header (ADR 44), as /reminders/unsubscribe is for reminders. GET asks (mail scanners open
 * links); POST stops the recovery e-mails to the lead's address, from the page's button or the
 * mail app's one-click (RFC 8058). The page shows nothing about the address.
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { CheckIcon } from "~/components/ui/icons";
import { leadFromUnsubscribeToken } from "~/recovery/links.server";
import { unsubscribeLead } from "~/recovery/leads.server";
import { seo } from "~/utils/seo";

export const meta: MetaFunction = (args) => seo(args, { title: "Unsubscribe · Glow Coach", description: "Stop e-mails about your plan.", noindex: true });

const INVALID = "This unsubscribe link isn't valid.";

function tokenOf(request: Request): string | null {
  return new URL(request.url).searchParams.get("token");
}

export async function loader({ request }: LoaderFunctionArgs) {
  const token = tokenOf(request);
  if (!leadFromUnsubscribeToken(token)) throw data(INVALID, { status: 400 });
  return { token: token! };
}

/** The body is not read: the token is in the link, and a one-click POST may be multipart (RFC 8058). */
export async function action({ request }: ActionFunctionArgs) {
  const leadId = leadFromUnsubscribeToken(tokenOf(request));
  if (!leadId) throw data(INVALID, { status: 400 });
  await unsubscribeLead(leadId);
  return { off: true };
}

export default function RecoveryUnsubscribe() {
  const { token } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <div className="mx-auto w-full max-w-xl px-5 pb-16 pt-10 sm:pt-16">
      <section className="card p-6 text-center sm:p-8" aria-labelledby="unsubscribe-title">
        {result?.off ? (
          <>
            <h1 id="unsubscribe-title" className="text-3xl font-semibold">
              You're unsubscribed
            </h1>
            <p className="mt-3 flex items-center justify-center gap-2 font-semibold text-sage" role="status">
              <CheckIcon /> We won't send you any more e-mails about your plan.
            </p>
            <Link to="/" className="btn-secondary mt-6">
              Back to Glow Coach
            </Link>
          </>
        ) : (
          <>
            <h1 id="unsubscribe-title" className="text-3xl font-semibold">
              Stop e-mails about your plan?
            </h1>
            <p className="mt-3 text-muted">You'll stop getting e-mails with your results and offers for your plan.</p>
            {/* The token travels in the URL, as in the mail app's one-click POST. */}
            <Form method="post" action={`/recover/unsubscribe?${new URLSearchParams({ token })}`} className="mt-6">
              <button type="submit" className="btn-primary">
                Unsubscribe
              </button>
            </Form>
          </>
        )}
      </section>
    </div>
  );
}
