/**
 * Every page content puts at an address of its own, chosen in the Studio: each funnel step
 * (/quiz, /quiz/3, /makeup/result, ...: the funnel is found by the first path segment, the
 * step renderer by the step's type) and each offer page (/subscribe, /glow-offer, ...). A
 * new quiz or offer page is live once published, with no code. An address without a page
 * answers 404, or 410 when a published page lived there (app/content/published-pages.server.ts).
 * The offer page's code is a chunk of its own, loaded only for offer pages, so quiz steps
 * (where paid traffic lands) carry none of it.
 */
import { Suspense, useEffect } from "react";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { redirect as clientRedirect, useLoaderData, type ClientActionFunctionArgs, type ClientLoaderFunctionArgs } from "@remix-run/react";
import { safeRedirect } from "~/auth/redirect";
import { FunnelStep, isLaterStep, laterSteps } from "~/funnels/components/funnel-step";
import { recordEvent } from "~/analytics/events.server";
import { leadEvent, viewContentEvent, type PixelEvent } from "~/analytics/pixel";
import { adsAllowed } from "~/analytics/consent.server";
import { getUser } from "~/auth/guards.server";
import { funnelForViewer } from "~/experiments/experiments.server";
import { answerFunnelStep, nextStepOf, planFunnelStep, stepToAnswer, type LoadOutcome } from "~/funnels/flow.server";
import type { StepView } from "~/funnels/view";
import { isHandoff, keepHandoff, noteFunnelShown, takeHandoff, type StepHandoff } from "~/funnels/navigation";
import { answerKeyOf } from "~/funnels/answer-key";
import { answersSent, pageAfterAnswersSent } from "~/funnels/answer-queue";
import { markReusable } from "~/funnels/page-cache.server";
import { parseForm, replyRefused } from "~/utils/form.server";
import { contentPageAt } from "~/content/content.server";
import { addressHistory, notePublishedPagesInBackground } from "~/content/published-pages.server";
import { offerRouteAction, offerRouteLoader, type OfferPageData } from "~/payments/offer-route.server";
import { gone, notFound } from "~/utils/http.server";
import { preloadable } from "~/utils/preloadable";
import { formPageHeaders } from "~/utils/route-headers";
import { isGo, isRefusal } from "~/utils/outcome";
import { goTo } from "~/utils/responses.server";
import { seo } from "~/utils/seo";

const offerPageModule = preloadable(() => import("~/payments/components/offer-page"));

/** An offer page's loader data, told apart from a funnel step's view. */
function isOfferPage(page: object): page is OfferPageData {
  return "offer" in page && "onSale" in page;
}

/** Nothing lives at this address: 410 when a published page did, else 404. */
async function noPage(request: Request, address: string): Promise<Response> {
  return (await addressHistory(address)) === "gone" ? gone(request) : notFound(request);
}

function cookieHeaders(setCookie?: string): HeadersInit {
  return setCookie ? { "Set-Cookie": setCookie } : {};
}

/** The funnel as this visitor runs it: their variants of the experiments running on it. */
function funnelVersion(request: Request, address: string, visitorId: string) {
  return funnelForViewer(address, visitorId, async () => (await getUser(request))?.id);
}

export async function loader(args: LoaderFunctionArgs) {
  const { request, params, context } = args;
  const address = `/${params.funnel}`;
  notePublishedPagesInBackground();
  if (!params.step && (await contentPageAt(address)) === "offer") {
    // Loaded before rendering, so the server renders the whole offer page.
    await offerPageModule.load();
    return offerRouteLoader(args, address);
  }
  const version = await funnelVersion(request, address, context.visitorId);
  const outcome = await planFunnelStep({ cookieHeader: request.headers.get("Cookie"), route: address, stepParam: params.step, version });
  if (outcome.kind === "not-found") throw await noPage(request, address);
  if (outcome.kind === "redirect") throw redirect(safeRedirect(outcome.to, "/"), { headers: cookieHeaders(outcome.setCookie) });
  // Loaded before rendering, so the server renders the whole step (also without JavaScript).
  if (isLaterStep(outcome.view)) await laterSteps.load();
  return data(await stepPage(outcome, context.visitorId, adsAllowed(request)), { headers: cookieHeaders(outcome.setCookie) });
}

/** A step's page data: its view, after recording what opening it means (and the pixel's copies of those events). */
async function stepPage(
  outcome: Extract<LoadOutcome, { kind: "view" }>,
  visitorId: string,
  consented: boolean,
  answerKey?: string,
): Promise<StepView & { pixelEvents?: PixelEvent[] }> {
  const pixelEvents: PixelEvent[] = [];
  for (const event of outcome.events ?? []) {
    const eventId = await recordEvent({ ...event, visitorId }, answerKey);
    // The pixel's ViewContent / Lead carry the first-party event's id (de-duplication).
    if (eventId && consented && event.funnel) {
      const info = { funnel: event.funnel, title: outcome.view.funnel.pageTitle, eventId };
      if (event.name === "funnel_viewed") pixelEvents.push(viewContentEvent(info));
      if (event.name === "funnel_completed") pixelEvents.push(leadEvent(info));
    }
  }
  if (pixelEvents.length) return { ...outcome.view, pixelEvents };
  // Opening this step changed nothing, so its rendered page may be served again from memory.
  return outcome.events?.length || outcome.setCookie ? outcome.view : markReusable(outcome.view);
}

export async function action(args: ActionFunctionArgs) {
  const { request, params, context } = args;
  const address = `/${params.funnel}`;
  if (!params.step && (await contentPageAt(address)) === "offer") return offerRouteAction(args, address);
  const version = await funnelVersion(request, address, context.visitorId);
  const at = await stepToAnswer({ cookieHeader: request.headers.get("Cookie"), route: address, stepParam: params.step, version });
  if (!at) throw await noPage(request, address);
  if (isGo(at)) return goTo(at);
  // An answer the quiz's JavaScript may send again: its events are recorded once (ADR 43).
  const answerKey = answerKeyOf(request);
  if (answerKey === null) return data({ status: "error", error: { "": ["This answer could not be read. Please reload the page."] } }, { status: 400 });
  const { submission, status } = await parseForm(request, at.form);
  if (submission.status !== "success") return data(submission.reply(), { status });
  const answered = await answerFunnelStep(at, submission.value);
  if (isRefusal(answered)) return replyRefused(submission, answered);
  for (const event of answered.events) await recordEvent({ ...event, visitorId: context.visitorId }, answerKey);
  // The app's own JavaScript gets the next step's page with the answer: one request per step.
  const next = context.dataRequest ? await nextStepOf(at.funnel, answered, request.headers.get("Cookie"), version) : null;
  if (!next) return goTo(answered);
  const headers = new Headers();
  for (const cookie of [...answered.cookies, ...(next.setCookie ? [next.setCookie] : [])]) headers.append("Set-Cookie", cookie);
  const handoff: StepHandoff = { to: answered.go, page: await stepPage(next, context.visitorId, adsAllowed(request), answerKey) };
  return data({ handoff }, { headers });
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
