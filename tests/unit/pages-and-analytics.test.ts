import { describe, expect, it } from "vitest";
import { landingAttribution } from "~/analytics/attribution";
import { pixelBootstrap, purchaseEvent } from "~/analytics/pixel";
import { rememberLanding } from "~/analytics/visitor.server";
import { recordOfferViewed } from "~/analytics/events.server";
import { flushEvents, queuedEventCount } from "~/analytics/event-batch.server";
import { LegalPage, PartnershipsPage, LandingPage, SiteSettings } from "~/content-model/content-types";
import { backHref } from "~/pages/legal.server";
import { parseEnv } from "~/utils/env.server";
import { db } from "~/utils/db.server";
import { canonicalUrl, seo } from "~/utils/seo";
import { embeddedDataset } from "./helpers";

const OWN = "https://glowcoach.app";

describe("landingAttribution", () => {
  it("reads UTM parameters and an external referrer (origin and path only)", () => {
    expect(
      landingAttribution({
        url: `${OWN}/quiz?utm_source=facebook&utm_medium=paid&utm_campaign=spring&utm_term=acne&utm_content=v2`,
        referer: "https://m.facebook.com/story?id=secret",
        ownOrigins: [OWN],
      }),
    ).toEqual({
      landingPath: "/quiz",
      referrer: "https://m.facebook.com/story",
      utmSource: "facebook",
      utmMedium: "paid",
      utmCampaign: "spring",
      utmTerm: "acne",
      utmContent: "v2",
    });
  });
  it("ignores our own pages as referrers, and says nothing when nothing is known", () => {
    expect(landingAttribution({ url: `${OWN}/quiz/2`, referer: `${OWN}/quiz/1`, ownOrigins: [OWN] })).toBeNull();
    expect(landingAttribution({ url: `${OWN}/`, referer: null, ownOrigins: [OWN] })).toBeNull();
    expect(landingAttribution({ url: `${OWN}/`, referer: "not a url", ownOrigins: [OWN] })).toBeNull();
    expect(landingAttribution({ url: `${OWN}/`, referer: "javascript:alert(1)", ownOrigins: [OWN] })).toBeNull();
  });
  it("trims hostile values: control characters removed, 200 characters at most", () => {
    const got = landingAttribution({ url: `${OWN}/x.data?utm_source=${"a".repeat(500)}&utm_medium=%00%0Aads`, ownOrigins: [OWN] })!;
    expect(got.utmSource).toHaveLength(200);
    expect(got.utmMedium).toBe("ads");
    expect(got.landingPath).toBe("/x");
  });
});

describe("rememberLanding", () => {
  it("stores the first landing once per visitor: a later one changes nothing", async () => {
    const id = crypto.randomUUID();
    const first = landingAttribution({ url: `${OWN}/quiz?utm_source=tiktok`, ownOrigins: [OWN] })!;
    const later = landingAttribution({ url: `${OWN}/makeup?utm_source=google`, ownOrigins: [OWN] })!;
    await Promise.all([rememberLanding(id, first), rememberLanding(id, first)]);
    await rememberLanding(id, later);
    const rows = await db.visitor.findMany({ where: { id } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ utmSource: "tiktok", landingPath: "/quiz" });
  });
});

describe("recordOfferViewed", () => {
  it("records an offer_viewed event with its offer and funnel", async () => {
    const visitorId = crypto.randomUUID();
    const before = Date.now();
    const id = recordOfferViewed({ visitorId, offer: "skincare", funnel: "skin" });
    await flushEvents();
    const row = await db.analyticsEvent.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ visitorId, name: "offer_viewed", funnel: "skin", props: JSON.stringify({ offer: "skincare" }) });
    expect(row.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
  });
  it("is written off the request path: queued at once, stored by the next flush, none lost", async () => {
    const visitorId = crypto.randomUUID();
    const ids = Array.from({ length: 40 }, () => recordOfferViewed({ visitorId, offer: "skincare" }));
    expect(queuedEventCount()).toBeGreaterThanOrEqual(40);
    expect(await db.analyticsEvent.count({ where: { visitorId } })).toBe(0);
    await flushEvents();
    expect(queuedEventCount()).toBe(0);
    const rows = await db.analyticsEvent.findMany({ where: { visitorId }, select: { id: true } });
    expect(rows.map((r) => r.id).sort()).toEqual([...ids].sort());
  });
  it("writes a queued view by itself shortly after, without a flush", async () => {
    const visitorId = crypto.randomUUID();
    recordOfferViewed({ visitorId, offer: "skincare" });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await db.analyticsEvent.count({ where: { visitorId } })).toBe(1);
  });
});

describe("seo", () => {
  const args = (pathname: string) => ({ location: { pathname }, matches: [{ id: "root", data: { publicUrl: "https://glowcoach.app" } }] });
  it("gives title, description, Open Graph tags and a canonical URL on PUBLIC_URL", () => {
    const tags = seo(args("/partnerships/"), { title: "T", description: "D" });
    expect(tags).toContainEqual({ title: "T" });
    expect(tags).toContainEqual({ name: "description", content: "D" });
    expect(tags).toContainEqual({ tagName: "link", rel: "canonical", href: "https://glowcoach.app/partnerships" });
    expect(tags).toContainEqual({ property: "og:url", content: "https://glowcoach.app/partnerships" });
    expect(tags).toContainEqual({ property: "og:title", content: "T" });
    expect(tags).not.toContainEqual({ name: "robots", content: "noindex" });
    expect(seo(args("/admin"), { title: "A", description: "B", noindex: true })).toContainEqual({ name: "robots", content: "noindex" });
  });
  it("canonical of / is the origin with a slash", () => {
    expect(canonicalUrl("https://glowcoach.app/", "/")).toBe("https://glowcoach.app/");
  });
});

describe("legal pages' Back link", () => {
  const here = "https://glowcoach.app/terms-of-service";
  it("returns to the page on this site the visitor came from, else home", () => {
    expect(backHref("https://glowcoach.app/quiz/3?x=1", here)).toBe("/quiz/3?x=1");
    expect(backHref("https://evil.example/quiz", here)).toBe("/");
    expect(backHref(here, here)).toBe("/");
    expect(backHref(null, here)).toBe("/");
    expect(backHref("%%", here)).toBe("/");
  });
});

describe("Meta pixel", () => {
  it("is configured only by a digits-only META_PIXEL_ID", () => {
    expect(parseEnv({ APP_ENV: "local", DATA_DIR: "test-results/unit-data" }).metaPixelId).toBeNull();
    expect(parseEnv({ APP_ENV: "local", DATA_DIR: "test-results/unit-data", META_PIXEL_ID: "123456789012" }).metaPixelId).toBe("123456789012");
    expect(() => parseEnv({ APP_ENV: "local", DATA_DIR: "test-results/unit-data", META_PIXEL_ID: "1');alert(1)//" })).toThrow(/META_PIXEL_ID/);
    expect(() => pixelBootstrap("abc")).toThrow();
    expect(pixelBootstrap("123456789012")).toContain("fbq('init','123456789012')");
  });
  it("sends Purchase with the server record's event id", () => {
    expect(purchaseEvent({ plan: "annual", offer: "skincare", price: 59, currency: "USD", eventId: "evt-1" })).toEqual({
      name: "Purchase",
      params: { value: 59, currency: "USD", content_ids: ["annual"], content_name: "skincare" },
      eventId: "evt-1",
    });
  });
});

describe("page content documents", () => {
  const docs = embeddedDataset();
  const doc = (id: string) => docs.find((d) => d._id === id);

  it("parse with their schemas", () => {
    for (const [id, schema] of [
      ["page-landing", LandingPage],
      ["siteSettings", SiteSettings],
      ["page-partnerships", PartnershipsPage],
      ["page-privacy-policy", LegalPage],
      ["page-terms-of-service", LegalPage],
    ] as const) {
      const parsed = schema.safeParse(doc(id));
      expect(parsed.success, `${id}: ${parsed.error?.message}`).toBe(true);
    }
  });

  it("the terms state the refund (each plan's window, listed from the offers; paid in 5-10 business days), 30 days' notice of price changes, auto-renewal and cancellation at period end; the privacy policy the 30-day deletion", () => {
    const text = (id: string) => JSON.stringify(LegalPage.parse(doc(id)).sections);
    const terms = text("page-terms-of-service");
    // The windows themselves are the offers' (ADR 33): the Terms hold only where the list goes.
    expect(terms).toContain("you can have a full refund from your profile (Request a refund)");
    expect(terms).toContain('"{refundWindows}"');
    expect(terms).not.toMatch(/\d+ days of your first purchase/);
    expect(terms).toContain("5-10 business days");
    expect(terms).toContain("at least 30 days before the new price applies");
    expect(terms).toContain("auto-renew");
    expect(terms).toContain("takes effect at the end of the current billing period");
    expect(text("page-privacy-policy")).toContain("deleted within 30 days");
  });

  it("the brands page names the problems, features, journey steps, impact figures and the free pilot tier", () => {
    const page = PartnershipsPage.parse(doc("page-partnerships"));
    expect(page.problems.items.map((i) => i.title)).toEqual(["Low Engagement", "Single Purchase", "Limited AOV"]);
    expect(page.features.items.map((i) => i.title)).toEqual(["Routine Builder", "Video Education", "Smart Upsells"]);
    expect(page.journey.items.map((i) => i.title)).toEqual(["Buy Product", "Unlock Experience", "Get Personalized Routine", "Engage & Repurchase"]);
    expect(page.impact.stats.map((s) => s.value)).toEqual(["+75%", "+40%", "+90%"]);
    expect(page.tiers.items[0]).toMatchObject({ name: "Free Pilot", price: "$0" });
  });
});
