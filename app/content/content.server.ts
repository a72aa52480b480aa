/**
 * The content the app reads, parsed and cached in memory. Routes call these functions;
 * nothing else runs queries.
 */
import { z } from "zod";
import type { Funnel } from "~/content-model/funnel";
import { resolveFunnel, stripCmsFields } from "~/content/funnel-resolve";
import { ResolvedExperiment } from "~/content-model/experiment";
import {
  ALL_EXPERIMENTS,
  ALL_FUNNELS,
  DEFAULT_PLAN,
  HOME_PAGE,
  INSIGHT_BY_ID,
  LANDING_PAGE,
  LEGAL_PAGE,
  OFFER_BY_ID,
  OFFER_BY_DOCUMENT,
  OFFER_BY_PATH,
  OFFER_FOR_PLAN,
  OFFER_PATHS,
  REFUND_WINDOWS,
  PARTNERSHIPS_PAGE,
  PLAN_BY_ID,
  SITE_SETTINGS,
  TUTORIAL_SETTINGS,
  TUTORIAL_STEP,
} from "./queries";
import { Offer } from "~/content-model/offer";
import { withImageUrls, type ImageCdn } from "./image-urls.server";
import { inPreview } from "./preview.server";
import { contentSources, embeddedContent, type ContentSource, type ContentSources } from "./source.server";
import { HomePage, Insight, LandingPage, LegalPage, PartnershipsPage, ResolvedPlan, ResolvedTutorialStep, SiteSettings, TutorialSettings } from "../content-model/content-types";
import { env } from "~/utils/env.server";
import { logger } from "~/utils/logger.server";

/** Parsed query results by query + params; the Sanity webhook calls invalidateContent(). */
const cache = new Map<string, Promise<unknown>>();
/** The last version of each key that parsed, served when a newer one is broken. */
const lastGood = new Map<string, unknown>();

/** Goes up whenever content may have changed; anything derived from content keys on it. */
let generation = 0;

/**
 * What else must go when content changes: the page caches built from it register here. They
 * sit above content (funnels/, render/), so content calls them back instead of importing them.
 */
const contentChangeListeners = new Set<() => void>();

export function onContentChange(forget: () => void): void {
  contentChangeListeners.add(forget);
}

export function invalidateContent(): void {
  cache.clear();
  generation++;
  for (const forget of contentChangeListeners) forget();
}

export function contentGeneration(): number {
  return generation;
}

type Parsed<T> = { ok: true; value: T } | { ok: false; problems: string[] };
/** `remember`: the value may become a "last good" version (never true for drafts). */
type Parse<T> = (raw: unknown, remember: boolean) => Parsed<T> | Promise<Parsed<T>>;

/** Uploaded images are served by Sanity's image CDN when content comes from Sanity. */
function imageCdn(): ImageCdn | null {
  return env.sanity ? { baseUrl: env.sanity.cdnUrl, projectId: env.sanity.projectId, dataset: env.sanity.dataset } : null;
}

function zodParse<T>(schema: z.ZodType<T>): Parse<T> {
  return (raw) => {
    const result = schema.safeParse(raw);
    return result.success
      ? { ok: true, value: withImageUrls(result.data, imageCdn()) }
      : { ok: false, problems: result.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`) };
  };
}

/** The sources the caches and last good versions came from (contentSources: one per configuration). */
let cachedFrom: ContentSources | undefined;

/** The sources in force; when they are new (settings parsed again, in tests), what came from the old ones goes. */
function sources(): ContentSources {
  const now = contentSources();
  if (cachedFrom && cachedFrom !== now) {
    lastGood.clear();
    lastGoodFunnels.clear();
    invalidateContent();
  }
  cachedFrom = now;
  return now;
}

/** Content comes from Sanity, with the embedded dataset as the fallback for broken documents. */
const remote = () => sources().published !== embeddedContent;

/**
 * Runs a query and parses its result. A missing document is null. A document that fails
 * validation is logged with its id and the failing paths, and the last good version (or,
 * when the CMS never sent a good one, the embedded one) is served instead, so a bad edit
 * never breaks a page. In preview, drafts are read, uncached and never remembered.
 */
async function load<T>(query: string, params: Record<string, unknown>, parse: Parse<T>): Promise<T | null> {
  const key = `${query}\u0000${JSON.stringify(params)}`;
  const { published, drafts } = sources();
  if (inPreview() && drafts) return fetchAndParse(drafts, key, query, params, parse, false);
  // Only the dev server re-reads the embedded dataset on every request (file edits show at once).
  const cacheable = env.nodeEnv !== "development" || published !== embeddedContent;
  let pending = cacheable ? (cache.get(key) as Promise<T | null> | undefined) : undefined;
  if (!pending) {
    pending = fetchAndParse(published, key, query, params, parse, true);
    if (cacheable) {
      cache.set(key, pending);
      // A failed fetch should be retried next time, not cached.
      pending.catch(() => cache.delete(key));
    }
  }
  return pending;
}

async function fetchAndParse<T>(
  source: ContentSource,
  key: string,
  query: string,
  params: Record<string, unknown>,
  parse: Parse<T>,
  remember: boolean,
): Promise<T | null> {
  let raw: unknown;
  try {
    raw = await source.fetch(query, params);
  } catch (error) {
    if (source === embeddedContent) throw error;
    // The CMS did not answer: serve what we had, and ask again next time.
    logger.error(`[content] ${source.name} did not answer (${(error as Error).message}); serving the last good content`);
    cache.delete(key);
    return fallback(key, query, params, parse);
  }
  if (raw === null || raw === undefined) return null;
  const parsed = await parse(raw, remember);
  if (parsed.ok) {
    if (remember) lastGood.set(key, parsed.value);
    return parsed.value;
  }
  const id = (raw as { _id?: string })._id ?? JSON.stringify(params);
  logger.error(`[content] document ${id} is invalid and was not used:\n  ${parsed.problems.join("\n  ")}`);
  return fallback(key, query, params, parse);
}

/** The last good version, else the embedded dataset's copy when it is valid, else nothing. */
async function fallback<T>(key: string, query: string, params: Record<string, unknown>, parse: Parse<T>): Promise<T | null> {
  if (lastGood.has(key)) return lastGood.get(key) as T;
  if (!remote()) return null;
  const raw = await embeddedContent.fetch(query, params);
  if (raw === null || raw === undefined) return null;
  const parsed = await parse(raw, false);
  return parsed.ok ? parsed.value : null;
}

/** Funnels by route. A funnel document that fails validation is left out (and logged),
 * keeping its last good version, or the embedded one, if there is one. */
const parseFunnels: Parse<Map<string, Funnel>> = async (raw, remember) => {
  const { funnels, sharedQuestions } = raw as { funnels?: unknown[]; sharedQuestions?: { _id: string }[] };
  const shared = new Map((sharedQuestions ?? []).map((q) => [q._id, q as unknown]));
  const byRoute = new Map<string, Funnel>();
  const broken: string[] = [];
  for (const doc of funnels ?? []) {
    const id = String((doc as { _id?: string })._id);
    const result = resolveFunnel(doc, shared);
    if (result.ok) {
      if (remember) lastGoodFunnels.set(id, result.funnel);
      byRoute.set(result.funnel.route, result.funnel);
      continue;
    }
    logger.error(`[content] funnel ${id} is invalid and was not used:\n  ${result.problems.join("\n  ")}`);
    const previous = lastGoodFunnels.get(id);
    if (previous) byRoute.set(previous.route, previous);
    else broken.push(id);
  }
  if (broken.length && remote()) {
    const embedded = (await embeddedContent.fetch(ALL_FUNNELS, {})) as { funnels: { _id: string }[]; sharedQuestions: { _id: string }[] };
    const embeddedShared = new Map(embedded.sharedQuestions.map((q) => [q._id, q as unknown]));
    for (const id of broken) {
      const doc = embedded.funnels.find((f) => f._id === id);
      const result = doc ? resolveFunnel(doc, embeddedShared) : undefined;
      if (result?.ok && !byRoute.has(result.funnel.route)) byRoute.set(result.funnel.route, result.funnel);
    }
  }
  return { ok: true, value: byRoute };
};
const lastGoodFunnels = new Map<string, Funnel>();

export async function getFunnels(): Promise<ReadonlyMap<string, Funnel>> {
  return (await load(ALL_FUNNELS, {}, parseFunnels)) ?? new Map();
}

/** The funnel living at a route such as "/quiz". */
export async function getFunnelByRoute(route: string): Promise<Funnel | null> {
  return (await getFunnels()).get(route) ?? null;
}

/** A funnel by its id, e.g. "app-quiz" (used where one funnel reads another's answers). */
export async function getFunnelById(id: string): Promise<Funnel | null> {
  for (const funnel of (await getFunnels()).values()) if (funnel.id === id) return funnel;
  return null;
}

export function getInsight(id: string): Promise<Insight | null> {
  return load(INSIGHT_BY_ID, { id }, zodParse(Insight));
}

export async function getSiteSettings(): Promise<SiteSettings> {
  const settings = await load(SITE_SETTINGS, {}, zodParse(SiteSettings));
  if (!settings) throw new Error("The content dataset has no valid siteSettings document.");
  return settings;
}

export function getLandingPage(): Promise<LandingPage | null> {
  return load(LANDING_PAGE, {}, zodParse(LandingPage));
}

export function getPartnershipsPage(): Promise<PartnershipsPage | null> {
  return load(PARTNERSHIPS_PAGE, {}, zodParse(PartnershipsPage));
}

export function getLegalPage(slug: LegalPage["slug"]): Promise<LegalPage | null> {
  return load(LEGAL_PAGE, { slug }, zodParse(LegalPage));
}

/** The plan members who own none see (the one plan marked active), or null when none is marked. */
export function getDefaultPlan(): Promise<ResolvedPlan | null> {
  return load(DEFAULT_PLAN, {}, zodParse(ResolvedPlan));
}

export function getPlan(id: string): Promise<ResolvedPlan | null> {
  return load(PLAN_BY_ID, { id }, zodParse(ResolvedPlan));
}

/** A tutorial page by its document id (plans list theirs in order). */
export function getTutorialStep(id: string): Promise<ResolvedTutorialStep | null> {
  return load(TUTORIAL_STEP, { id }, zodParse(ResolvedTutorialStep));
}

export async function getTutorialSettings(): Promise<TutorialSettings> {
  const settings = await load(TUTORIAL_SETTINGS, {}, zodParse(TutorialSettings));
  if (!settings) throw new Error("The content dataset has no valid tutorialSettings document.");
  return settings;
}

export async function getHomePage(): Promise<HomePage> {
  const page = await load(HOME_PAGE, {}, zodParse(HomePage));
  if (!page) throw new Error("The content dataset has no valid page-home document.");
  return page;
}

/** The offer page at a path, or null (no such offer, or an invalid document never seen valid). */
export function getOfferByPath(path: string): Promise<Offer | null> {
  return load(OFFER_BY_PATH, { path }, zodParse(Offer));
}

export function getOfferById(offerId: string): Promise<Offer | null> {
  return load(OFFER_BY_ID, { offerId }, zodParse(Offer));
}

/** The offer a reference points at (its document _id). */
export function getOfferByDocumentId(id: string): Promise<Offer | null> {
  return load(OFFER_BY_DOCUMENT, { id }, zodParse(Offer));
}

/** A content page: an offer page or a quiz, at its own address. */
export type ContentPage = { path: string; kind: "offer" | "funnel" };

const OfferPaths = z.array(z.unknown()).transform((paths) => paths.filter((p): p is string => typeof p === "string" && /^\/[a-z0-9-]+$/.test(p)));

/** Every content page live now: the quizzes the app runs and every offer page's address. */
export async function getContentPages(): Promise<ContentPage[]> {
  const [funnels, offerPaths] = await Promise.all([getFunnels(), load(OFFER_PATHS, {}, zodParse(OfferPaths))]);
  return [...[...funnels.keys()].map((path) => ({ path, kind: "funnel" as const })), ...(offerPaths ?? []).map((path) => ({ path, kind: "offer" as const }))];
}

/** What lives at a content address ("/glow-offer"): a quiz, an offer page, or nothing. A quiz wins (funnels:check refuses both at one address). */
export async function contentPageAt(path: string): Promise<ContentPage["kind"] | null> {
  if (await getFunnelByRoute(path)) return "funnel";
  return (await getOfferByPath(path)) ? "offer" : null;
}

/** The offer page that sells a routine plan, or null. */
const RefundWindows = z.array(z.object({ product: z.string(), plans: z.array(z.object({ name: z.string(), refundDays: z.number().int().min(0) })) }));

/** Every offer's plans with their refund windows, by product (for the Terms). */
export async function getRefundWindows(): Promise<z.infer<typeof RefundWindows>> {
  return (await load(REFUND_WINDOWS, {}, zodParse(RefundWindows))) ?? [];
}

export function getOfferForPlan(planId: string): Promise<Offer | null> {
  return load(OFFER_FOR_PLAN, { planId }, zodParse(Offer));
}

/**
 * Every experiment, running and stopped (a stopped one keeps its results in the admin). Each
 * document is parsed on its own: one that fails validation is logged and its last good
 * version used, else left out (its subject is then shown as written).
 */
const parseExperiments: Parse<ResolvedExperiment[]> = (raw, remember) => {
  const experiments: ResolvedExperiment[] = [];
  for (const doc of Array.isArray(raw) ? raw : []) {
    const id = String((doc as { _id?: string })._id);
    const result = ResolvedExperiment.safeParse(stripCmsFields(doc));
    if (result.success) {
      if (remember) lastGoodExperiments.set(id, result.data);
      experiments.push(result.data);
      continue;
    }
    logger.error(`[content] experiment ${id} is invalid and was not used:\n  ${result.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("\n  ")}`);
    const previous = lastGoodExperiments.get(id);
    if (previous) experiments.push(previous);
  }
  return { ok: true, value: experiments };
};
const lastGoodExperiments = new Map<string, ResolvedExperiment>();

export async function getExperiments(): Promise<readonly ResolvedExperiment[]> {
  return (await load(ALL_EXPERIMENTS, {}, parseExperiments)) ?? [];
}
