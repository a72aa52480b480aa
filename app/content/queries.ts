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

/** The active plan: the spec fetches only one. The newest edit wins if two are marked active. */
export const ACTIVE_PLAN = /* groq */ `*[_type == "plan" && isActive == true] | order(_updatedAt desc)[0]`;

export const PLAN_BY_ID = /* groq */ `*[_type == "plan" && _id == $id][0]`;

export const TUTORIAL_STEP = /* groq */ `*[_type == "tutorialStep" && number == $number][0]`;

export const TUTORIAL_SETTINGS = /* groq */ `*[_id == "tutorialSettings"][0]`;

export const HOME_PAGE = /* groq */ `*[_id == "page-home"][0]`;

/** The offer page living at a path ("/subscribe"). */
export const OFFER_BY_PATH = /* groq */ `*[_type == "offer" && path == $path][0]`;

/** An offer by its stable id (checkouts and webhooks name offers by id). */
export const OFFER_BY_ID = /* groq */ `*[_type == "offer" && offerId == $offerId][0]`;
