/**
 * The e-mail step before the result and the recovery e-mails (ADR 44): the funnel format and
 * lint know the step, its form asks for consent apart from the address, the lead is recorded
 * with the answers, and the queue sends each recovery e-mail once, at sensible hours, until
 * the visitor buys, unsubscribes or the sequence ends.
 */
import { describe, expect, it } from "vitest";
import type { OutgoingEmail } from "~/email/mailer.server";
import { stepFormSchema } from "~/funnels/answer-form";
import { answerFunnelStep, stepToAnswer, type LeadToRecord } from "~/funnels/flow.server";
import { lintFunnelDocument } from "~/funnels/lint";
import { resolveFunnel } from "~/content/funnel-resolve";
import { writeFunnelState } from "~/funnels/state.server";
import { backLink, fromSignedLink, leadFromUnsubscribeToken, recoveryUnsubscribeLink } from "~/recovery/links.server";
import { noteCheckoutStarted, noteLeadPurchase, recordLead, runDueRecovery, unsubscribeLead } from "~/recovery/leads.server";
import { atSensibleHour } from "~/recovery/schedule";
import { db } from "~/utils/db.server";
import { formErrorsOf } from "~/utils/form-errors";
import { parseForm } from "~/utils/form.server";
import { isGo, isRefusal } from "~/utils/outcome";
import { funnelDocument, loadFunnel, sharedQuestions } from "./helpers";

const skin = loadFunnel("skin");
const HOUR = 3_600_000;
// 10:00 in UTC: the 1-hour e-mail is due at 11:00, a sensible hour.
const MORNING = new Date("2026-12-10T10:00:00Z");

function withSteps(edit: (steps: Record<string, unknown>[]) => void) {
  const doc = funnelDocument("skin");
  edit(doc.steps as Record<string, unknown>[]);
  return doc;
}

const emailIndex = () => (funnelDocument("skin").steps as { id: string }[]).findIndex((s) => s.id === "email");

describe("the e-mail step in the funnel format and the lint", () => {
  it("the skin quiz asks for the address between its analysing screen and its result, with recovery at 1 h and 24 h", () => {
    const step = skin.steps.find((s) => s.type === "email")!;
    // Listed last in the file (steps are found by id); the analysing screen leads to it, it leads to the result.
    expect(skin.steps.find((s) => s.id === "13")).toMatchObject({ next: [{ to: { step: "email" } }] });
    expect(step.next).toEqual([{ to: { step: "14" } }]);
    expect(step).toMatchObject({ title: "Where should we send your plan?", recoveryAfterHours: [1, 24], checkoutReminderAfterHours: 1 });
    expect(lintFunnelDocument(funnelDocument("skin"), sharedQuestions())).toEqual([]);
  });

  it("refuses a second e-mail step, hours out of order, and an e-mail step in a funnel without a result", () => {
    const twice = withSteps((steps) => steps.splice(emailIndex(), 0, { ...steps[emailIndex()], id: "email-2", next: [{ to: { step: "email" } }] }));
    expect(lintFunnelDocument(twice, sharedQuestions()).map((p) => p.message)).toContain("a funnel asks for the e-mail address once: only one e-mail step");
    const disordered = withSteps((steps) => (steps[emailIndex()].recoveryAfterHours = [24, 1]));
    expect(lintFunnelDocument(disordered, sharedQuestions()).map((p) => p.message)).toContain("list the recovery e-mails' hours in increasing order");
    const noResult = withSteps((steps) => {
      steps.pop();
      steps[steps.length - 1].next = [{ to: { href: "/subscribe" } }];
    });
    expect(resolveFunnel(noResult, sharedQuestions()).ok).toBe(false);
  });

  it("the lint refuses an e-mail step that leads out of the funnel instead of to the result", () => {
    const leaves = withSteps((steps) => (steps[emailIndex()].next = [{ to: { href: "/subscribe" } }]));
    const problems = lintFunnelDocument(leaves, sharedQuestions());
    expect(problems).toContainEqual({
      path: ["steps", emailIndex()],
      message: "the e-mail step comes before the result: its branches must lead to steps of this funnel, not out of it",
    });
  });
});

describe("the e-mail step's form", () => {
  const step = skin.steps.find((s) => s.type === "email")!;
  async function post(body: string) {
    const request = new Request("http://localhost/quiz/email", { method: "POST", body, headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    const { submission, status } = await parseForm(request, stepFormSchema(step));
    return submission.status === "success" ? { given: submission.value } : { status, errors: formErrorsOf(submission.reply()) };
  }

  it("an address alone is never consent; the ticked box is", async () => {
    expect(await post("email=+Ana%40Example.com+&intent=continue")).toEqual({ given: { email: "ana@example.com", consent: false, timeZone: null } });
    expect(await post("email=ana%40example.com&consent=yes&timeZone=Europe%2FBerlin")).toEqual({
      given: { email: "ana@example.com", consent: true, timeZone: "Europe/Berlin" },
    });
  });

  it("skipping goes on with nothing, whatever was typed", async () => {
    expect(await post("email=ana%40example.com&consent=yes&intent=skip")).toEqual({ given: { email: null, consent: false, timeZone: null } });
  });

  it("refuses a missing or malformed address, a forged consent value and unknown fields, with a 400 and words", async () => {
    expect(await post("intent=continue")).toEqual({ status: 400, errors: ["Please enter your e-mail address, or skip this step."] });
    expect(await post("email=not-an-address")).toEqual({ status: 400, errors: ["Please enter a valid e-mail address."] });
    expect(await post("email=ana%40example.com&consent=always")).toEqual({ status: 400, errors: ["Tick the box to agree, or leave it unticked."] });
    expect((await post("email=ana%40example.com&admin=1")).status).toBe(400);
  });
});

const ANSWERS = { skinType: "oily", mainConcern: ["acne", "redness"] };

/** The e-mail step answered by a visitor who has answered the whole skin quiz. */
async function answerEmail(given: { email: string | null; consent: boolean; timeZone?: string | null }) {
  const answers = Object.fromEntries(
    skin.steps.flatMap((s) => (s.type === "question" ? s.questions.map((q) => [q.field, q.select === "one" ? q.options[0].value : [q.options[0].value]]) : [])),
  );
  const cookie = (await writeFunnelState(skin, { answers: { ...answers, ...ANSWERS } })).split(";")[0];
  const at = await stepToAnswer({ cookieHeader: cookie, route: "/quiz", stepParam: "email", version: { funnel: skin, variant: null } });
  if (!at || isGo(at)) throw new Error("the e-mail step should be answerable");
  const answered = await answerFunnelStep(at, { timeZone: null, ...given });
  if (isRefusal(answered)) throw new Error(answered.message);
  return answered;
}

describe("answering the e-mail step", () => {
  it("with an address: the lead with the answers, the result and the consent as ticked, an email_captured event, on to the result", async () => {
    const answered = await answerEmail({ email: "ana@example.com", consent: false });
    expect(answered.go).toBe("/quiz/14");
    expect(answered.lead).toMatchObject({
      email: "ana@example.com",
      marketingConsent: false,
      consentText: null,
      offerPath: "/subscribe",
      recoveryAfterHours: [1, 24],
    });
    expect(answered.lead?.answers).toMatchObject(ANSWERS);
    expect(answered.events).toEqual([{ id: answered.lead!.eventId, name: "email_captured", funnel: "skin", step: "email", props: { consent: false } }]);
  });

  it("skipped: on to the result, nothing recorded", async () => {
    const answered = await answerEmail({ email: null, consent: false });
    expect(answered.go).toBe("/quiz/14");
    expect(answered.lead).toBeUndefined();
    expect(answered.events).toEqual([]);
  });
});

function outbox() {
  const sent: OutgoingEmail[] = [];
  return { sent, send: async (message: OutgoingEmail) => void sent.push(message) };
}

async function newLead(consent: boolean, options: { timeZone?: string; at?: Date } = {}) {
  const email = `lead-${crypto.randomUUID()}@glowcoach.test`;
  const visitorId = crypto.randomUUID();
  const answered = await answerEmail({ email, consent, timeZone: options.timeZone ?? "UTC" });
  const leadId = await recordLead(answered.lead as LeadToRecord, visitorId, options.at ?? MORNING);
  return { email, visitorId, leadId };
}

const to = (sent: OutgoingEmail[], email: string) => sent.filter((m) => m.to === email);

describe("the recovery sequence", () => {
  it("no consent: never e-mailed. Consent: the 1-hour e-mail once (two runs racing), the 24-hour one once, then nothing", async () => {
    const declined = await newLead(false);
    const { email, leadId } = await newLead(true);
    const mail = outbox();
    await runDueRecovery(new Date(MORNING.getTime() + 59 * 60_000), mail.send);
    expect(to(mail.sent, email)).toHaveLength(0);
    await Promise.all([runDueRecovery(new Date(MORNING.getTime() + HOUR), mail.send), runDueRecovery(new Date(MORNING.getTime() + HOUR), mail.send)]);
    expect(to(mail.sent, email)).toHaveLength(1);
    const first = to(mail.sent, email)[0];
    expect(first.subject).toBe("Your plan is ready when you are");
    expect(first.text).toContain("Your answers: oily skin, breakouts, redness.");
    expect(first.headers).toMatchObject({ "List-Unsubscribe": `<${recoveryUnsubscribeLink(leadId)}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" });
    expect(first.link).toBe(backLink(leadId, "1", "/subscribe"));
    await runDueRecovery(new Date(MORNING.getTime() + 23 * HOUR), mail.send);
    expect(to(mail.sent, email)).toHaveLength(1);
    await runDueRecovery(new Date(MORNING.getTime() + 24 * HOUR), mail.send);
    await runDueRecovery(new Date(MORNING.getTime() + 30 * 24 * HOUR), mail.send);
    expect(to(mail.sent, email)).toHaveLength(2);
    expect(to(mail.sent, declined.email)).toHaveLength(0);
    expect((await db.lead.findUniqueOrThrow({ where: { id: leadId } })).dueAt).toBeNull();
  });

  it("stops on purchase and on unsubscribe", async () => {
    const buyer = await newLead(true);
    const leaver = await newLead(true);
    const mail = outbox();
    await noteLeadPurchase({ visitorId: buyer.visitorId, email: buyer.email, at: new Date(MORNING.getTime() + 10 * 60_000), price: 19.99, currency: "USD" });
    expect(await unsubscribeLead(leaver.leadId)).toBe(true);
    await runDueRecovery(new Date(MORNING.getTime() + 48 * HOUR), mail.send);
    expect(to(mail.sent, buyer.email)).toHaveLength(0);
    expect(to(mail.sent, leaver.email)).toHaveLength(0);
  });

  it("a purchase the hook missed (a completed checkout of the visitor) still stops it at send time", async () => {
    const lead = await newLead(true);
    await db.checkoutSession.create({
      data: {
        id: `cs_local_${crypto.randomUUID()}`,
        provider: "local",
        visitorId: lead.visitorId,
        offerId: "skin",
        planId: "monthly",
        tier: "monthly",
        planName: "Monthly",
        amountMinor: 1999,
        currency: "usd",
        cancelPath: "/subscribe",
        status: "complete",
        createdAt: new Date(MORNING.getTime() + 60_000),
        completedAt: new Date(MORNING.getTime() + 120_000),
      },
    });
    const mail = outbox();
    expect(await runDueRecovery(new Date(MORNING.getTime() + HOUR), mail.send)).toMatchObject({ bought: 1 });
    expect(to(mail.sent, lead.email)).toHaveLength(0);
  });

  it("waits for 9:00 in the visitor's zone when the e-mail would fall in their night", async () => {
    // 20:30 in Los Angeles (04:30 UTC next day): +1 h is 21:30 there, so it waits for 9:00.
    const evening = new Date("2026-12-11T04:30:00Z");
    expect(atSensibleHour(new Date(evening.getTime() + HOUR), "America/Los_Angeles").toISOString()).toBe("2026-12-11T17:00:00.000Z");
    expect(atSensibleHour(new Date("2026-12-11T12:00:00Z"), "America/Los_Angeles").toISOString()).toBe("2026-12-11T17:00:00.000Z");
    expect(atSensibleHour(MORNING, "UTC")).toEqual(MORNING);
    const { leadId } = await newLead(true, { timeZone: "America/Los_Angeles", at: evening });
    expect((await db.lead.findUniqueOrThrow({ where: { id: leadId } })).dueAt?.toISOString()).toBe("2026-12-11T17:00:00.000Z");
  });

  it("a checkout started and not finished gets its one reminder an hour later, ahead of the 24-hour e-mail", async () => {
    const lead = await newLead(true);
    const mail = outbox();
    await runDueRecovery(new Date(MORNING.getTime() + HOUR), mail.send);
    const started = new Date(MORNING.getTime() + 2 * HOUR);
    await db.checkoutSession.create({
      data: {
        id: `cs_local_${crypto.randomUUID()}`,
        provider: "local",
        visitorId: lead.visitorId,
        offerId: "skin",
        planId: "monthly",
        tier: "monthly",
        planName: "Monthly Plan",
        amountMinor: 1999,
        currency: "usd",
        cancelPath: "/subscribe",
        createdAt: started,
      },
    });
    await noteCheckoutStarted(lead.visitorId, started);
    await runDueRecovery(new Date(started.getTime() + HOUR - 60_000), mail.send);
    expect(to(mail.sent, lead.email)).toHaveLength(1);
    await Promise.all([runDueRecovery(new Date(started.getTime() + HOUR), mail.send), runDueRecovery(new Date(started.getTime() + HOUR), mail.send)]);
    await runDueRecovery(new Date(started.getTime() + 2 * HOUR), mail.send);
    const reminders = to(mail.sent, lead.email).filter((m) => m.subject === "You were one step away from your plan");
    expect(reminders).toHaveLength(1);
    expect(reminders[0].text).toContain("You started checking out the Monthly Plan and didn't finish.");
    expect(to(mail.sent, lead.email)).toHaveLength(2);
  });
});

/** Asks the server's open-image handler (app/server.ts runs it before Remix) for `src`: its status, type and whether it passed on. */
async function fetchOpenImage(src: string): Promise<{ status: number; type: string; body: string; passedOn: boolean }> {
  const { serveRecoveryOpen } = await import("~/recovery/opens.server");
  const url = new URL(src);
  const answer = { status: 0, type: "", body: "", passedOn: false };
  const res = {
    writeHead(status: number, headers: Record<string, string>) {
      answer.status = status;
      answer.type = headers["Content-Type"] ?? "";
    },
    end(body?: string | Buffer) {
      answer.body = body ? String(body) : "";
    },
  };
  await serveRecoveryOpen({ method: "GET", url: `${url.pathname}${url.search}`, headers: {} } as never, res as never, () => {
    answer.passedOn = true;
  });
  return answer;
}

const imageIn = (mail: OutgoingEmail) => /<img\b[^>]*\bsrc="([^"]+)"/.exec(mail.html)?.[1].replaceAll("&amp;", "&") ?? "";

describe("recovery e-mails opened", () => {
  it("each e-mail carries a signed 1×1 image; loading it counts one open of that e-mail, however often it loads", async () => {
    const lead = await newLead(true);
    const mail = outbox();
    await runDueRecovery(new Date(MORNING.getTime() + HOUR), mail.send);
    await runDueRecovery(new Date(MORNING.getTime() + 24 * HOUR), mail.send);
    const [first, second] = to(mail.sent, lead.email);
    expect(new URL(imageIn(first)).pathname).toBe("/recovery/open.gif");
    expect(imageIn(first)).not.toBe(imageIn(second));

    const image = await fetchOpenImage(imageIn(first));
    expect(image).toMatchObject({ status: 200, type: "image/gif", passedOn: false });
    await Promise.all([fetchOpenImage(imageIn(first)), fetchOpenImage(imageIn(first)), fetchOpenImage(imageIn(second))]);
    const opens = await db.analyticsEvent.findMany({ where: { visitorId: lead.visitorId, name: "recovery_opened" }, orderBy: { createdAt: "asc" } });
    expect(opens.map((e) => JSON.parse(e.props)).sort((a, b) => a.email.localeCompare(b.email))).toEqual([
      { lead: lead.leadId, email: "1" },
      { lead: lead.leadId, email: "2" },
    ]);
  });

  it("a forged or tampered image address, or one naming no lead, is the calm 400 page and stores nothing", async () => {
    const lead = await newLead(true);
    const mail = outbox();
    await runDueRecovery(new Date(MORNING.getTime() + HOUR), mail.send);
    const src = new URL(imageIn(to(mail.sent, lead.email)[0]));
    const tampered = new URL(src);
    tampered.searchParams.set("e", "2");
    const forged = new URL(src);
    forged.searchParams.set("sig", "x".repeat(43));
    const unsigned = new URL(src);
    unsigned.search = "";
    for (const bad of [tampered, forged, unsigned, new URL(`${src.origin}${src.pathname}?lead=%00&e=1&sig=%ZZ`)]) {
      const answer = await fetchOpenImage(bad.href);
      expect(answer.status, bad.href).toBe(400);
      expect(answer.type).toBe("text/html; charset=utf-8");
      expect(answer.body).toContain("This link isn&#39;t valid");
    }
    // Signed by us, for a lead that is gone: no event either.
    await db.lead.delete({ where: { id: lead.leadId } });
    expect((await fetchOpenImage(src.href)).status).toBe(400);
    expect(await db.analyticsEvent.count({ where: { visitorId: lead.visitorId, name: "recovery_opened" } })).toBe(0);
    // Any other address is not the handler's.
    expect(await fetchOpenImage("http://127.0.0.1/subscribe?lead=1")).toMatchObject({ passedOn: true, status: 0 });
  });
});

describe("the recovery links", () => {
  it("are signed: a tampered lead, e-mail number or signature is refused", () => {
    const link = new URL(backLink("0f8fad5b-d9cb-469f-a165-70867728950e", "1", "/subscribe"));
    expect(fromSignedLink(link)).toEqual({ leadId: "0f8fad5b-d9cb-469f-a165-70867728950e", tag: "1" });
    const other = new URL(link);
    other.searchParams.set("e", "2");
    expect(fromSignedLink(other)).toBeNull();
    const token = new URL(recoveryUnsubscribeLink("0f8fad5b-d9cb-469f-a165-70867728950e")).searchParams.get("token");
    expect(leadFromUnsubscribeToken(token)).toBe("0f8fad5b-d9cb-469f-a165-70867728950e");
    expect(leadFromUnsubscribeToken(token!.replace("0f8f", "0f8e"))).toBeNull();
  });
});

describe("the admin's numbers for leads and recovery", () => {
  const T0 = new Date("2026-11-01T12:00:00Z");
  const at = (hours: number) => new Date(T0.getTime() + hours * HOUR);
  const ev = (visitorId: string, name: string, hours: number, props: Record<string, unknown> = {}, variants: Record<string, string> | null = null) => ({
    visitorId,
    name,
    props,
    variants,
    createdAt: at(hours),
  });

  it("are counted from the log: leads, lead → purchase, sent/opened/clicked, recovered revenue, per variant", async () => {
    const { recoveryReports } = await import("~/admin/recovery-metrics");
    const A = { "email-step": "on" };
    const B = { "email-step": "later" };
    const log = [
      ev("old", "email_captured", -100, { consent: true }, A),
      ev("a", "email_captured", 0, { consent: true }, A),
      ev("b", "email_captured", 0, { consent: false }, A),
      ev("c", "email_captured", 0, { consent: true }, B),
      ev("a", "recovery_sent", 1, { kind: "sequence" }),
      ev("c", "recovery_sent", 1, { kind: "sequence" }),
      ev("a", "recovery_opened", 1.5, { email: "1" }),
      ev("a", "recovery_clicked", 2),
      ev("a", "recovery_purchased", 3, { price: 59, currency: "USD" }),
      ev("b", "purchase", 4, { price: 9.99, currency: "USD" }),
      ev("old", "purchase", -99, { price: 9.99, currency: "USD" }),
    ];
    const [all, later, on] = recoveryReports(log, at(-1));
    expect(all).toEqual({
      variant: null,
      leads: 3,
      consenting: 2,
      leadPurchases: 2,
      leadToPurchase: 2 / 3,
      sent: 2,
      opened: 1,
      clicked: 1,
      recoveredPurchases: 1,
      recoveredRevenue: [{ currency: "USD", amount: 59 }],
    });
    expect(on).toMatchObject({ variant: "email-step: on", leads: 2, leadPurchases: 2, sent: 1, recoveredPurchases: 1 });
    expect(later).toMatchObject({ variant: "email-step: later", leads: 1, leadPurchases: 0, leadToPurchase: 0, sent: 1, recoveredRevenue: [] });
  });

  it("on the dashboard equal the event log after a real sequence: lead, e-mail, click, purchase", async () => {
    const { recordEvent } = await import("~/analytics/events.server");
    const { flushEvents } = await import("~/analytics/event-batch.server");
    const { recoveryView } = await import("~/admin/dashboard.server");
    const { restoreFromLead } = await import("~/recovery/leads.server");
    const since = new Date(Date.now() - 1000);
    const email = `lead-${crypto.randomUUID()}@glowcoach.test`;
    const visitorId = crypto.randomUUID();
    const answered = await answerEmail({ email, consent: true, timeZone: "UTC" });
    for (const event of answered.events) await recordEvent({ ...event, visitorId });
    const leadId = await recordLead(answered.lead as LeadToRecord, visitorId, MORNING);
    await runDueRecovery(new Date(MORNING.getTime() + HOUR), outbox().send);
    const { recordOpen } = await import("~/recovery/opens.server");
    await recordOpen(leadId, "1");
    await recordOpen(leadId, "1");
    await restoreFromLead(leadId, "1", crypto.randomUUID());
    await noteLeadPurchase({ visitorId: crypto.randomUUID(), email, at: new Date(MORNING.getTime() + 2 * HOUR), price: 9.99, currency: "USD" });
    await flushEvents();

    const [everyone] = await recoveryView(since);
    const counted = async (name: string) =>
      (
        await db.analyticsEvent.findMany({
          where: {
            name,
            createdAt: { gte: since },
            visitorId: { in: (await db.analyticsEvent.findMany({ where: { name: "email_captured", createdAt: { gte: since } } })).map((e) => e.visitorId) },
          },
        })
      ).length;
    expect(everyone.leads).toBe(
      new Set((await db.analyticsEvent.findMany({ where: { name: "email_captured", createdAt: { gte: since } } })).map((e) => e.visitorId)).size,
    );
    expect(everyone.sent).toBe(await counted("recovery_sent"));
    expect(everyone.opened).toBe(await counted("recovery_opened"));
    expect(everyone.recoveredPurchases).toBe(await counted("recovery_purchased"));
    // This lead's own trail: one e-mail, clicked on another device (logged there), bought.
    const trail = await db.analyticsEvent.findMany({ where: { visitorId }, orderBy: { createdAt: "asc" } });
    expect(trail.map((e) => e.name)).toEqual(["email_captured", "recovery_sent", "recovery_opened", "recovery_purchased"]);
    expect(everyone.sent).toBeGreaterThanOrEqual(1);
    expect(everyone.recoveredRevenue.find((r) => r.currency === "USD")?.amount).toBeGreaterThanOrEqual(9.99);
  });
});
