/** The button of a plan card (and of the closing call): buy it, or, for a member who has the product, go to it or switch plans. */
import { Form, Link, useNavigation } from "@remix-run/react";
import type { Ownership } from "../offer-page.server";
import { usePage } from "./offer-page-state";

/**
 * The form behind every plan button: the server prices the plan from its id. A member who
 * already has this product sees their plan instead, or switches plans in the billing portal.
 */
export function PlanButton({ planId, label, className = "btn-primary w-full" }: { planId: string; label: string; className?: string }) {
  const { owned } = usePage();
  if (owned) return <OwnerButton owned={owned} planId={planId} className={className} />;
  return <BuyButton planId={planId} label={label} className={className} />;
}

function OwnerButton({ owned, planId, className }: { owned: Ownership; planId: string; className: string }) {
  const { offer } = usePage();
  if (planId === owned.planId || !owned.switchTo.includes(planId)) {
    return (
      <Link to={owned.planHref} className={className}>
        {planId === owned.planId ? "Your plan · Go to My Plan" : "Go to My Plan"}
      </Link>
    );
  }
  const plan = offer.plans.find((p) => p.id === planId);
  return (
    <form method="post" action="/billing/portal">
      <input type="hidden" name="entitlement" value={owned.entitlementId} />
      <input type="hidden" name="switchTo" value={planId} />
      <button type="submit" className={className}>
        Switch to {plan?.name ?? "this plan"}
      </button>
    </form>
  );
}

function BuyButton({ planId, label, className }: { planId: string; label: string; className: string }) {
  const { offer, select, onSale } = usePage();
  const navigation = useNavigation();
  // PAYMENTS=off: the page stays, the button says why there is nothing to press.
  if (!onSale)
    return <p className="rounded-2xl border border-dashed border-line px-4 py-3 text-center text-sm text-muted">This plan is not on sale right now.</p>;
  const busy =
    navigation.state !== "idle" &&
    navigation.formMethod?.toLowerCase() === "post" &&
    navigation.formData?.get("planId") === planId &&
    navigation.formAction === offer.path;
  return (
    <Form method="post" action={offer.path} onSubmit={() => select(planId)}>
      <input type="hidden" name="intent" value="checkout" />
      <input type="hidden" name="planId" value={planId} />
      <button type="submit" className={className} disabled={busy} aria-busy={busy}>
        {busy ? offer.processingLabel : label}
      </button>
      {offer.saveCardLabel ? (
        // Unticked: keeping the card for the one-tap offer is the buyer's choice (ADR 45).
        // The text and the focus ring take the colour around them: ink on a plan card, white on the rose closing call.
        <label className="mt-3 flex items-start gap-2 rounded-lg text-left text-sm has-[:focus-visible]:outline has-[:focus-visible]:outline-[3px] has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-current">
          <input type="checkbox" name="saveCard" className="mt-0.5 h-4 w-4 shrink-0 accent-rose-600" />
          <span>{offer.saveCardLabel}</span>
        </label>
      ) : null}
    </Form>
  );
}
