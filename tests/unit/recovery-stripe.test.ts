/**
 * A checkout left unfinished in Stripe mode (ADR 44, round 2): the session is created with
 * Stripe's recovery of expired sessions only for a visitor who agreed to our e-mails, expires
 * after the funnel's delay, and its signed `checkout.session.expired` webhook makes the reminder
 * due; the queue sends it once, with Stripe's recovery link, and never after a purchase. A session
 * opened from that link and paid is this browser's purchase, logged as bought after recovery.
 */
import crypto from "node:crypto";
import Stripe from "stripe";
import { afterAll, describe, expect, it } from "vitest";
import type { OutgoingEmail } from "~/email/mailer.server";
import type { Go } from "~/utils/outcome";
import { startFakeStripeForApp, type FakeStripe } from "./fake-stripe";

const WEBHOOK_SECRET = "whsec_recovery_stripe";
const fake: FakeStripe = await startFakeStripeForApp(WEBHOOK_SECRET);
afterAll(() => fake.close());

const { startCheckout } = await import("~/payments/checkout.server");
const { handleStripeWebhook } = await import("~/payments/webhooks.server");
const { getOfferByPath } = await import("~/content/content.server");
const { recordLead, runDueRecovery, noteLeadPurchase, restoreFromLead } = await import("~/recovery/leads.server");
const { db } = await import("~/utils/db.server");
const { fromSignedLink, markReopened } = await import("~/recovery/links.server");

const { checkPayment } = await import("~/payments/payment-success.server");

const signer = new Stripe("sk_test_fake", { telemetry: false });
const HOUR = 3_600_000;

function deliver(type: string, object: unknown, id = `evt_${crypto.randomUUID()}`) {
  const payload = JSON.stringify({ id, object: "event", type, created: Math.floor(Date.now() / 1000), data: { object } });
  return handleStripeWebhook(payload, signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }));
}

function outbox() {
  const sent: OutgoingEmail[] = [];
  return { sent, send: async (message: OutgoingEmail) => void sent.push(message) };
}

/** A visitor who gave an address at the skin quiz's e-mail step (in UTC, at noon: a sensible hour), with or without consent. */
async function visitorWithLead(consent: boolean, at: Date) {
  const visitorId = crypto.randomUUID();
  const email = `stripe-lead-${crypto.randomUUID()}@glowcoach.test`;
  await recordLead(
    {
      eventId: crypto.randomUUID(),
      funnelId: "skin",
      email,
      marketingConsent: consent,
      consentText: consent ? "Yes, send me skincare tips and offers by e-mail." : null,
      answers: { skinType: "oily" },
      insight: "insight-oily",
      offerPath: "/subscribe",
      timeZone: "UTC",
      recoveryAfterHours: [24],
      checkoutReminderAfterHours: 1,
    },
    visitorId,
    at,
  );
  return { visitorId, email };
}

async function startStripeCheckout(visitorId: string) {
  const offer = (await getOfferByPath("/subscribe"))!;
  const started = await startCheckout({ offer, planId: "monthly", user: null, visitorId, cookieHeader: null });
  expect(started).toMatchObject({ ok: true });
  return { sessionId: (started as { url: string }).url.split("/").pop()!, fields: fake.checkoutRequests.at(-1)! };
}

const reminders = (sent: OutgoingEmail[], email: string) => sent.filter((m) => m.to === email && m.subject === "You were one step away from your plan");

describe("Stripe's recovery of an expired checkout", () => {
  it("is asked for only with consent, expiring the session after the funnel's hour; the expired webhook, delivered three times, gives one reminder with Stripe's link", async () => {
    const at = new Date();
    const declined = await visitorWithLead(false, at);
    const plain = await startStripeCheckout(declined.visitorId);
    expect(plain.fields["after_expiration[recovery][enabled]"]).toBeUndefined();
    expect(plain.fields.expires_at).toBeUndefined();

    const lead = await visitorWithLead(true, at);
    const { sessionId, fields } = await startStripeCheckout(lead.visitorId);
    expect(fields["after_expiration[recovery][enabled]"]).toBe("true");
    const row = await db.checkoutSession.findUniqueOrThrow({ where: { id: sessionId } });
    expect(Number(fields.expires_at)).toBe(Math.floor(row.createdAt.getTime() / 1000) + 3600);

    // Nothing is sent for it before Stripe says it expired (no timer of ours for a Stripe checkout).
    const mail = outbox();
    await runDueRecovery(new Date(Date.now() + 2 * HOUR), mail.send);
    expect(reminders(mail.sent, lead.email)).toHaveLength(0);

    const expired = fake.expire(sessionId);
    const eventId = `evt_${crypto.randomUUID()}`;
    expect(await deliver("checkout.session.expired", expired, eventId)).toMatchObject({ status: 200, body: "checkout.session.expired: expired: reminder due" });
    await deliver("checkout.session.expired", expired, eventId);
    await deliver("checkout.session.expired", expired);
    // Due now, or at 09:00 when now is night in her zone: 12 hours on is always past it (and before her 24-hour e-mail).
    const later = new Date(Date.now() + 12 * HOUR + 60_000);
    await Promise.all([runDueRecovery(later, mail.send), runDueRecovery(later, mail.send)]);
    await runDueRecovery(new Date(later.getTime() + 60_000), mail.send);
    const [reminder, ...more] = reminders(mail.sent, lead.email);
    expect(more).toHaveLength(0);
    // Our signed link, which goes on to Stripe's while it lasts (counted as clicked when followed).
    expect(reminder.text).toContain(`See My Plan:\n${reminder.link}`);
    expect(await restoreFromLead(fromSignedLink(new URL(reminder.link!))!.leadId, "checkout", lead.visitorId)).toMatchObject({
      to: expired.after_expiration!.recovery.url,
    });
    expect(await db.checkoutSession.findUniqueOrThrow({ where: { id: sessionId } })).toMatchObject({ status: "canceled" });
    // The visitor who declined got nothing, and an expiry of theirs makes nothing due.
    expect(await deliver("checkout.session.expired", fake.expire(plain.sessionId))).toMatchObject({ status: 200, body: "checkout.session.expired: expired" });
    await runDueRecovery(new Date(later.getTime() + 2 * 60_000), mail.send);
    expect(mail.sent.filter((m) => m.to === declined.email)).toHaveLength(0);

    // She opens Stripe's link and pays: her purchase, bought after recovery.
    const recovered = fake.recover(expired.after_expiration!.recovery.url!);
    Object.assign(recovered, { status: "complete", payment_status: "paid", customer_details: { email: lead.email } });
    expect(await deliver("checkout.session.completed", recovered)).toMatchObject({ status: 200, body: "checkout.session.completed: fulfilled" });
    expect(await db.checkoutSession.findUniqueOrThrow({ where: { id: recovered.id } })).toMatchObject({ visitorId: lead.visitorId, status: "complete" });
    const events = await db.analyticsEvent.findMany({ where: { visitorId: lead.visitorId, name: { in: ["recovery_sent", "recovery_purchased"] } } });
    expect(events.map((e) => [e.name, JSON.parse(e.props).kind ?? JSON.parse(e.props).price]).sort()).toEqual([
      ["recovery_purchased", row.amountMinor / 100],
      ["recovery_sent", "checkout"],
    ]);
  });

  it("the reminder read on another device: its link goes on to Stripe's, and that browser, where she pays, is the buyer's (once); no other browser is", async () => {
    const lead = await visitorWithLead(true, new Date(Date.now() - HOUR));
    const { sessionId } = await startStripeCheckout(lead.visitorId);
    const expired = fake.expire(sessionId);
    await deliver("checkout.session.expired", expired);
    const mail = outbox();
    await runDueRecovery(new Date(Date.now() + 12 * HOUR + 60_000), mail.send);
    const [reminder] = reminders(mail.sent, lead.email);

    // Her phone follows the e-mail's link: on to Stripe's recovery link, the phone marked as reopening that checkout.
    const phone = crypto.randomUUID();
    const link = fromSignedLink(new URL(reminder.link!))!;
    expect(link.tag).toBe("checkout");
    const followed = (await restoreFromLead(link.leadId, link.tag, phone))!;
    expect(followed.to).toBe(expired.after_expiration!.recovery.url);
    const cookieOf = (setCookies: string[]) => setCookies.map((c) => c.split(";", 1)[0]).join("; ");
    const phoneCookies = cookieOf(followed.cookies);
    expect(await db.analyticsEvent.count({ where: { visitorId: phone, name: "recovery_clicked" } })).toBe(1);

    // She pays there; the page comes back before Stripe's webhook.
    const recovered = fake.recover(expired.after_expiration!.recovery.url!);
    const email = `phone-buyer-${crypto.randomUUID()}@glowcoach.test`;
    Object.assign(recovered, { status: "complete", payment_status: "paid", customer: "cus_phone", customer_details: { email } });
    const ask = (visitorId: string, cookieHeader: string | null) =>
      checkPayment({ checkoutSessionId: recovered.id, visitorId, clientIp: "127.0.0.1", cookieHeader, browserSession: null });
    // A browser without the mark, or marked for another checkout, learns nothing and changes nothing.
    expect(await ask(crypto.randomUUID(), null)).toEqual({ state: "unverified" });
    const other = await startStripeCheckout(crypto.randomUUID());
    expect(await ask(phone, cookieOf([await markReopened(other.sessionId)]))).toEqual({ state: "unverified" });
    expect(await db.user.findUnique({ where: { email } })).toBeNull();

    // The phone: the purchase is hers, the sign-in e-mail goes out, and this browser may use the routine now.
    const welcomed = await ask(phone, phoneCookies);
    expect(welcomed).toMatchObject({ go: `/payment-success?session_id=${recovered.id}` });
    const session = (welcomed as Go).cookies.find((cookie) => cookie.startsWith("gc_session="));
    expect(session).toBeTruthy();
    expect(await db.checkoutSession.findUniqueOrThrow({ where: { id: recovered.id } })).toMatchObject({ status: "complete", emailStatus: "sent" });
    // Once: the webhook after it, and the page again, send nothing more; no one-tap offer from a browser that did not start the checkout.
    expect(await deliver("checkout.session.completed", recovered)).toMatchObject({ status: 200 });
    expect(await ask(phone, phoneCookies)).toMatchObject({ state: "paid", email, emailStatus: "sent", oneTap: null });
    expect(await db.entitlement.count({ where: { stripeCheckoutSessionId: recovered.id } })).toBe(1);
    // The link again, after buying: the offer page (which says what she owns), not Stripe.
    expect(await restoreFromLead(link.leadId, link.tag, phone)).toMatchObject({ to: "/subscribe" });
  });

  it("no reminder when she bought since, whatever Stripe says of the expired session", async () => {
    const lead = await visitorWithLead(true, new Date());
    const { sessionId } = await startStripeCheckout(lead.visitorId);
    await noteLeadPurchase({ visitorId: lead.visitorId, email: lead.email, at: new Date(), price: 9.99, currency: "USD" });
    expect(await deliver("checkout.session.expired", fake.expire(sessionId))).toMatchObject({
      status: 200,
      body: "checkout.session.expired: expired: no reminder to send",
    });
    const mail = outbox();
    await runDueRecovery(new Date(Date.now() + 12 * HOUR + 60_000), mail.send);
    expect(reminders(mail.sent, lead.email)).toHaveLength(0);
  });

  it("an expired event with a forged signature is refused and stores nothing", async () => {
    const lead = await visitorWithLead(true, new Date());
    const { sessionId } = await startStripeCheckout(lead.visitorId);
    const expired = fake.expire(sessionId);
    const payload = JSON.stringify({ id: "evt_forged", object: "event", type: "checkout.session.expired", created: 1, data: { object: expired } });
    const forged = await handleStripeWebhook(payload, signer.webhooks.generateTestHeaderString({ payload, secret: "whsec_wrong" }));
    expect(forged.status).toBe(400);
    expect(await db.checkoutSession.findUniqueOrThrow({ where: { id: sessionId } })).toMatchObject({ status: "open", recoveryUrl: null });
  });
});
