/**
 * The loader and action of every quiz step, whatever its address (the content route,
 * routes/$funnel.($step).tsx, chooses between this and the offer pages' offer-route.server.ts
 * and calls them with the path): the HTTP around flow.server.ts. The visitor's variant, the
 * answers cookie, the events a step records and the next step's page handed over with an
 * answer are decided here; what a step shows and where an answer leads are the domain's values.
 */
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { safeRedirect } from "~/auth/redirect";
import { recordEvent } from "~/analytics/events.server";
import { leadEvent, viewContentEvent, type PixelEvent } from "~/analytics/pixel";
import { adsAllowed } from "~/analytics/consent.server";
import { getUser } from "~/auth/guards.server";
import { addressHistory } from "~/content/published-pages.server";
import { funnelForViewer } from "~/experiments/experiments.server";
import { parseForm, replyRefused } from "~/utils/form.server";
import { gone, notFound } from "~/utils/http.server";
import { isGo, isRefusal } from "~/utils/outcome";
import { goTo } from "~/utils/responses.server";
import { answerFunnelStep, browserShowsNext, nextStepOf, planFunnelStep, stepToAnswer, type LeadToRecord, type LoadOutcome } from "./flow.server";
import type { StepHandoff } from "./navigation";
import { markReusable } from "./page-cache.server";
import type { StepView } from "./view";
import { isLaterStep, laterSteps } from "./components/funnel-step";
import { answerKeyOf } from "./answer-key";
import { now } from "~/utils/clock.server";

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

export async function quizRouteLoader({ request, params, context }: LoaderFunctionArgs, address: string) {
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
      // A funnel with an e-mail step counts its Lead when the address is given (below).
      if (event.name === "funnel_completed" && outcome.emailLead === undefined) pixelEvents.push(leadEvent(info));
    }
  }
  if (consented && outcome.emailLead) {
    const funnel = outcome.view.funnel;
    pixelEvents.push(leadEvent({ funnel: funnel.id, title: funnel.pageTitle, eventId: outcome.emailLead }));
  }
  if (pixelEvents.length) return { ...outcome.view, pixelEvents };
  // Opening this step changed nothing, so its rendered page may be served again from memory.
  return outcome.events?.length || outcome.setCookie ? outcome.view : markReusable(outcome.view);
}

/** Keeps an address given at a funnel's e-mail step (the recovery e-mails' queue, ADR 44: passed in, as it stands above funnels). */
export type RecordLead = (lead: LeadToRecord, visitorId: string, at: Date, cookieHeader: string | null) => Promise<unknown>;

export async function quizRouteAction({ request, params, context }: ActionFunctionArgs, address: string, recordLead: RecordLead) {
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
  if (answered.lead) await recordLead(answered.lead, context.visitorId, now(), request.headers.get("Cookie"));
  // The app's own JavaScript gets the next step's page with the answer (one request per step),
  // unless it sent the answer from the queue and has shown that page already (ADR 43).
  const shown = answerKey !== undefined && browserShowsNext(at, submission.value, answered, version?.variant ?? undefined);
  const next = context.dataRequest && !shown ? await nextStepOf(at.funnel, answered, request.headers.get("Cookie"), version) : null;
  if (!next) return goTo(answered);
  const headers = new Headers();
  for (const cookie of [...answered.cookies, ...(next.setCookie ? [next.setCookie] : [])]) headers.append("Set-Cookie", cookie);
  const handoff: StepHandoff = { to: answered.go, page: await stepPage(next, context.visitorId, adsAllowed(request), answerKey) };
  return data({ handoff }, { headers });
}
