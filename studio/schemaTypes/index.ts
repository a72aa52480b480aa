/**
 * Every type the Studio knows. Documents are what marketers create and list; singletons
 * exist once (fixed ids the app reads); objects are the parts they are built from.
 * A new content type is one file in documents/ (or singletons/) added to the list here,
 * plus a line in ../structure.ts.
 */
import { experiment, experimentVariant, planChange } from "./documents/experiment";
import { funnel } from "./documents/funnel";
import { insight } from "./documents/insight";
import { legalPage } from "./documents/legal-page";
import { offer, offerPlan } from "./documents/offer";
import { plan, planStep } from "./documents/plan";
import { product } from "./documents/product";
import { question } from "./documents/question";
import { tutorialStep } from "./documents/tutorial-step";
import { contentParts } from "./objects/content-parts";
import { funnelParts } from "./objects/funnel-parts";
import { landingPage } from "./singletons/landing-page";
import { homePage, tutorialSettings } from "./singletons/members-pages";
import { partnershipsPage } from "./singletons/partnerships-page";
import { siteSettings } from "./singletons/site-settings";

export const documentTypes = [funnel, question, insight, offer, plan, tutorialStep, product, legalPage, experiment];

/** Singleton documents by type, with the one _id the app reads each from (app/content/queries.ts). */
export const singletons = [
  { type: siteSettings, id: "siteSettings" },
  { type: landingPage, id: "page-landing" },
  { type: partnershipsPage, id: "page-partnerships" },
  { type: homePage, id: "page-home" },
  { type: tutorialSettings, id: "tutorialSettings" },
] as const;

export const schemaTypes = [
  ...documentTypes,
  ...singletons.map((s) => s.type),
  planStep,
  offerPlan,
  experimentVariant,
  planChange,
  ...contentParts,
  ...funnelParts,
];
