import type { OfferSection } from "../../../content-model/offer";

/** What a section component is given: its part of the offer document, and whether it opens the page. */
export type SectionProps<T extends OfferSection["_type"]> = { section: Extract<OfferSection, { _type: T }>; first: boolean };
