/**
 * Every GROQ query the app runs, in one file. The same text runs on the embedded
 * dataset (groq-js) and on Sanity.
 */

/**
 * Every funnel with the shared question documents they reference. Loaded as one set
 * (there are a handful), so looking up a URL never queries per path.
 */
export const ALL_FUNNELS = /* groq */ `{
  "funnels": *[_type == "funnel"],
  "sharedQuestions": *[_type == "question" && _id in *[_type == "funnel"].steps[].questions[]._ref]
}`;

export const INSIGHT_BY_ID = /* groq */ `*[_type == "insight" && _id == $id][0]`;

export const PARTNERSHIPS_PAGE = /* groq */ `*[_id == "page-partnerships"][0]`;

export const LEGAL_PAGE = /* groq */ `*[_type == "legalPage" && slug == $slug][0]`;

export const SITE_SETTINGS = /* groq */ `*[_id == "siteSettings"][0]`;

export const LANDING_PAGE = /* groq */ `*[_id == "page-landing"][0]`;

/** A product as pages show it (plans and tutorial pages reference product documents). */
const PRODUCT = /* groq */ `{_id, _type, name, kind, description, details, howToUse, image, shopUrl}`;

/** A video with the address of its uploaded file (and captions file), when it has one. */
const VIDEO = /* groq */ `video{..., "fileUrl": file.asset->url, "captions": captions{..., "fileUrl": file.asset->url}}`;

/** A plan with its references resolved: funnel ids, tutorial page ids, the products themselves. */
const PLAN = /* groq */ `{
  ...,
  "answersFrom": answersFrom[]->id,
  "tutorial": tutorial[]._ref,
  "steps": steps[]{..., "video": ${VIDEO}},
  "products": {
    "rules": products.rules[]{when, "products": products[]->${PRODUCT}},
    "otherwise": products.otherwise[]->${PRODUCT}
  }
}`;

/** The plan shown to members who own none (the one plan marked active). The newest edit wins if two are marked active. */
export const DEFAULT_PLAN = /* groq */ `*[_type == "plan" && isActive == true] | order(_updatedAt desc)[0]${PLAN}`;

export const PLAN_BY_ID = /* groq */ `*[_type == "plan" && _id == $id][0]${PLAN}`;

/** A tutorial page by id, with its products. */
export const TUTORIAL_STEP = /* groq */ `*[_type == "tutorialStep" && _id == $id][0]{..., "recommended": recommended[]->${PRODUCT}, "video": ${VIDEO}}`;

/** The offer that sells a routine plan (its page is where a member without the plan can get it). */
export const OFFER_FOR_PLAN = /* groq */ `*[_type == "offer" && routinePlan._ref == $planId] | order(path asc)[0]`;

export const TUTORIAL_SETTINGS = /* groq */ `*[_id == "tutorialSettings"][0]`;

export const HOME_PAGE = /* groq */ `*[_id == "page-home"][0]`;

/** The offer page living at a path ("/subscribe"). */
export const OFFER_BY_PATH = /* groq */ `*[_type == "offer" && path == $path][0]`;

/** The address of every offer page (quizzes' come with the funnels). */
export const OFFER_PATHS = /* groq */ `*[_type == "offer" && defined(path)].path`;

/** Every plan sold with its refund window, by product (the Terms list them, ADR 33). */
export const REFUND_WINDOWS = /* groq */ `*[_type == "offer"] | order(path asc){"product": coalesce(routinePlan->name, pageTitle), "plans": plans[]{name, refundDays}}`;

/** An offer by its stable id (checkouts and webhooks name offers by id). */
export const OFFER_BY_ID = /* groq */ `*[_type == "offer" && offerId == $offerId][0]`;
/** An offer by its document id (a reference's _ref, e.g. a one-tap offer's). */
export const OFFER_BY_DOCUMENT = /* groq */ `*[_type == "offer" && _id == $id][0]`;

/**
 * Every experiment, running and stopped, with its subject as the id the app knows it by: an
 * offer's offerId, a funnel's id.
 */
export const ALL_EXPERIMENTS = /* groq */ `*[_type == "experiment"] | order(experimentId asc){..., "offer": offer->offerId, "funnel": funnel->id}`;
