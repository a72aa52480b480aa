/**
 * An offer page rendered from its content document: sections in the document's order, each
 * drawn by the component of its type (./sections). Works without JavaScript (plan buttons are
 * forms, scroll buttons are anchors, the FAQ is <details>); JavaScript adds the ticking
 * countdown, plan selection and the button's busy state.
 */
import { useEffect, useState } from "react";
import type { MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { ErrorBox } from "~/components/ui/error-box";
import { CheckIcon } from "~/components/ui/icons";
import { showToast } from "~/components/ui/toaster";
import { useHydrated } from "~/hooks/use-hydrated";
import { formErrorsOf } from "~/utils/form-errors";
import { durationSeconds } from "~/billing/catalogue";
import { checkoutErrorTitle } from "../messages";
import type { OfferPageView, Ownership } from "../offer-page.server";
import type { offerRouteAction, offerRouteLoader } from "../offer-route.server";
import { PageContext, useCountdown } from "./offer-page-state";
import { Section } from "./sections";

export function OfferPage() {
  const { offer, countdown, matches, routine, tips, reason, personalised, owned, onSale } = useLoaderData<typeof offerRouteLoader>();
  const lastResult = useActionData<typeof offerRouteAction>();
  const hydrated = useHydrated();
  const seconds = useCountdown(durationSeconds(countdown));
  const [selected, setSelected] = useState<string | null>(null);
  // A refused plan button: the plan chosen is one the member already has (its field's error,
  // shown with a way to it), or the checkout could not start (the form's errors, as on every
  // other form), shown under its heading: a toast with JavaScript, in place without.
  const alreadyOwned = lastResult?.error?.planId?.[0] ?? null;
  const checkoutError = alreadyOwned ? null : (formErrorsOf(lastResult)?.[0] ?? null);

  useEffect(() => {
    // Once per answer, also when the same error comes back again.
    const message = lastResult?.error?.planId?.[0] ? null : formErrorsOf(lastResult)?.[0];
    if (message) showToast({ title: checkoutErrorTitle(message), description: message, variant: "destructive" });
  }, [lastResult]);

  return (
    <PageContext.Provider value={{ seconds, selected, select: setSelected, offer, owned, matches, routine, tips, reason, personalised, onSale }}>
      <div className="pb-16">
        {checkoutError && !hydrated ? (
          <ErrorBox className="mx-auto mt-4 max-w-xl" title={checkoutErrorTitle(checkoutError)} description={checkoutError} />
        ) : null}
        {owned ? (
          <OwnedNotice owned={owned} alert={alreadyOwned !== null} />
        ) : alreadyOwned ? (
          // A page opened before this purchase: the server refused a second checkout; say why.
          <div role="alert" className="mx-auto mt-4 max-w-xl rounded-2xl border border-sage/30 bg-[#f1f5f1] px-4 py-3 text-center">
            <p className="font-semibold">{alreadyOwned}</p>
            <Link to="/home" className="mt-2 inline-block font-semibold text-rose-700 underline underline-offset-2">
              Go to My Plan
            </Link>
          </div>
        ) : null}
        {offer.sections.map((section, i) => (
          <Section key={i} section={section} first={i === 0} />
        ))}
      </div>
    </PageContext.Provider>
  );
}

/** What a member who already has this product sees: what they have, and where to go instead of paying again. */
function OwnedNotice({ owned, alert }: { owned: Ownership; alert: boolean }) {
  return (
    <section className="mx-auto mt-6 w-full max-w-2xl px-5" aria-labelledby="owned-title">
      <div className="rounded-card border border-sage/30 bg-[#f1f5f1] p-5 text-center shadow-soft sm:p-6" role={alert ? "alert" : undefined}>
        <p id="owned-title" className="flex items-center justify-center gap-2 text-xl font-semibold text-ink">
          <CheckIcon className="h-5 w-5 text-sage" /> {owned.headline}
        </p>
        <p className="mt-1 text-muted">It's already part of your account, so there's nothing to buy here.</p>
        <div className="mt-4 flex flex-col justify-center gap-3 sm:flex-row">
          <Link to={owned.planHref} className="btn-primary">
            Go to My Plan
          </Link>
          {owned.recurring ? (
            <form method="post" action="/billing/portal">
              <input type="hidden" name="entitlement" value={owned.entitlementId} />
              <button type="submit" className="btn-secondary w-full">
                Manage Subscription
              </button>
            </form>
          ) : null}
        </div>
      </div>
    </section>
  );
}

export const offerMeta: MetaFunction = ({ data }) => {
  const offer = (data as OfferPageView | undefined)?.offer;
  if (!offer) return [{ title: "Glow Coach" }];
  return [{ title: `${offer.pageTitle} · Glow Coach` }, { name: "description", content: offer.description }];
};
