/**
 * POST /billing/portal: 'Manage Subscription' (profile, offer pages) and 'Switch to …' (offer
 * pages) land here and are sent on to the Stripe customer portal or the local test portal.
 * `entitlement` names which of the member's subscriptions; `switchTo` a plan to switch it to.
 */
import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/auth/guards.server";
import { openBillingPortal } from "~/payments/portal.server";
import { logger } from "~/utils/logger.server";
import { fieldsOf, readFormEntries } from "~/utils/form.server";

export async function loader() {
  return redirect("/profile");
}

const ID = /^[A-Za-z0-9_-]{1,64}$/;

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await readFormEntries(request);
  const fields = form.ok ? fieldsOf(form.entries) : {};
  const pick = (value: unknown) => (typeof value === "string" && ID.test(value) ? value : null);
  try {
    return await openBillingPortal(user.id, { entitlementId: pick(fields.entitlement), switchTo: pick(fields.switchTo) });
  } catch (error) {
    logger.error({ err: error }, "[billing] could not open the billing portal");
    return redirect("/profile", 303);
  }
}
