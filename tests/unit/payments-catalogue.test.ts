import { describe, expect, it } from "vitest";
import { derivePlanType, displayPrice, formatCountdown, percentOff, perDay, pricePlan } from "~/billing/catalogue";
import { Offer } from "~/content-model/offer";
import { presentOffer } from "~/payments/offer-page.server";
import { offerCountdown } from "~/payments/countdown.server";
import { embeddedDataset } from "./helpers";
import { setClockOffset } from "./clock";

function offer(path: string): Offer {
  const doc = embeddedDataset().find((d) => d._type === "offer" && d.path === path);
  if (!doc) throw new Error(`no offer at ${path}`);
  return Offer.parse(doc);
}

/** Every text an offer page renders from its document (plans filled in by the catalogue). */
function pageTexts(path: string): string {
  return JSON.stringify(presentOffer(offer(path)));
}

describe("offer documents", () => {
  it("all parse, one per offer page", () => {
    const offers = embeddedDataset().filter((d) => d._type === "offer");
    expect(offers.map((d) => d.path).sort()).toEqual(["/cakey-otp", "/sales", "/subscribe", "/subscribe-otp"]);
    for (const doc of offers) expect(Offer.safeParse(doc).success, String(doc._id)).toBe(true);
  });

  it("name funnels that exist, and every funnel result that links to an offer is listed on it", () => {
    const funnels = embeddedDataset().filter((d) => d._type === "funnel");
    const ids = new Set(funnels.map((f) => f.id));
    for (const path of ["/subscribe", "/subscribe-otp", "/sales", "/cakey-otp"]) {
      for (const id of offer(path).funnels) expect(ids.has(id), `${path} names funnel ${id}`).toBe(true);
    }
    let checked = 0;
    for (const funnel of funnels) {
      const links = JSON.stringify(funnel).match(/"href":"(\/(?:subscribe|subscribe-otp|sales|cakey-otp))"/g) ?? [];
      for (const link of links) {
        const path = link.slice(8, -1);
        expect(offer(path).funnels, `${funnel.id} links to ${path}`).toContain(funnel.id);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(5);
  });

  it("reject a section naming a plan the offer does not sell, and a struck price below the price", () => {
    const doc = structuredClone(embeddedDataset().find((d) => d._id === "offer-crease-free")!) as Record<string, any>;
    doc.sections.push({ _type: "finalCta", title: "Go", planId: "gold", buttonLabel: "Buy" });
    doc.plans[0].compareAtMinor = 100;
    const problems = Offer.safeParse(doc).error?.issues.map((i) => i.message) ?? [];
    expect(problems).toContain('unknown plan "gold"');
    expect(problems).toContain("must be more than the price");
  });

  it("skincare paywall: $59/year and $9.99/month, $0.16/day, 40% off, the countdown, the locked tips and fits, 30-day money back", () => {
    const texts = pageTexts("/subscribe");
    for (const expected of [
      "Unlock My Clear Skin Plan - $59/year",
      "Continue with Monthly – $9.99",
      "Just $0.16/day",
      "Most Popular",
      "Offer expires in {time}",
      "Save 40%",
      "Only {time} left for discount",
      "Unlock 50+ Clear Skin Tips",
      "Perfect fit",
      "High fit",
      "Good fit",
      "30-day money-back guarantee",
      "Cancel anytime",
    ]) {
      expect(texts).toContain(expected);
    }
    // The six steps are the skincare plan's (offer-preview.test.ts); one shows unlocked.
    const routine = offer("/subscribe").sections.find((s) => s._type === "routine");
    expect(routine?.visibleSteps).toBe(1);
    const products = offer("/subscribe").sections.find((s) => s._type === "lockedProducts");
    expect(products?.fits.map((p) => [p.fitLabel, p.fitPercent, p.locked])).toEqual([
      ["Perfect fit", 100, false],
      ["High fit", 90, true],
      ["Good fit", 85, true],
    ]);
    const plans = presentOffer(offer("/subscribe")).plans;
    expect(plans.map((p) => [p.name, p.price, p.priceSuffix])).toEqual([
      ["Annual Plan", "$59", "/year"],
      ["Monthly Plan", "$9.99", "/month"],
    ]);
  });

  it("makeup-prep offer: $49 one-time, struck $99, and it charges $49", () => {
    const texts = pageTexts("/subscribe-otp");
    for (const expected of [
      "Your Foundation Isn't the Problem. Your Prep Is.",
      "Trusted by 10,000 women",
      "4.7",
      "Makeup Prep Plan",
      "Lifetime access",
      "Get My Plan",
      "Save 50%",
      "+{count} steps locked",
    ]) {
      expect(texts).toContain(expected);
    }
    const [plan] = presentOffer(offer("/subscribe-otp")).plans;
    expect([plan.price, plan.compareAt]).toEqual(["$49", "$99"]);
    expect(pricePlan(offer("/subscribe-otp"), "lifetime")).toMatchObject({ amountMinor: 4900, currency: "usd", tier: "single_payment", interval: null });
  });

  it("crease-free offer: 60% off, $29.99 struck $75, promise, FAQ, final button, no countdown", () => {
    const texts = pageTexts("/sales");
    for (const expected of [
      "60% Off - Today Only",
      "See How It Works",
      "Get My Personalized Routine",
      "Try it for 14 days. If your makeup still creases, you get 100% back.",
      "Unlock My Crease-Free Routine",
      "Routine",
      "Tutorials",
      "Products",
      "Quick Fixes",
    ]) {
      expect(texts).toContain(expected);
    }
    const creaseFree = offer("/sales");
    expect(creaseFree.countdownSeconds).toBeUndefined();
    expect(creaseFree.processingLabel).toBe("Processing");
    expect(creaseFree.sections.find((s) => s._type === "faq")?.items).toHaveLength(4);
    const [plan] = presentOffer(creaseFree).plans;
    expect([plan.price, plan.compareAt]).toEqual(["$29.99", "$75"]);
  });

  it("every countdown offer starts at 599 seconds", () => {
    for (const path of ["/subscribe", "/subscribe-otp", "/cakey-otp"]) expect(offer(path).countdownSeconds).toBe(599);
  });
});

describe("catalogue", () => {
  it("prices come from the offer and plan id only", () => {
    const skincare = offer("/subscribe");
    expect(pricePlan(skincare, "annual")).toEqual({
      offerId: "skincare",
      planId: "annual",
      tier: "annual",
      name: "Annual Plan",
      amountMinor: 5900,
      currency: "usd",
      interval: "year",
    });
    expect(pricePlan(skincare, "monthly")).toMatchObject({ amountMinor: 999, interval: "month", tier: "monthly" });
    expect(pricePlan(skincare, "lifetime")).toBeNull();
    expect(pricePlan(skincare, "annual\u0000")).toBeNull();
  });

  it("writes prices in dollars, with cents only when there are any", () => {
    expect(displayPrice(5900)).toBe("$59");
    expect(displayPrice(999)).toBe("$9.99");
    expect(displayPrice(2999)).toBe("$29.99");
    expect(displayPrice(4900)).toBe("$49");
    expect(displayPrice(12345)).toBe("$123.45");
  });

  it("shows the annual plan per day, to the cent", () => {
    expect(perDay(5900)).toBe("$0.16");
    expect(perDay(3650)).toBe("$0.10");
    expect(perDay(36500)).toBe("$1.00");
  });

  it("computes percent off", () => {
    expect(percentOff(2999, 7500)).toBe(60);
    expect(percentOff(4900, 9900)).toBe(51);
  });
});

describe("countdown", () => {
  it("formats m:ss with two-digit seconds and never goes below 0:00", () => {
    expect(formatCountdown(599)).toBe("9:59");
    expect(formatCountdown(600)).toBe("10:00");
    expect(formatCountdown(65)).toBe("1:05");
    expect(formatCountdown(9)).toBe("0:09");
    expect(formatCountdown(0)).toBe("0:00");
    expect(formatCountdown(-3)).toBe("0:00");
    expect(formatCountdown(12.7)).toBe("0:12");
  });

  it("keeps one deadline per visitor and offer across reloads, and stops at zero", async () => {
    setClockOffset(0);
    const first = await offerCountdown(null, "skincare", 599);
    expect(first.remainingSeconds).toBe(599);
    const cookie = first.setCookie!.split(";")[0];
    setClockOffset(100_000);
    const later = await offerCountdown(cookie, "skincare", 599);
    expect(later.remainingSeconds).toBeGreaterThanOrEqual(498);
    expect(later.remainingSeconds).toBeLessThanOrEqual(500);
    expect(later.setCookie).toBeUndefined();
    // Another offer gets its own deadline, keeping the first.
    const other = await offerCountdown(cookie, "makeup-prep", 599);
    expect(other.remainingSeconds).toBe(599);
    const both = other.setCookie!.split(";")[0];
    setClockOffset(700_000);
    expect((await offerCountdown(both, "skincare", 599)).remainingSeconds).toBe(0);
    setClockOffset(0);
  });

  it("ignores a tampered cookie", async () => {
    const issued = await offerCountdown(null, "skincare", 599);
    const [name, value] = issued.setCookie!.split(";")[0].split("=");
    const [payload, signature] = decodeURIComponent(value).split(".");
    const forged = Buffer.from(JSON.stringify({ skincare: Date.now() + 10 * 60 * 60 * 1000 })).toString("base64");
    const answer = await offerCountdown(`${name}=${encodeURIComponent(`${forged}.${signature}`)}`, "skincare", 599);
    expect(answer.remainingSeconds).toBe(599);
    expect(payload).not.toBe(forged);
  });
});

describe("plan type derivation: tier, then plan name, then the dollar amount", () => {
  it("single_payment tier wins", () => {
    expect(derivePlanType({ tier: "single_payment", planName: "Annual Plan", priceText: "$9.99" })).toBe("single_payment");
  });
  it("then the plan name: annual/year, monthly/month", () => {
    expect(derivePlanType({ tier: "premium", planName: "Annual Plan" })).toBe("annual");
    expect(derivePlanType({ planName: "Clear skin - 1 YEAR" })).toBe("annual");
    expect(derivePlanType({ planName: "Monthly Plan" })).toBe("monthly");
    expect(derivePlanType({ planName: "Pay by the month" })).toBe("monthly");
    // "year" is checked before "month".
    expect(derivePlanType({ planName: "12-month yearly bundle" })).toBe("annual");
  });
  it("then the dollar amount in the price text", () => {
    expect(derivePlanType({ planName: "Premium", priceText: "$9.99" })).toBe("monthly");
    expect(derivePlanType({ priceText: "$59.00/year" })).toBe("annual");
    expect(derivePlanType({ priceText: "USD $59" })).toBe("annual");
    expect(derivePlanType({ priceText: "$29.99" })).toBe("single_payment");
  });
  it("otherwise none", () => {
    expect(derivePlanType({})).toBeNull();
    expect(derivePlanType({ planName: "Premium", priceText: "$12.00" })).toBeNull();
    expect(derivePlanType({ priceText: "9.99" })).toBeNull();
    expect(derivePlanType({ tier: null, planName: null, priceText: null })).toBeNull();
  });
});
