/**
 * One component per section type of the offer document (app/content-model/offer.ts), in one map typed
 * by the schema's section types: a new `_type` fails typecheck until it has a component here.
 */
import type { ComponentType } from "react";
import type { OfferSection } from "../../../content-model/offer";
import { CountdownBanner } from "./countdown-banner";
import { Explanation } from "./explanation";
import { Faq } from "./faq";
import { FinalCta } from "./final-cta";
import { Guarantee } from "./guarantee";
import { Hero } from "./hero";
import { LockedProducts } from "./locked-products";
import { Plans } from "./plans";
import { Routine } from "./routine";
import { SecureCheckout } from "./secure-checkout";
import type { SectionProps } from "./section-props";
import { Testimonials } from "./testimonials";
import { Tips } from "./tips";
import { Urgency } from "./urgency";
import { WhatsInside } from "./whats-inside";

export const SECTIONS: { [T in OfferSection["_type"]]: ComponentType<SectionProps<T>> } = {
  countdownBanner: CountdownBanner,
  hero: Hero,
  plans: Plans,
  lockedProducts: LockedProducts,
  routine: Routine,
  urgency: Urgency,
  tips: Tips,
  testimonials: Testimonials,
  explanation: Explanation,
  guarantee: Guarantee,
  whatsInside: WhatsInside,
  faq: Faq,
  finalCta: FinalCta,
  secureCheckout: SecureCheckout,
};

/** A section of the document, drawn by the component of its type. */
export function Section({ section, first }: { section: OfferSection; first: boolean }) {
  // The map pairs each type with its component; TypeScript cannot follow that pairing through a lookup.
  const Component = SECTIONS[section._type] as ComponentType<{ section: OfferSection; first: boolean }>;
  return <Component section={section} first={first} />;
}
