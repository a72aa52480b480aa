/**
 * GET /reminders/open?plan=…&sig=…: the reminder e-mail's button. A link we signed goes to
 * /plan/:id, where the normal sign-in rules apply (it signs nobody in); anything else is a 400.
 */
import { data, redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { planFromRoutineLink } from "~/reminders/links.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const planId = planFromRoutineLink(new URL(request.url));
  if (!planId) throw data("This link isn't valid. Open your routine from the Glow Coach home page.", { status: 400 });
  return redirect(`/plan/${encodeURIComponent(planId)}`, 303);
}
