/**
 * What every offer page (/subscribe, /subscribe-otp, /sales, /cakey-otp) shows a visitor, and
 * what its plan buttons do. The page itself is a content document; the routes
 * (offer-route.server.ts) turn these values into responses.
 */
import type { AdBrowser } from "~/analytics/conversions.server";
import { recordOfferViewed } from "~/analytics/events.server";
import type { SessionUser } from "~/auth/users.server";
import { entitlementsOf, ownedEntitlement, type EntitlementView } from "~/billing/entitlements.server";
import { getOfferByPath, getPlan } from "~/content/content.server";
import { offerForViewer } from "~/experiments/experiments.server";
import { attachVisitorAnswers, visitorAnswers } from "~/members/answers.server";
import { personalisePlan, planAnswers } from "~/members/personalise";
import { go, refusal, type Go, type Refusal } from "~/utils/outcome";
import { displayPrice, intervalOf, percentOff, planText } from "~/billing/catalogue";
import { startCheckout } from "./checkout.server";
import { offerCountdown } from "./countdown.server";
import { CHECKOUT_ERROR, NOT_ON_SALE } from "./messages";
import { env } from "~/utils/env.server";
import type { Offer } from "../content-model/offer";
import { planPreview, type PreviewStep, type PreviewTip, type ProductMatch } from "./offer-page-preview";
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
    /** The one-tap offer's "save my card" box under each plan button (ADR 45), or null: none. */
    saveCardLabel: offer.oneTapOffer?.consentLabel ?? null,
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

/** What an offer page shows this visitor. */
export type OfferPageView = {
  offer: OfferView;
  /** Seconds left on this visitor's countdown; null: no countdown (none on the offer, run out, or a member who has the plan). */
  remainingSeconds: number | null;
  matches: ProductMatch[];
  /** The routine section's steps and the tips section's tips: the plan's, for this visitor's answers. */
  routine: PreviewStep[];
  tips: PreviewTip[];
  reason: string | null;
  personalised: boolean;
  owned: Ownership | null;
  /** False with PAYMENTS=off: plan buttons say the plan is not on sale. */
  onSale: boolean;
  /** The experiment variant shown ("experiment:variant"), or null: stored renders key on it. */
  variant: string | null;
};

/**
 * The offer page at `path` for this visitor (`user`: a full session's, else null), with the
 * cookies to set (the countdown's deadline on a first view); null: no offer lives there.
 * Records the view for the admin's funnel → offer conversion.
 */
export async function offerPage(input: {
  path: string;
  user: SessionUser | null;
  visitorId: string;
  cookieHeader: string | null;
}): Promise<{ view: OfferPageView; cookies: string[] } | null> {
  const { user, cookieHeader } = input;
  const page = await getOfferByPath(input.path);
  if (!page) return null;
  // The visitor's variant of an experiment running on this offer (the checkout prices from the same).
  const { offer, variant } = await offerForViewer(page, { visitorId: input.visitorId, userId: user?.id });
  recordOfferViewed({ visitorId: input.visitorId, offer: offer.offerId, userId: user?.id });
  const [personal, entitlements] = await Promise.all([personalFor(offer, user, cookieHeader), user ? entitlementsOf(user.id) : []]);
  const owned = ownedEntitlement(entitlements, offer.routinePlan._ref);
  const cookies: string[] = [];
  // The countdown runs from this visitor's first view. Once it has run out, and for someone
  // who already has the plan, there is no countdown at all: never a live "0:00".
  let remainingSeconds: number | null = null;
  if (offer.countdownSeconds && !owned) {
    const countdown = await offerCountdown(cookieHeader, offer.offerId, offer.countdownSeconds);
    remainingSeconds = countdown.remainingSeconds > 0 ? countdown.remainingSeconds : null;
    if (countdown.setCookie) cookies.push(countdown.setCookie);
  }
  const { matches, routine, tips } = planPreview(offer.sections, personal);
  const view: OfferPageView = {
    offer: presentOffer(offer),
    remainingSeconds,
    matches,
    routine,
    tips,
    reason: personal?.reason ?? null,
    personalised: personal?.personalised ?? false,
    owned: owned ? ownershipOf(offer, owned) : null,
    onSale: !env.paymentsOff,
    variant,
  };
  return { view, cookies };
}

/**
 * A plan button pressed: the checkout to carry on at (the gateway's page), or why there is
 * none. A member who already has the offer's product is refused with what they have
 * ("You already have the Annual plan"), as a refusal of the plan chosen (`field: "planId"`);
 * every other refusal is the form's, in the error catalogue's words. Null: no offer at `path`.
 * `user` is the session's of either kind: a purchase session's checkout is for its address.
 */
export async function checkoutFromOffer(input: {
  path: string;
  planId: string;
  user: SessionUser | null;
  visitorId: string;
  cookieHeader: string | null;
  /** The browser, when it consented to Meta's pixel: the checkout's InitiateCheckout is reported (ADR 32). */
  adBrowser?: AdBrowser | null;
  /** The "save my card" box of the one-tap offer (ADR 45). */
  saveCard?: boolean;
}): Promise<Go | Refusal | null> {
  const page = await getOfferByPath(input.path);
  if (!page) return null;
  // Priced from the variant this visitor was shown, never from anything the form sends.
  const { offer } = await offerForViewer(page, { visitorId: input.visitorId, userId: input.user?.id });
  if (env.paymentsOff) return refusal(409, NOT_ON_SALE.description);
  const started = await startCheckout({
    offer,
    planId: input.planId,
    user: input.user,
    visitorId: input.visitorId,
    cookieHeader: input.cookieHeader,
    adBrowser: input.adBrowser,
    saveCard: input.saveCard,
  });
  if (started.ok) return go(started.url);
  if ("owned" in started) return refusal(409, ownershipOf(offer, started.owned).headline, { field: "planId" });
  logger.error(`[checkout] ${started.reason}`);
  return refusal(started.status, CHECKOUT_ERROR.description);
}
