/**
 * The loader and action behind every offer page (/subscribe, /subscribe-otp, /sales,
 * /cakey-otp). Each route module passes its path; the page itself is a content document.
 */
import { recordOfferViewed } from "~/analytics/events.server";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { getSession } from "~/auth/guards.server";
import { getOfferByPath } from "~/content/content.server";
import { fieldsOf, readFormEntries } from "~/utils/form.server";
import { notFound } from "~/utils/http.server";
import { displayPrice, percentOff, planText } from "./catalogue";
import { startCheckout } from "./checkout.server";
import { offerCountdown } from "./countdown.server";
import { CHECKOUT_ERROR, NOT_ON_SALE } from "./messages";
import { env } from "~/utils/env.server";
import type { Offer } from "./offer-schema";
import { logger } from "~/utils/logger.server";


/**
 * Presented offers by offer document. Content documents are parsed once and kept until
 * content changes (app/content/content.server.ts), so a document object stands for one
 * version: its presentation is worked out once, not on every page view.
 */
const presented = new WeakMap<Offer, OfferView>();

/** An offer as the page renders it: every price already written out from the catalogue. */
export function presentOffer(offer: Offer): OfferView {
  let view = presented.get(offer);
  if (!view) {
    view = buildOfferView(offer);
    presented.set(offer, view);
  }
  return view;
}

function buildOfferView(offer: Offer) {
  return {
    offerId: offer.offerId,
    path: offer.path,
    pageTitle: offer.pageTitle,
    description: offer.description,
    processingLabel: offer.processingLabel,
    hasCountdown: offer.countdownSeconds !== undefined,
    plans: offer.plans.map((plan) => ({
      id: plan.id,
      tier: plan.tier,
      name: plan.name,
      badge: plan.badge ?? null,
      price: displayPrice(plan.priceMinor, plan.currency),
      priceSuffix: plan.priceSuffix,
      compareAt: plan.compareAtMinor ? displayPrice(plan.compareAtMinor, plan.currency) : null,
      percentOff: plan.compareAtMinor ? percentOff(plan.priceMinor, plan.compareAtMinor) : null,
      priceNote: plan.priceNote ? planText(plan.priceNote, plan) : null,
      buttonLabel: planText(plan.buttonLabel, plan),
      features: plan.features.map((f) => planText(f, plan)),
      finePrint: plan.finePrint ? planText(plan.finePrint, plan) : null,
      featured: plan.featured,
    })),
    sections: offer.sections,
  };
}
export type OfferView = ReturnType<typeof buildOfferView>;

export async function offerLoader({ request, context }: LoaderFunctionArgs, path: string) {
  const offer = await getOfferByPath(path);
  if (!offer) throw notFound(request);
  // The funnel → offer step of the admin's conversion view.
  await recordOfferViewed({ visitorId: context.visitorId, offer: offer.offerId });
  const headers = new Headers();
  let remainingSeconds: number | null = null;
  if (offer.countdownSeconds) {
    const countdown = await offerCountdown(request.headers.get("Cookie"), offer.offerId, offer.countdownSeconds);
    remainingSeconds = countdown.remainingSeconds;
    if (countdown.setCookie) headers.append("Set-Cookie", countdown.setCookie);
  }
  return data({ offer: presentOffer(offer), remainingSeconds, onSale: !env.paymentsOff }, { headers });
}

type ActionAnswer = { checkoutError: { title: string; description: string } };

/** A plan button: create the checkout and go there (303), or say it failed. */
export async function offerAction({ request, context }: ActionFunctionArgs, path: string) {
  const offer = await getOfferByPath(path);
  if (!offer) throw notFound(request);
  const form = await readFormEntries(request);
  if (!form.ok) return data<ActionAnswer>({ checkoutError: CHECKOUT_ERROR }, { status: form.status });
  if (env.paymentsOff) return data<ActionAnswer>({ checkoutError: NOT_ON_SALE }, { status: 409 });
  const { intent, planId } = fieldsOf(form.entries);
  if (intent !== "checkout" || !planId) return data<ActionAnswer>({ checkoutError: CHECKOUT_ERROR }, { status: 400 });

  const started = await startCheckout({
    offer,
    planId,
    // Signed in (or holding a purchase session): the checkout is for that account's address.
    user: (await getSession(request))?.user ?? null,
    visitorId: context.visitorId,
    cookieHeader: request.headers.get("Cookie"),
  });
  if (!started.ok) {
    logger.error(`[checkout] ${started.reason}`);
    return data<ActionAnswer>({ checkoutError: CHECKOUT_ERROR }, { status: started.status });
  }
  return redirect(started.url, 303);
}
