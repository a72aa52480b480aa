/**
 * The loader and action of every offer page, whatever its address (the content route,
 * routes/$funnel.($step).tsx, calls them with the path): the HTTP around offer-page.server.ts. Who is
 * asking (the session), the plan button's form, and the status codes, cookies and redirects
 * are decided here; what the page shows and what a plan button does are the domain's values.
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { adBrowserOf } from "~/analytics/conversions.server";
import { getSession, getUser } from "~/auth/guards.server";
import { parseForm, replyRefused } from "~/utils/form.server";
import { notFound } from "~/utils/http.server";
import { isRefusal } from "~/utils/outcome";
import { goTo } from "~/utils/responses.server";
import { pageMayBeStored, type PageInput } from "~/utils/page-record.server";
import { countdownDuration } from "~/billing/catalogue";
import { CHECKOUT_ERROR } from "./messages";
import { checkoutFromOffer, offerPage, type OfferPageView } from "./offer-page.server";

/** An offer page's loader data: the view, with the seconds left as "PT599S" (countdownDuration). */
export type OfferPageData = Omit<OfferPageView, "remainingSeconds"> & { countdown: string | null };

/** What an offer page, root layout included, is rendered from (checked against its render's statements: stored-page-reads.test.ts). */
const OFFER_PAGE_READS = [
  "url",
  "cookies",
  "content",
  "variant",
  "clock",
  "member:User",
  "member:Session",
  "member:Entitlement",
  "member:EntitlementState",
  "member:MemberAnswers",
] as const satisfies readonly PageInput[];

export async function offerRouteLoader({ request, context }: LoaderFunctionArgs, path: string) {
  // Kept and answered again from memory to this browser while what it reads stays the same; its
  // countdown is filled in per view (ADR 26, 40).
  pageMayBeStored(OFFER_PAGE_READS);
  // Only a full session sees what it owns; a purchase session sees the page as a visitor does.
  const page = await offerPage({ path, user: await getUser(request), visitorId: context.visitorId, cookieHeader: request.headers.get("Cookie") });
  if (!page) throw notFound(request);
  const headers = new Headers();
  for (const cookie of page.cookies) headers.append("Set-Cookie", cookie);
  // The seconds left travel as "PT599S", the text the page's <time datetime> shows: a value that
  // occurs nowhere else on the page, so a stored page can have it filled in per view (ADR 26).
  const { remainingSeconds, ...view } = page.view;
  const pageData: OfferPageData = { ...view, countdown: remainingSeconds === null ? null : countdownDuration(remainingSeconds) };
  return data(pageData, { headers });
}

/** A plan button: two hidden fields. The server prices the plan from its id. */
const PlanButtonForm = z.object({ intent: z.literal("checkout"), planId: z.string().max(100), saveCard: z.literal("on").optional() });

/** A plan button: to the checkout (303), or the form's answer saying why not. */
export async function offerRouteAction({ request, context }: ActionFunctionArgs, path: string) {
  const { submission, status } = await parseForm(request, PlanButtonForm);
  // A button tampered with or cut short has no field a visitor could correct: the catalogue's checkout error.
  if (submission.status !== "success") return data(submission.reply({ formErrors: [CHECKOUT_ERROR.description] }), { status });
  const outcome = await checkoutFromOffer({
    path,
    planId: submission.value.planId,
    // Signed in (or holding a purchase session): the checkout is for that account's address.
    user: (await getSession(request))?.user ?? null,
    visitorId: context.visitorId,
    cookieHeader: request.headers.get("Cookie"),
    adBrowser: adBrowserOf(request, context.clientIp),
    saveCard: submission.value.saveCard === "on",
  });
  if (!outcome) throw notFound(request);
  return isRefusal(outcome) ? replyRefused(submission, outcome) : goTo(outcome);
}
