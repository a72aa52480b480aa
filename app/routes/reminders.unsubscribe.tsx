/**
 * /reminders/unsubscribe?token=…: the reminder e-mail's "Turn off reminders" link and its
 * List-Unsubscribe header, and the recovery e-mails' "Unsubscribe" (ADR 44; a lead's token is
 * told from an account's by its signature, each made with a key of its own). No sign-in: the signed token names the account. GET asks (mail
 * scanners open links, so a GET changes nothing); POST turns the reminder off, from the page's
 * button or from the mail app's one-click (RFC 8058, a POST with List-Unsubscribe=One-Click).
 * Every valid token gets the same answer, and the page shows nothing about the account.
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { CheckIcon } from "~/components/ui/icons";
import { leadFromUnsubscribeToken } from "~/recovery/links.server";
import { unsubscribeLead } from "~/recovery/leads.server";
import { userFromUnsubscribeToken } from "~/reminders/links.server";
import { turnRemindersOff } from "~/members/reminder-settings.server";
import { seo } from "~/utils/seo";

export const meta: MetaFunction = (args) =>
  seo(args, { title: "Daily reminders · Glow Coach", description: "Turn off daily reminder e-mails.", noindex: true });

const INVALID = "This unsubscribe link isn't valid. You can turn reminders off on your profile after signing in.";

function tokenOf(request: Request): string | null {
  return new URL(request.url).searchParams.get("token");
}

/** Which e-mails the token stops: an account's daily reminders, or a lead's recovery e-mails. */
function unsubscribing(token: string | null): { kind: "reminders"; userId: string } | { kind: "recovery"; leadId: string } | null {
  const userId = userFromUnsubscribeToken(token);
  if (userId) return { kind: "reminders", userId };
  const leadId = leadFromUnsubscribeToken(token);
  return leadId ? { kind: "recovery", leadId } : null;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const token = tokenOf(request);
  const target = unsubscribing(token);
  if (!target) throw data(INVALID, { status: 400 });
  return { token: token!, kind: target.kind };
}

/**
 * Turns the reminder off. The body is not read: everything is in the link, and a mail app's
 * one-click POST may come as multipart/form-data (RFC 8058), which the page forms never send.
 */
export async function action({ request }: ActionFunctionArgs) {
  const target = unsubscribing(tokenOf(request));
  if (!target) throw data(INVALID, { status: 400 });
  if (target.kind === "reminders") await turnRemindersOff(target.userId);
  else await unsubscribeLead(target.leadId);
  return { off: true };
}

export default function Unsubscribe() {
  const { token, kind } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  if (kind === "recovery") return <RecoveryUnsubscribe token={token} off={result?.off ?? false} />;
  return (
    <div className="mx-auto w-full max-w-xl px-5 pb-16 pt-10 sm:pt-16">
      <section className="card p-6 text-center sm:p-8" aria-labelledby="unsubscribe-title">
        {result?.off ? (
          <>
            <h1 id="unsubscribe-title" className="text-3xl font-semibold">
              Reminders are off
            </h1>
            <p className="mt-3 flex items-center justify-center gap-2 font-semibold text-sage" role="status">
              <CheckIcon /> You won't get daily reminder e-mails any more.
            </p>
            <p className="mt-3 text-muted">Changed your mind? Turn them back on any time on your profile.</p>
            <Link to="/profile#reminder-title" className="btn-secondary mt-6">
              Go to My Profile
            </Link>
          </>
        ) : (
          <>
            <h1 id="unsubscribe-title" className="text-3xl font-semibold">
              Turn off daily reminders?
            </h1>
            <p className="mt-3 text-muted">You'll stop getting the daily e-mail about your routine. Your plan and streak stay as they are.</p>
            {/* The token travels in the URL, as in the mail app's one-click POST. */}
            <Form method="post" action={`/reminders/unsubscribe?${new URLSearchParams({ token })}`} className="mt-6">
              <button type="submit" className="btn-primary">
                Turn Off Reminders
              </button>
            </Form>
          </>
        )}
      </section>
    </div>
  );
}

/** The recovery e-mails' unsubscribe (ADR 44): the same form, its own words. */
function RecoveryUnsubscribe({ token, off }: { token: string; off: boolean }) {
  return (
    <div className="mx-auto w-full max-w-xl px-5 pb-16 pt-10 sm:pt-16">
      <section className="card p-6 text-center sm:p-8" aria-labelledby="unsubscribe-title">
        {off ? (
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
            <Form method="post" action={`/reminders/unsubscribe?${new URLSearchParams({ token })}`} className="mt-6">
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
