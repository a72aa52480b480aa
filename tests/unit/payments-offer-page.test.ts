import { afterEach, describe, expect, it, vi } from "vitest";
import { toSessionUser } from "~/auth/users.server";
import { CHECKOUT_ERROR, NOT_ON_SALE, checkoutErrorTitle } from "~/payments/messages";
import { checkoutFromOffer, offerPage } from "~/payments/offer-page.server";
import { db } from "~/utils/db.server";
import { logger } from "~/utils/logger.server";
import { grantPlan } from "./helpers";

afterEach(() => vi.restoreAllMocks());

async function member() {
  const user = await db.user.create({ data: { email: `offer-${crypto.randomUUID()}@glowcoach.test`, emailVerifiedAt: new Date() } });
  return toSessionUser(user);
}

const visitor = { user: null, visitorId: "visitor-offer-page", cookieHeader: null };

describe("an offer page's values", () => {
  it("starts a visitor's countdown with a cookie on the first view, and keeps it on the next", async () => {
    const first = await offerPage({ ...visitor, path: "/subscribe" });
    expect(first?.view).toMatchObject({ offer: { path: "/subscribe" }, remainingSeconds: 599, owned: null, onSale: true });
    expect(first?.cookies).toHaveLength(1);
    const again = await offerPage({ ...visitor, path: "/subscribe", cookieHeader: first!.cookies[0].split(";")[0] });
    expect(again?.view.remainingSeconds).toBeGreaterThan(590);
    expect(again?.cookies).toEqual([]);
    expect(await offerPage({ ...visitor, path: "/no-such-offer" })).toBeNull();
  });

  it("shows a member who has the product what they have, and no countdown", async () => {
    const user = await member();
    await grantPlan(user.id, "clear-healthy-skin", { tier: "annual" });
    const page = await offerPage({ ...visitor, user, path: "/subscribe" });
    expect(page?.view.owned).toMatchObject({ headline: "You already have the Annual plan", planHref: "/plan/clear-healthy-skin", switchTo: ["monthly"] });
    expect(page?.view.remainingSeconds).toBeNull();
    expect(page?.cookies).toEqual([]);
  });
});

describe("a plan button", () => {
  it("goes to the checkout of the plan chosen", async () => {
    const before = await db.checkoutSession.count();
    const outcome = await checkoutFromOffer({ ...visitor, path: "/sales", planId: "lifetime" });
    expect(outcome).toMatchObject({ go: expect.stringMatching(/^\/checkout\/test\/cs_local_/), cookies: [] });
    expect(await db.checkoutSession.count()).toBe(before + 1);
  });

  it("refuses a plan the offer does not sell with the catalogue's checkout error, and starts nothing", async () => {
    vi.spyOn(logger, "error").mockImplementation(() => {});
    const before = await db.checkoutSession.count();
    expect(await checkoutFromOffer({ ...visitor, path: "/subscribe", planId: "platinum" })).toEqual({
      refused: true,
      status: 400,
      message: CHECKOUT_ERROR.description,
    });
    expect(await db.checkoutSession.count()).toBe(before);
    expect(await checkoutFromOffer({ ...visitor, path: "/no-such-offer", planId: "annual" })).toBeNull();
  });

  it("refuses a second purchase of the product as a refusal of the plan chosen, naming what they have", async () => {
    const user = await member();
    await grantPlan(user.id, "clear-healthy-skin", { tier: "monthly" });
    const before = await db.checkoutSession.count();
    expect(await checkoutFromOffer({ ...visitor, user, path: "/subscribe", planId: "annual" })).toEqual({
      refused: true,
      status: 409,
      message: "You already have the Monthly plan",
      field: "planId",
    });
    expect(await db.checkoutSession.count()).toBe(before);
  });

  it("heads 'not on sale' with its own title and every other refusal with 'Checkout Error'", () => {
    expect(checkoutErrorTitle(NOT_ON_SALE.description)).toBe(NOT_ON_SALE.title);
    expect(checkoutErrorTitle(CHECKOUT_ERROR.description)).toBe("Checkout Error");
    expect(checkoutErrorTitle("That request was too large. Please try again.")).toBe("Checkout Error");
  });
});
