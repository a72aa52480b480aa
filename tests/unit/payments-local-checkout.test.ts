import { describe, expect, it } from "vitest";
import { getOfferByPath } from "~/content/content.server";
import { startCheckout } from "~/payments/checkout.server";
import { cancelLocalCheckout, completeLocalCheckout, openLocalCheckout } from "~/payments/local-checkout.server";
import { getSession } from "~/auth/guards.server";
import { completeSignIn } from "~/auth/sign-in.server";
import { checkPayment } from "~/payments/payment-success.server";
import { isGo, type Go } from "~/utils/outcome";
import { db } from "~/utils/db.server";
import { allCurrentStates, entitlementHistory, entitlementsOf } from "~/billing/entitlements.server";
import { activeSubscriptions } from "~/admin/metrics";
import { changeSubscriptionLocally, confirmSwitch, previewSwitch } from "~/payments/portal.server";
import { requestRefund } from "~/payments/refund.server";
import { applyEntitlementChange } from "~/billing/entitlements.server";
import { listMessages, mailboxDir } from "~/email/dev-mailbox.server";
import { displayPrice } from "~/billing/catalogue";

async function localCheckout(path: string, planId: string, visitorId: string) {
  const offer = (await getOfferByPath(path))!;
  const started = await startCheckout({ offer, planId, user: null, visitorId, cookieHeader: null });
  if (!started.ok) throw new Error(started.reason);
  expect(started.url).toMatch(/^\/checkout\/test\/cs_local_/);
  return started.url.split("/").pop()!;
}

describe("local test checkout (no Stripe key)", () => {
  it("shows the catalogue price only to the browser that started it", async () => {
    const id = await localCheckout("/subscribe", "annual", "visitor-local-1");
    expect(await openLocalCheckout(id, "visitor-local-1", null)).toEqual({
      id,
      planName: "Annual Plan",
      price: "$59",
      billing: "Billed every year, renews automatically",
      cancelPath: "/subscribe",
      fixedEmail: null,
      savesCard: false,
      authenticating: false,
    });
    expect(await openLocalCheckout(id, "someone-else", null)).toBeNull();
    expect(await openLocalCheckout("cs_local_../../etc", "visitor-local-1", null)).toBeNull();
  });

  it("needs a valid e-mail and stores nothing without one", async () => {
    const id = await localCheckout("/sales", "lifetime", "visitor-local-2");
    const before = await db.entitlement.count();
    expect(await completeLocalCheckout({ id, visitorId: "visitor-local-2", user: null, email: "not-an-email" })).toEqual({
      refused: true,
      status: 400,
      field: "email",
      message: "Please enter a valid e-mail address.",
    });
    expect(await completeLocalCheckout({ id, visitorId: "visitor-local-2", user: null, email: undefined })).toMatchObject({ status: 400 });
    expect(await completeLocalCheckout({ id, visitorId: "stranger", user: null, email: "x@example.com" })).toBeNull();
    expect(await db.entitlement.count()).toBe(before);
    expect(await db.checkoutSession.findUnique({ where: { id } })).toMatchObject({ status: "open", email: null });
  });

  it("completes through fulfilment once, whatever is submitted twice", async () => {
    const id = await localCheckout("/subscribe", "monthly", "visitor-local-3");
    const email = `Local-${Date.now()}@Example.com`;
    const first = await completeLocalCheckout({ id, visitorId: "visitor-local-3", user: null, email: ` ${email} ` });
    expect(first).toMatchObject({ go: `/payment-success?session_id=${id}` });
    const again = await completeLocalCheckout({ id, visitorId: "visitor-local-3", user: null, email: "other@example.com" });
    expect(again).toMatchObject({ go: `/payment-success?session_id=${id}` });
    const user = await db.user.findUnique({ where: { email: email.toLowerCase() } });
    const [entitlement, ...others] = await entitlementsOf(user!.id);
    expect(others).toEqual([]);
    expect(entitlement).toMatchObject({
      tier: "monthly",
      status: "active",
      subscribed: true,
      planName: "Monthly Plan",
      offerId: "skincare",
      routinePlanId: "clear-healthy-skin",
      planId: "monthly",
      cancelAtPeriodEnd: false,
    });
    const start = new Date(entitlement.startedAt!);
    const end = new Date(entitlement.currentPeriodEnd!);
    expect(end.getUTCMonth()).toBe((start.getUTCMonth() + 1) % 12);
    // The plan bought is the one the member follows.
    expect(user?.activePlanId).toBe("clear-healthy-skin");
    expect(await db.user.findUnique({ where: { email: "other@example.com" } })).toBeNull();
    const purchases = await db.analyticsEvent.findMany({ where: { name: "purchase", visitorId: "visitor-local-3" } });
    expect(purchases).toHaveLength(1);
    expect(JSON.parse(purchases[0].props)).toMatchObject({ plan: "monthly", price: 9.99, currency: "USD", eventId: expect.any(String) });
    const initiated = await db.analyticsEvent.findMany({ where: { name: "initiate_checkout", visitorId: "visitor-local-3" } });
    expect(JSON.parse(initiated[0].props)).toMatchObject({ plan: "monthly", price: 9.99, currency: "USD" });
  });

  it("cancel goes back to the offer and the checkout can no longer be paid", async () => {
    const id = await localCheckout("/cakey-otp", "lifetime", "visitor-local-4");
    const cancelled = await cancelLocalCheckout({ id, visitorId: "visitor-local-4" });
    expect(cancelled).toMatchObject({ go: "/cakey-otp" });
    const late = await completeLocalCheckout({ id, visitorId: "visitor-local-4", user: null, email: "late@example.com" });
    expect(late).toMatchObject({ go: "/cakey-otp" });
    expect(await db.user.findUnique({ where: { email: "late@example.com" } })).toBeNull();
  });
});

describe("payment success after a test payment", () => {
  /** As the route asks: the browser's own session, read from its cookie. */
  const ask = async (id: string, visitorId: string, cookie?: string) => {
    const session = await getSession(new Request("http://localhost/payment-success", { headers: cookie ? { Cookie: cookie } : {} }));
    return checkPayment({
      checkoutSessionId: id,
      visitorId,
      clientIp: "127.0.0.1",
      cookieHeader: cookie ?? null,
      browserSession: session ? { kind: session.kind, userId: session.user.id } : null,
    });
  };
  /** The first answer to a paid checkout: the same page again, with the welcome's cookies. */
  const welcome = async (id: string, visitorId: string, cookie?: string) => {
    const first = await ask(id, visitorId, cookie);
    if (!isGo(first)) throw new Error(`expected the welcome, got ${JSON.stringify(first)}`);
    expect(first.go).toBe(`/payment-success?session_id=${id}`);
    return first;
  };
  const sessionCookieOf = (welcomed: Go) => welcomed.cookies.find((cookie) => cookie.startsWith("gc_session="))?.split(";")[0];

  it("gives a new buyer's browser a purchase session, once, and the routine only", async () => {
    const id = await localCheckout("/sales", "lifetime", "visitor-ps-1");
    const email = `new-buyer-${Date.now()}@example.com`;
    await completeLocalCheckout({ id, visitorId: "visitor-ps-1", user: null, email });
    const first = await welcome(id, "visitor-ps-1");
    const cookie = sessionCookieOf(first);
    expect(cookie).toBeTruthy();
    const buyer = await db.user.findUniqueOrThrow({ where: { email }, include: { sessions: true } });
    expect(buyer.emailVerifiedAt).toBeNull();
    expect(buyer.sessions.map((s) => ({ kind: s.kind, checkoutSessionId: s.checkoutSessionId }))).toEqual([{ kind: "purchase", checkoutSessionId: id }]);
    expect(await ask(id, "visitor-ps-1", cookie)).toEqual({
      state: "paid",
      tier: "single_payment",
      email,
      emailStatus: "sent",
      access: "purchase",
      routinePlan: "Crease-Free Makeup",
      oneTap: null,
    });
    // Asked again: no second session, no second e-mail.
    expect(await ask(id, "visitor-ps-1")).toMatchObject({ state: "paid", access: "sign-in-by-link" });
    expect(await db.session.count({ where: { userId: buyer.id } })).toBe(1);
    expect(await ask(id, "another-browser")).toEqual({ state: "unverified" });
  });

  it("never signs anyone in to a verified account by its e-mail typed at checkout", async () => {
    const email = `owner-${Date.now()}@example.com`;
    const { user: owner } = await completeSignIn({ email, proof: "email-link" });
    const id = await localCheckout("/subscribe", "monthly", "visitor-ps-2");
    await completeLocalCheckout({ id, visitorId: "visitor-ps-2", user: null, email });
    const first = await welcome(id, "visitor-ps-2");
    expect(sessionCookieOf(first)).toBeUndefined();
    // This browser can type the e-mail's code instead.
    expect(first.cookies.some((cookie) => cookie.startsWith("gc_auth="))).toBe(true);
    expect(await ask(id, "visitor-ps-2")).toMatchObject({ state: "paid", access: "sign-in-by-link", emailStatus: "sent" });
    // The plan went to the account, whose owner got the sign-in e-mail.
    expect(await entitlementsOf(owner.id)).toMatchObject([{ tier: "monthly", status: "active", subscribed: true }]);
    expect(await db.session.count({ where: { userId: owner.id, kind: "purchase" } })).toBe(0);
  });

  it("keeps a member signed in on the paying browser as they were, with nothing new", async () => {
    const email = `member-${Date.now()}@example.com`;
    const signed = await completeSignIn({ email, proof: "email-link" });
    const cookie = signed.sessionCookie.split(";")[0];
    const offer = (await getOfferByPath("/subscribe-otp"))!;
    const started = await startCheckout({ offer, planId: "lifetime", user: signed.user, visitorId: "visitor-ps-3", cookieHeader: null });
    if (!started.ok) throw new Error(started.reason);
    const id = started.url.split("/").pop()!;
    expect(await openLocalCheckout(id, "visitor-ps-3", null)).toMatchObject({ fixedEmail: email });
    await completeLocalCheckout({ id, visitorId: "visitor-ps-3", user: null, email: "someone-else@example.com" });
    expect((await db.checkoutSession.findUnique({ where: { id } }))?.email).toBe(email);
    const first = await welcome(id, "visitor-ps-3", cookie);
    expect(sessionCookieOf(first)).toBeUndefined();
    expect(await ask(id, "visitor-ps-3", cookie)).toMatchObject({ state: "paid", access: "signed-in" });
  });
});

describe("one purchase per product, and history instead of overwriting", () => {
  it("keeps each product a member buys, and refuses a second checkout for one they have", async () => {
    const email = `collector-${Date.now()}@example.com`;
    const member = (await completeSignIn({ email: email, proof: "email-link" })).user;
    const buy = async (path: string, planId: string, visitorId: string) => {
      const offer = (await getOfferByPath(path))!;
      const started = await startCheckout({ offer, planId, user: member, visitorId, cookieHeader: null });
      if (!started.ok) throw new Error(started.reason);
      await completeLocalCheckout({ id: started.url.split("/").pop()!, visitorId, user: member, email });
    };
    await buy("/subscribe", "annual", "visitor-collect-1");
    await buy("/sales", "lifetime", "visitor-collect-2");
    const owned = await entitlementsOf(member.id);
    expect(owned.map((e) => [e.routinePlanId, e.tier, e.subscribed])).toEqual([
      ["crease-free", "single_payment", true],
      ["clear-healthy-skin", "annual", true],
    ]);

    // The annual member chooses Monthly: no checkout is created, they are told what they have.
    const sessionsBefore = await db.checkoutSession.count();
    const offer = (await getOfferByPath("/subscribe"))!;
    const again = await startCheckout({ offer, planId: "monthly", user: member, visitorId: "visitor-collect-3", cookieHeader: null });
    expect(again).toMatchObject({ ok: false, status: 409, reason: "already-owned", owned: { tier: "annual", planId: "annual" } });
    const lifetime = await startCheckout({
      offer: (await getOfferByPath("/sales"))!,
      planId: "lifetime",
      user: member,
      visitorId: "visitor-collect-3",
      cookieHeader: null,
    });
    expect(lifetime).toMatchObject({ ok: false, status: 409, reason: "already-owned" });
    expect(await db.checkoutSession.count()).toBe(sessionsBefore);
    expect(await db.analyticsEvent.count({ where: { name: "initiate_checkout", visitorId: "visitor-collect-3" } })).toBe(0);
  });

  it("switches annual to monthly in the local portal: the same entitlement, a new state, exactly one active", async () => {
    const member = (await completeSignIn({ email: `switcher-${Date.now()}@example.com`, proof: "email-link" })).user;
    const offer = (await getOfferByPath("/subscribe"))!;
    const started = await startCheckout({ offer, planId: "annual", user: member, visitorId: "visitor-switch", cookieHeader: null });
    if (!started.ok) throw new Error(started.reason);
    await completeLocalCheckout({ id: started.url.split("/").pop()!, visitorId: "visitor-switch", user: member, email: member.email });
    const [annual] = await entitlementsOf(member.id);

    const countsBefore = activeSubscriptions(await allCurrentStates(), new Date());
    const refused = { refused: true, status: 404, message: "That plan can't be chosen here." };
    expect(await previewSwitch(member.id, annual.id, "annual")).toEqual(refused); // already on it
    expect(await confirmSwitch(member, annual.id, "lifetime")).toEqual(refused); // not a plan of this offer
    const stranger = (await completeSignIn({ email: `stranger-${Date.now()}@example.com`, proof: "email-link" })).user;
    expect(await confirmSwitch(stranger, annual.id, "monthly")).toEqual(refused); // not theirs
    expect(await entitlementHistory(annual.id)).toHaveLength(1);

    // Before confirming: the $59 just paid is almost all unused; it pays the first month and the rest is credit.
    const preview = await previewSwitch(member.id, annual.id, "monthly");
    if ("refused" in preview) throw new Error(preview.message);
    expect(preview.proration).toMatchObject({ chargeMinor: 999, dueNowMinor: 0, currency: "usd" });
    expect(preview.proration.creditMinor).toBeGreaterThan(5890);
    expect(preview.proration.creditLeftMinor).toBe(preview.proration.creditMinor - 999);
    const credit = displayPrice(preview.proration.creditMinor);
    const left = displayPrice(preview.proration.creditLeftMinor);
    expect(preview.lines).toEqual([
      `The unused time on your Annual Plan is worth ${credit}: it becomes a credit on your account.`,
      "Your first period of the Monthly Plan ($9.99) is paid from that credit today: nothing is charged to your card.",
      `The ${left} of credit left pays your next bills before your card is charged again. Nothing is refunded to your card.`,
    ]);
    expect(await confirmSwitch(member, annual.id, "monthly")).toMatchObject({ go: "/profile", cookies: [expect.stringMatching(/^gc_toast=/)] });
    // The confirmation e-mail says what happened to the money.
    const mails = (await listMessages(mailboxDir(process.env.DATA_DIR!), 1000)).filter(
      (m) => m.to === member.email && m.subject === "You're now on the Monthly Plan",
    );
    expect(mails).toHaveLength(1);
    for (const line of preview.lines) expect(mails[0].text).toContain(line);

    const after = await entitlementsOf(member.id);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ id: annual.id, tier: "monthly", planId: "monthly", priceText: "$9.99", subscribed: true });
    const history = await entitlementHistory(annual.id);
    expect(history.map((s) => [s.reason, s.tier, s.priceMinor])).toEqual([
      ["purchase", "annual", 5900],
      ["portal:switch", "monthly", 999],
    ]);
    // The admin's active plans follow the current state: one annual fewer, one monthly more.
    const countsAfter = activeSubscriptions(await allCurrentStates(), new Date());
    expect([countsAfter.annual - countsBefore.annual, countsAfter.monthly - countsBefore.monthly, countsAfter.lifetime - countsBefore.lifetime]).toEqual([
      -1, 1, 0,
    ]);
    // Revenue counts the purchase once; a switch is not a purchase.
    expect(await db.analyticsEvent.count({ where: { name: "purchase", visitorId: "visitor-switch" } })).toBe(1);
  });

  it("the test portal's buttons answer where to go next, with a toast, or why not", async () => {
    const member = (await completeSignIn({ email: `portal-${Date.now()}@example.com`, proof: "email-link" })).user;
    const offer = (await getOfferByPath("/subscribe"))!;
    const started = await startCheckout({ offer, planId: "monthly", user: member, visitorId: "visitor-portal", cookieHeader: null });
    if (!started.ok) throw new Error(started.reason);
    await completeLocalCheckout({ id: started.url.split("/").pop()!, visitorId: "visitor-portal", user: member, email: member.email });
    const [monthly] = await entitlementsOf(member.id);
    const back = `/billing/test-portal?entitlement=${monthly.id}`;

    const cancelled = await changeSubscriptionLocally(member.id, monthly.id, { intent: "cancel" });
    expect(cancelled).toMatchObject({ go: back, cookies: [expect.stringMatching(/^gc_toast=/)] });
    expect((await entitlementsOf(member.id))[0]).toMatchObject({ id: monthly.id, cancelAtPeriodEnd: true });
    expect(await changeSubscriptionLocally(member.id, monthly.id, { intent: "resume" })).toMatchObject({ go: back });
    expect((await entitlementsOf(member.id))[0]).toMatchObject({ cancelAtPeriodEnd: false });

    // Someone else's subscription: nothing changes, back to the profile.
    const stranger = (await completeSignIn({ email: `portal-stranger-${Date.now()}@example.com`, proof: "email-link" })).user;
    expect(await changeSubscriptionLocally(stranger.id, monthly.id, { intent: "cancel" })).toEqual({ go: "/profile", cookies: [] });
    expect((await entitlementsOf(member.id))[0]).toMatchObject({ cancelAtPeriodEnd: false });
  });

  it("a refund is the last word: over an event stamped a moment later, and over any news after it", async () => {
    const member = (await completeSignIn({ email: `refund-last-${Date.now()}@example.com`, proof: "email-link" })).user;
    const offer = (await getOfferByPath("/subscribe"))!;
    const started = await startCheckout({ offer, planId: "annual", user: member, visitorId: "visitor-refund-last", cookieHeader: null });
    if (!started.ok) throw new Error(started.reason);
    await completeLocalCheckout({ id: started.url.split("/").pop()!, visitorId: "visitor-refund-last", user: member, email: member.email });
    const [annual] = await entitlementsOf(member.id);
    // A subscription event dated a few seconds ahead of this server's clock arrived first.
    await applyEntitlementChange({ id: annual.id }, { at: new Date(Date.now() + 5_000), reason: "stripe:customer.subscription.updated", status: "active" });
    expect(await requestRefund(member, annual.id)).toMatchObject({ go: "/profile" });
    expect(await entitlementsOf(member.id)).toMatchObject([{ id: annual.id, status: "refunded", subscribed: false }]);
    // Later news (the cancellation, a late renewal) is kept in the history but gives no access back.
    await applyEntitlementChange({ id: annual.id }, { at: new Date(Date.now() + 60_000), reason: "stripe:invoice.paid", status: "active" });
    expect(await entitlementsOf(member.id)).toMatchObject([{ id: annual.id, status: "refunded", subscribed: false }]);
    expect((await entitlementHistory(annual.id)).map((h) => [h.reason, h.status])).toEqual([
      ["purchase", "active"],
      ["stripe:customer.subscription.updated", "active"],
      ["refund:local", "refunded"],
      ["stripe:invoice.paid", "refunded"],
    ]);
  });
});
