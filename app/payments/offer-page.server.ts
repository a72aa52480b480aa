/**
 * The loader and action behind every offer page (/subscribe, /subscribe-otp, /sales,
 * /cakey-otp). Each route module passes its path; the page itself is a content document.
 */
import { recordOfferViewed } from "~/analytics/events.server";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { getSession, getUser } from "~/auth/guards.server";
import type { SessionUser } from "~/auth/users.server";
import { entitlementsOf, ownedEntitlement, type EntitlementView } from "~/billing/entitlements.server";
import { getOfferByPath, getPlan } from "~/content/content.server";
import { offerForViewer } from "~/experiments/experiments.server";
import { attachVisitorAnswers, visitorAnswers } from "~/members/answers.server";
import { personalisePlan, planAnswers } from "~/members/personalise";
import { fieldsOf, readFormEntries } from "~/utils/form.server";
import { notFound } from "~/utils/http.server";
import { displayPrice, intervalOf, percentOff, planText } from "./catalogue";
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

/** What a member who already has this offer's product sees instead of buying it again. */
export type Ownership = {
  entitlementId: string;
  /** The offer's plan they are on ("annual"). */
  planId: string;
  /** "You already have the Annual plan", or "Lifetime Access Active". */
  headline: string;
  /** Their plan in the app. */
  planHref: string;
  /** A subscription: 'Manage Subscription', and switching to the offer's other recurring plans. */
  recurring: boolean;
  switchTo: string[];
};

const TIER_WORD = { monthly: "Monthly", annual: "Annual" } as const;

export function ownershipOf(offer: Offer, owned: EntitlementView): Ownership {
  const recurring = owned.tier === "monthly" || owned.tier === "annual";
  return {
    entitlementId: owned.id,
    planId: owned.planId,
    headline: recurring ? `You already have the ${TIER_WORD[owned.tier as "monthly" | "annual"]} plan` : "Lifetime Access Active",
    planHref: `/plan/${owned.routinePlanId}`,
    recurring,
    switchTo: recurring ? offer.plans.filter((p) => p.id !== owned.planId && intervalOf(p.tier) !== null).map((p) => p.id) : [],
  };
}

/** One card of the "chosen for your skin" section: the product in that place, its name only when unlocked. */
export type ProductMatch = { kind: string; name: string | null; fitLabel: string; fitPercent: number; locked: boolean };

/**
 * The offer's routine plan made personal for whoever is looking: the member's answers (this
 * browser's attached to their account) or, for a visitor, the answers in this browser.
 */
async function personalFor(offer: Offer, user: SessionUser | null, cookieHeader: string | null) {
  const plan = await getPlan(offer.routinePlan._ref);
  if (!plan) return null;
  const sets = user ? await attachVisitorAnswers(user.id, cookieHeader) : await visitorAnswers(cookieHeader);
  return personalisePlan(plan, planAnswers(plan.answersFrom, sets));
}

export async function offerLoader({ request, context }: LoaderFunctionArgs, path: string) {
  const page = await getOfferByPath(path);
  if (!page) throw notFound(request);
  const user = await getUser(request);
  // The visitor's variant of an experiment running on this offer (the checkout prices from the same).
  const { offer, variant } = await offerForViewer(page, { visitorId: context.visitorId, userId: user?.id });
  const cookieHeader = request.headers.get("Cookie");
  // The funnel → offer step of the admin's conversion view.
  recordOfferViewed({ visitorId: context.visitorId, offer: offer.offerId, userId: user?.id });
  const [personal, entitlements] = await Promise.all([personalFor(offer, user, cookieHeader), user ? entitlementsOf(user.id) : []]);
  const owned = ownedEntitlement(entitlements, offer.routinePlan._ref);
  const headers = new Headers();
  // The countdown runs from this visitor's first view. Once it has run out, and for someone
  // who already has the plan, there is no countdown at all: never a live "0:00".
  let remainingSeconds: number | null = null;
  if (offer.countdownSeconds && !owned) {
    const countdown = await offerCountdown(cookieHeader, offer.offerId, offer.countdownSeconds);
    remainingSeconds = countdown.remainingSeconds > 0 ? countdown.remainingSeconds : null;
    if (countdown.setCookie) headers.append("Set-Cookie", countdown.setCookie);
  }
  const fits = offer.sections.flatMap((section) => (section._type === "lockedProducts" ? section.fits : []));
  const matches: ProductMatch[] = personal
    ? fits.flatMap((fit, i) => {
        const product = personal.products[i];
        return product
          ? [{ kind: product.kind, name: fit.locked ? null : product.name, fitLabel: fit.fitLabel, fitPercent: fit.fitPercent, locked: fit.locked }]
          : [];
      })
    : [];
  return data(
    {
      offer: presentOffer(offer),
      remainingSeconds,
      matches,
      reason: personal?.reason ?? null,
      personalised: personal?.personalised ?? false,
      owned: owned ? ownershipOf(offer, owned) : null,
      onSale: !env.paymentsOff,
      // Stored renders key on the loader data: one per variant.
      variant,
    },
    { headers },
  );
}

type ActionAnswer = { checkoutError: { title: string; description: string } } | { alreadyOwned: string };

/** A plan button: create the checkout and go there (303), or say it failed, or what they already have. */
export async function offerAction({ request, context }: ActionFunctionArgs, path: string) {
  const page = await getOfferByPath(path);
  if (!page) throw notFound(request);
  const session = await getSession(request);
  // Priced from the variant this visitor was shown, never from anything the form sends.
  const { offer } = await offerForViewer(page, { visitorId: context.visitorId, userId: session?.user.id });
  const form = await readFormEntries(request);
  if (!form.ok) return data<ActionAnswer>({ checkoutError: CHECKOUT_ERROR }, { status: form.status });
  if (env.paymentsOff) return data<ActionAnswer>({ checkoutError: NOT_ON_SALE }, { status: 409 });
  const { intent, planId } = fieldsOf(form.entries);
  if (intent !== "checkout" || !planId) return data<ActionAnswer>({ checkoutError: CHECKOUT_ERROR }, { status: 400 });

  const started = await startCheckout({
    offer,
    planId,
    // Signed in (or holding a purchase session): the checkout is for that account's address.
    user: session?.user ?? null,
    visitorId: context.visitorId,
    cookieHeader: request.headers.get("Cookie"),
  });
  if (!started.ok) {
    if ("owned" in started) return data<ActionAnswer>({ alreadyOwned: ownershipOf(offer, started.owned).headline }, { status: 409 });
    logger.error(`[checkout] ${started.reason}`);
    return data<ActionAnswer>({ checkoutError: CHECKOUT_ERROR }, { status: started.status });
  }
  return redirect(started.url, 303);
}
