/**
 * GET /recover?lead=…&e=…&sig=…: a recovery e-mail's "See My Plan" (ADR 44). A link we signed
 * restores that lead's answers and result in this browser (the funnel's answers cookie) and
 * lands on the offer the result leads to, personalised as it was. It signs nobody in, and the
 * offer's countdown is this browser's own: a real deadline or none. Anything else is a 400.
 */
import { data, redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { safeRedirect } from "~/auth/redirect";
import { fromSignedLink } from "~/recovery/links.server";
import { restoreFromLead } from "~/recovery/leads.server";
import { logger } from "~/utils/logger.server";
import { seo } from "~/utils/seo";

export const meta: MetaFunction = (args) => seo(args, { title: "Your plan · Glow Coach", description: "Back to your personalized plan.", noindex: true });

const INVALID = "This link isn't valid. You can take the quiz again from the Glow Coach home page.";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const link = fromSignedLink(new URL(request.url), "back");
  const restored = link ? await restoreFromLead(link.leadId, link.tag, context.visitorId) : null;
  if (!restored) {
    logger.warn("[recovery] a recovery link with a bad signature or no lead");
    throw data(INVALID, { status: 400 });
  }
  return redirect(safeRedirect(restored.to, "/"), { status: 303, headers: { "Set-Cookie": restored.cookie, "Cache-Control": "no-store" } });
}

/** Never shown: the loader always redirects or throws (a page makes the 400 the site's own error page). */
export default function RecoveryLink() {
  return null;
}
