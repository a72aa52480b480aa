/**
 * Every page content puts at an address of its own, chosen in the Studio: each funnel step
 * (/quiz, /quiz/3, /makeup/result, ...: the funnel is found by the first path segment, the
 * step renderer by the step's type) and each offer page (/subscribe, /glow-offer, ...). A
 * new quiz or offer page is live once published, with no code. An address without a page
 * answers 404, or 410 when a published page lived there (app/content/published-pages.server.ts).
 * This route only chooses: a quiz step's loader and action are funnels/quiz-route.server.ts,
 * an offer page's payments/offer-route.server.ts. The offer page's code is a chunk of its own,
 * loaded only for offer pages, so quiz steps (where paid traffic lands) carry none of it.
 */
import { Suspense, useEffect } from "react";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { redirect as clientRedirect, useLoaderData, type ClientActionFunctionArgs, type ClientLoaderFunctionArgs } from "@remix-run/react";
import { FunnelStep } from "~/funnels/components/funnel-step";
import { isHandoff, keepHandoff, noteFunnelShown, takeHandoff } from "~/funnels/navigation";
import { quizRouteAction, quizRouteLoader } from "~/funnels/quiz-route.server";
import { fromSignedLink } from "~/recovery/links.server";
import { recordLead, restoreFromLead } from "~/recovery/leads.server";
import { answersSent, pageAfterAnswersSent } from "~/funnels/answer-queue";
import { contentPageAt } from "~/content/content.server";
import { notePublishedPagesInBackground } from "~/content/published-pages.server";
import { offerRouteAction, offerRouteLoader, type OfferPageData } from "~/payments/offer-route.server";
import { preloadable } from "~/utils/preloadable";
import { formPageHeaders } from "~/utils/route-headers";
import { seo } from "~/utils/seo";

const offerPageModule = preloadable(() => import("~/payments/components/offer-page"));

/** An offer page's loader data, told apart from a funnel step's view. */
function isOfferPage(page: object): page is OfferPageData {
  return "offer" in page && "onSale" in page;
}

export async function loader(args: LoaderFunctionArgs) {
  const address = `/${args.params.funnel}`;
  notePublishedPagesInBackground();
  if (!args.params.step && (await contentPageAt(address)) === "offer") {
    // A recovery e-mail's "See My Plan" (ADR 44): restore that lead's answers, then the plain
    // address, or for a checkout reminder Stripe's recovery link (from our records, never the URL's).
    const url = new URL(args.request.url);
    if (url.searchParams.has("lead")) {
      const link = fromSignedLink(url);
      const restored = link ? await restoreFromLead(link.leadId, link.tag, args.context.visitorId) : null;
      if (!restored) throw data("This link isn't valid. You can take the quiz again from the Glow Coach home page.", { status: 400 });
      const headers = new Headers({ "Cache-Control": "no-store" });
      for (const cookie of restored.cookies) headers.append("Set-Cookie", cookie);
      throw redirect(restored.to, { status: 303, headers });
    }
    // Loaded before rendering, so the server renders the whole offer page.
    await offerPageModule.load();
    return offerRouteLoader(args, address);
  }
  return quizRouteLoader(args, address);
}

export async function action(args: ActionFunctionArgs) {
  const address = `/${args.params.funnel}`;
  if (!args.params.step && (await contentPageAt(address)) === "offer") return offerRouteAction(args, address);
  return quizRouteAction(args, address, recordLead);
}

/** An answer that hands the next page over is shown without asking the server again (app/funnels/navigation.ts). */
export async function clientAction({ serverAction }: ClientActionFunctionArgs) {
  await answersSent();
  const answer = await serverAction<typeof action>();
  if (!isHandoff(answer)) return answer;
  keepHandoff(answer.handoff);
  return clientRedirect(answer.handoff.to);
}

export async function clientLoader({ request, serverLoader }: ClientLoaderFunctionArgs) {
  return (takeHandoff(new URL(request.url)) as Awaited<ReturnType<typeof loader>>["data"] | null) ?? pageAfterAnswersSent(serverLoader<typeof loader>);
}

export const meta: MetaFunction<typeof loader> = (args) => {
  const data = args.data;
  if (!data) return seo(args, { title: "Glow Coach", description: "Personal skincare and makeup coaching." });
  if (isOfferPage(data)) return seo(args, { title: `${data.offer.pageTitle} · Glow Coach`, description: data.offer.description });
  const heading = "headline" in data.step ? data.step.headline : "title" in data.step ? data.step.title : undefined;
  return seo(args, { title: `${data.funnel.pageTitle} · Glow Coach`, description: heading ?? data.funnel.pageTitle });
};

/** Offer pages answer a refused plan button with Retry-After (a 429), which Remix passes on only when asked. */
export const headers = formPageHeaders;

/** The offer page, once its chunk is loaded (while hydrating, React keeps the server's HTML until then). */
function OfferPageSlot() {
  const module = offerPageModule.get();
  if (!module) throw offerPageModule.load();
  return <module.OfferPage />;
}

/**
 * Quiz steps that lead to an offer page (the analysing and result screens) fetch its code once
 * they are on screen, so the offer shows at once when the visitor goes on. No clientLoader for
 * this: with single fetch, a route with one asks for its data in a request of its own, a third
 * request on every quiz step.
 */
function useOfferCodeAhead(page: object) {
  const leadsToOffer = !isOfferPage(page) && "step" in page && ["analysing", "result"].includes((page.step as { type: string }).type);
  useEffect(() => {
    if (leadsToOffer) void offerPageModule.load();
  }, [leadsToOffer]);
}

export default function ContentPageRoute() {
  const page = useLoaderData<typeof loader>();
  useOfferCodeAhead(page);
  const funnelRoute = isOfferPage(page) ? undefined : page.funnel.route;
  useEffect(() => {
    if (funnelRoute) noteFunnelShown(funnelRoute);
  }, [funnelRoute]);
  if (isOfferPage(page))
    return (
      <Suspense fallback={null}>
        <OfferPageSlot />
      </Suspense>
    );
  return <FunnelStep view={page} />;
}
