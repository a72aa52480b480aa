/**
 * /cookie-settings: the footer's "Cookie settings" page and the consent banner's form target
 * (ADR 32). GET shows the current choice with Accept / Decline; POST remembers a choice and
 * goes back to the page it was made on. A plain HTML form, so the next page is loaded whole
 * and starts (or no longer starts) Meta's pixel, with or without JavaScript.
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { consentChoiceIn } from "~/analytics/consent.server";
import { ConsentForm, pageChosenOn, returnPath, saveConsent } from "~/analytics/consent-form.server";
import { CONSENT_ACTION, ConsentButtons } from "~/components/consent-choice";
import { AuthCard, FormAlert } from "~/components/ui/form";
import { parseForm, replyRefused } from "~/utils/form.server";
import { env } from "~/utils/env.server";
import { isRefusal } from "~/utils/outcome";
import { goTo } from "~/utils/responses.server";
import { formPageHeaders } from "~/utils/route-headers";
import { seo } from "~/utils/seo";

export const meta: MetaFunction = (args) =>
  seo(args, { title: "Cookie settings · Glow Coach", description: "Choose whether Meta's pixel may measure our ads.", noindex: true });

export const headers = formPageHeaders;

export async function loader({ request }: LoaderFunctionArgs) {
  return {
    asked: env.metaPixelId !== null,
    choice: consentChoiceIn(request.headers.get("Cookie")),
    returnTo: returnPath(new URL(request.url).searchParams.get("returnTo")),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const { submission, status } = await parseForm(request, ConsentForm);
  if (submission.status !== "success") return data(submission.reply(), { status });
  const { choice, returnTo } = submission.value;
  const page = pageChosenOn({ referer: request.headers.get("Referer"), origin: new URL(request.url).origin, returnTo });
  const outcome = await saveConsent(choice, page);
  return isRefusal(outcome) ? replyRefused(submission, outcome) : goTo(outcome);
}

const CURRENT: Record<"granted" | "denied" | "none", string> = {
  granted: "You accepted: Meta's pixel is on for this browser.",
  denied: "You declined: Meta's pixel is off for this browser.",
  none: "You haven't chosen yet: Meta's pixel is off until you accept.",
};

export default function CookieSettings() {
  const { asked, choice, returnTo } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <AuthCard>
      <h1 className="text-center text-3xl font-semibold">Cookie settings</h1>
      {asked ? (
        <>
          <p className="mt-3 leading-relaxed text-muted">
            With your OK, Meta&apos;s pixel tells us which of our ads brought you here, and we let Meta know when someone who came from an ad buys a plan.
            Without it, nothing about your visit goes to Meta. Our own anonymous statistics and the cookies that keep you signed in work either way.
          </p>
          <p className="mt-5 rounded-2xl border border-line bg-cream/60 px-4 py-3 text-center text-sm font-medium" role="status">
            {CURRENT[choice ?? "none"]}
          </p>
          {/* A plain form: the page after it is loaded whole, so the pixel starts or stops with it. */}
          <form method="post" action={CONSENT_ACTION} className="mt-6 grid gap-4">
            <FormAlert errors={result?.error?.choice ?? result?.error?.[""] ?? undefined} />
            <input type="hidden" name="returnTo" value={returnTo} />
            <ConsentButtons />
          </form>
          <p className="mt-5 text-center text-sm">
            <Link to={returnTo} className="font-semibold text-rose-700 underline-offset-2 hover:underline">
              Back without changing anything
            </Link>
          </p>
        </>
      ) : (
        <p className="mt-3 text-center leading-relaxed text-muted">
          Glow Coach uses no advertising cookies. The only cookies it sets keep you signed in, remember your quiz answers, and count visits for our own
          anonymous statistics.
        </p>
      )}
    </AuthCard>
  );
}
