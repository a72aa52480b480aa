/**
 * POST /billing/portal: 'Manage Subscription' (profile, offer pages) and 'Switch to …' (offer
 * pages) land here and are sent on to the Stripe customer portal or the local test portal.
 * `entitlement` names which of the member's subscriptions; `switchTo` a plan to switch it to.
 */
import { data, redirect, type ActionFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/auth/guards.server";
import { PortalForm } from "~/payments/forms.server";
import { openBillingPortal } from "~/payments/portal.server";
import { parseForm } from "~/utils/form.server";
import { logger } from "~/utils/logger.server";

export async function loader() {
  return redirect("/profile");
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const { submission, status } = await parseForm(request, PortalForm);
  if (submission.status !== "success") return data(submission.reply(), { status });
  const { entitlement, switchTo } = submission.value;
  try {
    return redirect(await openBillingPortal(user.id, { entitlementId: entitlement, switchTo }), 303);
  } catch (error) {
    logger.error({ err: error }, "[billing] could not open the billing portal");
    return redirect("/profile", 303);
  }
}
