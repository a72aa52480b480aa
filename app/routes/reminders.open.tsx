/**
 * GET /reminders/open?plan=…&sig=…: the reminder e-mail's button. A link we signed goes to
 * /plan/:id, where the normal sign-in rules apply (it signs nobody in); anything else is a 400,
 * shown as the site's own "We couldn't do that" page.
 */
import { data, redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { planFromRoutineLink } from "~/reminders/links.server";
import { logger } from "~/utils/logger.server";
import { seo } from "~/utils/seo";

export const meta: MetaFunction = (args) =>
  seo(args, { title: "Your routine · Glow Coach", description: "Open today's routine from your reminder e-mail.", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  const planId = planFromRoutineLink(new URL(request.url));
  if (!planId) {
    // A mangled or forged link is the visitor's problem, not the server's: a warning, not an error.
    logger.warn("[reminders] a routine link with a bad signature");
    throw data("This link isn't valid. Open your routine from the Glow Coach home page.", { status: 400 });
  }
  return redirect(`/plan/${encodeURIComponent(planId)}`, 303);
}

/**
 * Never shown: the loader always redirects or throws. Having a page makes this a document
 * route, so the 400 above is the root error page (a resource route's thrown answer is Remix's
 * JSON "Unexpected Server Error", logged as an error).
 */
export default function RoutineLink() {
  return null;
}
