/**
 * POST /billing/portal: the profile's 'Manage Subscription' form (target _blank) lands here
 * and is sent on to the Stripe customer portal or the local test portal.
 */
import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/auth/guards.server";
import { openBillingPortal } from "~/payments/portal.server";
import { logger } from "~/utils/logger.server";

export async function loader() {
  return redirect("/profile");
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  try {
    return await openBillingPortal(user.id);
  } catch (error) {
    logger.error({ err: error }, "[billing] could not open the billing portal");
    return redirect("/profile", 303);
  }
}
