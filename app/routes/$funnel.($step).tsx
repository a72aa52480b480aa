/**
 * Every funnel step: /quiz, /quiz/3, /makeup/result, ... The funnel is found by the
 * first path segment; the step renderer is chosen by the step's type.
 */
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { safeRedirect } from "~/auth/redirect";
import { FunnelStep } from "~/funnels/components/funnel-step";
import { recordEvent } from "~/analytics/events.server";
import { leadEvent, viewContentEvent, type PixelEvent } from "~/analytics/pixel";
import { env } from "~/utils/env.server";
import { getUser } from "~/auth/guards.server";
import { funnelForViewer } from "~/experiments/experiments.server";
import { answerFunnelStep, planFunnelStep, stepToAnswer } from "~/funnels/flow.server";
import { markReusable } from "~/funnels/page-cache.server";
import { parseForm, replyRefused } from "~/utils/form.server";
import { notFound } from "~/utils/http.server";
import { isGo, isRefusal } from "~/utils/outcome";
import { goTo } from "~/utils/responses.server";
import { seo } from "~/utils/seo";

function cookieHeaders(setCookie?: string): HeadersInit {
  return setCookie ? { "Set-Cookie": setCookie } : {};
}

/** The funnel as this visitor runs it: their variants of the experiments running on it. */
function funnelVersion(request: Request, params: LoaderFunctionArgs["params"], visitorId: string) {
  return funnelForViewer(`/${params.funnel}`, visitorId, async () => (await getUser(request))?.id);
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const version = await funnelVersion(request, params, context.visitorId);
  const outcome = await planFunnelStep({ cookieHeader: request.headers.get("Cookie"), route: `/${params.funnel}`, stepParam: params.step, version });
  if (outcome.kind === "not-found") throw notFound(request);
  if (outcome.kind === "redirect") throw redirect(safeRedirect(outcome.to, "/"), { headers: cookieHeaders(outcome.setCookie) });
  const pixelEvents: PixelEvent[] = [];
  for (const event of outcome.events ?? []) {
    const eventId = await recordEvent({ ...event, visitorId: context.visitorId });
    // The pixel's ViewContent / Lead carry the first-party event's id (de-duplication).
    if (eventId && env.metaPixelId && event.funnel) {
      const info = { funnel: event.funnel, title: outcome.view.funnel.pageTitle, eventId };
      if (event.name === "funnel_viewed") pixelEvents.push(viewContentEvent(info));
      if (event.name === "funnel_completed") pixelEvents.push(leadEvent(info));
    }
  }
  if (pixelEvents.length) return data({ ...outcome.view, pixelEvents }, { headers: cookieHeaders(outcome.setCookie) });
  // Opening this step changed nothing, so its rendered page may be served again from memory.
  const view = outcome.events?.length || outcome.setCookie ? outcome.view : markReusable(outcome.view);
  return data(view, { headers: cookieHeaders(outcome.setCookie) });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const version = await funnelVersion(request, params, context.visitorId);
  const at = await stepToAnswer({ cookieHeader: request.headers.get("Cookie"), route: `/${params.funnel}`, stepParam: params.step, version });
  if (!at) throw notFound(request);
  if (isGo(at)) return goTo(at);
  const { submission, status } = await parseForm(request, at.form);
  if (submission.status !== "success") return data(submission.reply(), { status });
  const answered = await answerFunnelStep(at, submission.value);
  if (isRefusal(answered)) return replyRefused(submission, answered);
  for (const event of answered.events) await recordEvent({ ...event, visitorId: context.visitorId });
  return goTo(answered);
}

export const meta: MetaFunction<typeof loader> = (args) => {
  const data = args.data;
  if (!data) return seo(args, { title: "Glow Coach", description: "Personal skincare and makeup coaching." });
  const heading = "headline" in data.step ? data.step.headline : "title" in data.step ? data.step.title : undefined;
  return seo(args, { title: `${data.funnel.pageTitle} · Glow Coach`, description: heading ?? data.funnel.pageTitle });
};

export default function FunnelStepRoute() {
  const view = useLoaderData<typeof loader>();
  return <FunnelStep view={view} />;
}
