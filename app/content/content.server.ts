/**
 * The content the app reads, parsed and cached in memory. Routes call these functions;
 * nothing else runs queries.
 */
import type { z } from "zod";
import type { Funnel } from "~/funnels/schema";
import { resolveFunnel } from "~/funnels/resolve";
import { ACTIVE_PLAN, ALL_FUNNELS, HOME_PAGE, INSIGHT_BY_ID, LANDING_PAGE, LEGAL_PAGE, OFFER_BY_ID, OFFER_BY_PATH, PARTNERSHIPS_PAGE, PLAN_BY_ID, SITE_SETTINGS, TUTORIAL_SETTINGS, TUTORIAL_STEP } from "./queries";
import { Offer } from "~/payments/offer-schema";
import { contentSource } from "./source.server";
import { HomePage, Insight, LandingPage, LegalPage, PartnershipsPage, Plan, SiteSettings, TutorialSettings, TutorialStep } from "./types";
import { env } from "~/utils/env.server";

/** Parsed query results by query + params; a CMS webhook (later) calls invalidateContent(). */
const cache = new Map<string, Promise<unknown>>();
/** The last version of each key that parsed, served when a newer one is broken. */
const lastGood = new Map<string, unknown>();

/** Goes up whenever content may have changed; anything derived from content keys on it. */
let generation = 0;

export function invalidateContent(): void {
  cache.clear();
  generation++;
}

export function contentGeneration(): number {
  return generation;
}

type Parse<T> = (raw: unknown) => { ok: true; value: T } | { ok: false; problems: string[] };

function zodParse<T>(schema: z.ZodType<T>): Parse<T> {
  return (raw) => {
    const result = schema.safeParse(raw);
    return result.success
      ? { ok: true, value: result.data }
      : { ok: false, problems: result.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`) };
  };
}

/**
 * Runs a query and parses its result. A missing document is null. A document that fails
 * validation is logged with its id and the failing paths, and the last good version (if
 * any) is served instead, so a bad edit never breaks a page.
 */
async function load<T>(query: string, params: Record<string, unknown>, parse: Parse<T>): Promise<T | null> {
  const key = `${query}\u0000${JSON.stringify(params)}`;
  const cacheable = env.nodeEnv === "production" || contentSourceIsRemote();
  let pending = cacheable ? (cache.get(key) as Promise<T | null> | undefined) : undefined;
  if (!pending) {
    pending = (async () => {
      const raw = await contentSource.fetch(query, params);
      if (raw === null || raw === undefined) return null;
      const parsed = parse(raw);
      if (parsed.ok) {
        lastGood.set(key, parsed.value);
        return parsed.value;
      }
      const id = (raw as { _id?: string })._id ?? JSON.stringify(params);
      console.error(`[content] document ${id} is invalid and was not used:\n  ${parsed.problems.join("\n  ")}`);
      return (lastGood.get(key) as T | undefined) ?? null;
    })();
    if (cacheable) {
      cache.set(key, pending);
      // A failed fetch should be retried next time, not cached.
      pending.catch(() => cache.delete(key));
    }
  }
  return pending;
}

function contentSourceIsRemote() {
  return contentSource.name === "sanity";
}

/** Funnels by route. A funnel document that fails validation is left out (and logged),
 * keeping its last good version if there was one. */
const parseFunnels: Parse<Map<string, Funnel>> = (raw) => {
  const { funnels, sharedQuestions } = raw as { funnels?: unknown[]; sharedQuestions?: { _id: string }[] };
  const shared = new Map((sharedQuestions ?? []).map((q) => [q._id, q as unknown]));
  const byRoute = new Map<string, Funnel>();
  for (const doc of funnels ?? []) {
    const id = String((doc as { _id?: string })._id);
    const result = resolveFunnel(doc, shared);
    if (result.ok) {
      lastGoodFunnels.set(id, result.funnel);
      byRoute.set(result.funnel.route, result.funnel);
      continue;
    }
    console.error(`[content] funnel ${id} is invalid and was not used:\n  ${result.problems.join("\n  ")}`);
    const previous = lastGoodFunnels.get(id);
    if (previous) byRoute.set(previous.route, previous);
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

/** The one active routine plan, or null when none is (the routine button is then disabled). */
export function getActivePlan(): Promise<Plan | null> {
  return load(ACTIVE_PLAN, {}, zodParse(Plan));
}

export function getPlan(id: string): Promise<Plan | null> {
  return load(PLAN_BY_ID, { id }, zodParse(Plan));
}

export function getTutorialStep(number: number): Promise<TutorialStep | null> {
  return load(TUTORIAL_STEP, { number }, zodParse(TutorialStep));
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
