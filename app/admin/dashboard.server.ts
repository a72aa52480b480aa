/**
 * /admin's data: fetches rows for the pure metrics in ./metrics.ts, the member search, and
 * the role change (confirmed on a second screen, so it works as plain HTML forms).
 */
import { flushEvents } from "~/analytics/event-batch.server";
import type { Role } from "~/auth/account-state";
import type { SessionUser } from "~/auth/users.server";
import { getFunnels } from "~/content/content.server";
import { allCurrentStates, entitlementsOf, findEntitlement } from "~/billing/entitlements.server";
import { localDate, memberStreak } from "~/members/calendar";
import { now } from "~/utils/clock.server";
import { db } from "~/utils/db.server";
import { go, refusal, type Go, type Refusal } from "~/utils/outcome";
import { toastHeader } from "~/utils/toast.server";
import type { Period } from "./format";
import { flowIdOf, funnelFlows } from "./flows";
import { recoveryReports, type RecoveryEventRow } from "./recovery-metrics";
import {
  activeSubscriptions,
  attributeToFunnel,
  funnelReports,
  oneTapReports,
  retention,
  revenueByOffer,
  type Buyer,
  type EventRow,
  type FunnelInfo,
} from "./metrics";

const DAY_MS = 86_400_000;
/** How far back retention looks for purchases. */
const RETENTION_DAYS = 180;
const MAX_SEARCH_RESULTS = 20;
/** Characters of a member search kept. */
const MAX_QUERY = 200;
export const ROLES = ["user", "admin"] as const;

function parseProps(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

function toRow(e: {
  visitorId: string;
  name: string;
  funnel: string | null;
  step: string | null;
  props: string;
  userId: string | null;
  createdAt: Date;
}): EventRow {
  return { ...e, props: parseProps(e.props) };
}

const EVENT_SELECT = { visitorId: true, name: true, funnel: true, step: true, props: true, userId: true, createdAt: true } as const;

/** The funnels (a flow of several funnel pages counts as one) with their question steps in order, labelled by their titles. */
async function funnelInfos(): Promise<FunnelInfo[]> {
  return funnelFlows([...(await getFunnels()).values()]);
}

/** Buyers: a purchase event names its member, or its checkout session leads to the entitlement. */
async function buyersSince(since: Date): Promise<Buyer[]> {
  const purchases = (await db.analyticsEvent.findMany({ where: { name: "purchase", createdAt: { gte: since } }, select: EVENT_SELECT })).map(toRow);
  if (purchases.length === 0) return [];
  const history = (
    await db.analyticsEvent.findMany({
      where: { visitorId: { in: [...new Set(purchases.map((p) => p.visitorId))] }, name: { in: ["funnel_viewed", "funnel_completed"] } },
      select: EVENT_SELECT,
    })
  ).map(toRow);
  const buyers: Buyer[] = [];
  for (const p of purchases) {
    const sessionId = typeof p.props.checkoutSessionId === "string" ? p.props.checkoutSessionId : null;
    const userId = p.userId ?? (sessionId ? (await findEntitlement({ stripeCheckoutSessionId: sessionId }))?.userId : undefined);
    if (userId) buyers.push({ userId, funnel: attributeToFunnel(p, history), purchasedAt: p.createdAt });
  }
  return buyers;
}

const RECOVERY_EVENTS = ["recovery_sent", "recovery_opened", "recovery_clicked", "recovery_purchased", "purchase"];

function parseVariants(text: string | null): Record<string, string> | null {
  if (!text) return null;
  const value = parseProps(text);
  return Object.fromEntries(Object.entries(value).filter((pair): pair is [string, string] => typeof pair[1] === "string"));
}

/** The one-tap offer's numbers since `since` (ADR 45), from the event log, split by experiment variant. */
export async function oneTapView(since: Date) {
  const rows = await db.analyticsEvent.findMany({
    where: { name: { in: ["upsell_shown", "upsell_bought"] }, createdAt: { gte: since } },
    select: { visitorId: true, name: true, props: true, variants: true, createdAt: true },
  });
  return oneTapReports(
    rows.map((e) => ({ ...e, props: parseProps(e.props), variants: parseVariants(e.variants) })),
    since,
  );
}

/** The e-mail step's and recovery e-mails' numbers since `since` (ADR 44), from the event log. */
export async function recoveryView(since: Date) {
  const select = { visitorId: true, name: true, props: true, variants: true, createdAt: true } as const;
  const toRecoveryRow = (e: { visitorId: string; name: string; props: string; variants: string | null; createdAt: Date }): RecoveryEventRow => ({
    ...e,
    props: parseProps(e.props),
    variants: parseVariants(e.variants),
  });
  const leads = (await db.analyticsEvent.findMany({ where: { name: "email_captured", createdAt: { gte: since } }, select })).map(toRecoveryRow);
  const visitors = [...new Set(leads.map((e) => e.visitorId))];
  const after = visitors.length
    ? (await db.analyticsEvent.findMany({ where: { visitorId: { in: visitors }, name: { in: RECOVERY_EVENTS }, createdAt: { gte: since } }, select })).map(
        toRecoveryRow,
      )
    : [];
  return recoveryReports([...leads, ...after], since);
}

export function parsePeriod(value: string | null): Period {
  return value === "30" ? 30 : 7;
}

/**
 * Where each member came from: their first purchase (the event's userId) leads to the buying
 * visitor, whose funnel and first landing are known.
 */
async function memberSources(userIds: string[], titles: Map<string, string>) {
  const sources = new Map<string, { funnel: string | null; answers: number; utmSource: string | null; referrer: string | null }>();
  if (userIds.length === 0) return sources;
  const purchases = (
    await db.analyticsEvent.findMany({ where: { name: "purchase", userId: { in: userIds } }, orderBy: { createdAt: "asc" }, select: EVENT_SELECT })
  ).map(toRow);
  const visitors = [...new Set(purchases.map((p) => p.visitorId))];
  const [history, landings] = visitors.length
    ? await Promise.all([
        db.analyticsEvent
          .findMany({ where: { visitorId: { in: visitors }, name: { in: ["funnel_viewed", "funnel_completed"] } }, select: EVENT_SELECT })
          .then((rows) => rows.map(toRow)),
        db.visitor.findMany({ where: { id: { in: visitors } } }),
      ])
    : [[], []];
  for (const purchase of purchases) {
    const userId = purchase.userId;
    if (!userId || sources.has(userId)) continue;
    const funnel = attributeToFunnel(purchase, history);
    const completed = history.filter((e) => e.name === "funnel_completed" && e.funnel === funnel && e.createdAt <= purchase.createdAt).at(-1);
    const answers = completed?.props.answers;
    const landing = landings.find((l) => l.id === purchase.visitorId);
    sources.set(userId, {
      funnel: funnel ? (titles.get(funnel) ?? funnel) : null,
      answers: answers && typeof answers === "object" ? Object.keys(answers).length : 0,
      utmSource: landing?.utmSource ?? null,
      referrer: landing?.referrer ?? null,
    });
  }
  return sources;
}

async function findMembers(query: string, at: Date, titles: Map<string, string>) {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const users = await db.user.findMany({
    where: { email: { contains: q } },
    orderBy: { email: "asc" },
    take: MAX_SEARCH_RESULTS,
    select: { id: true, email: true, role: true, timeZone: true, planCompletions: { select: { date: true } } },
  });
  const [sources, entitlements] = await Promise.all([
    memberSources(
      users.map((u) => u.id),
      titles,
    ),
    Promise.all(users.map((u) => entitlementsOf(u.id, at))),
  ]);
  return users.map((u, i) => {
    const plans = entitlements[i];
    return {
      id: u.id,
      email: u.email,
      role: u.role,
      plans: plans.map((p) => ({ tier: p.tier, status: p.status, subscribed: p.subscribed, planName: p.planName, offerId: p.offerId })),
      // The streak the member sees on /home: every plan's days, freezes included.
      streak: memberStreak(
        u.planCompletions.map((c) => c.date),
        localDate(at, u.timeZone),
      ).currentStreak,
      source: sources.get(u.id) ?? null,
    };
  });
}

/**
 * The dashboard for `admin` over the last `period` days: funnels, revenue, subscriptions and
 * retention, the members whose address contains `query`, and the member `confirmId` names
 * (one of those found) for the role change's confirmation.
 */
export async function dashboardView(input: { admin: SessionUser; period: Period; query: string; confirmId: string | null }) {
  const { admin, period, confirmId } = input;
  const query = input.query.slice(0, MAX_QUERY);
  const at = now();
  const since = new Date(at.getTime() - period * DAY_MS);
  // Views still queued in this process count too.
  await flushEvents();

  const [events, funnels, subscriptions, buyers, recovery, oneTap] = await Promise.all([
    db.analyticsEvent.findMany({ where: { createdAt: { gte: since } }, select: EVENT_SELECT }).then((rows) => rows.map(toRow)),
    funnelInfos(),
    allCurrentStates(),
    buyersSince(new Date(at.getTime() - RETENTION_DAYS * DAY_MS)),
    recoveryView(since),
    oneTapView(since),
  ]);
  // Checkouts and purchases in the window are attributed using their visitors' earlier funnel events too.
  const payers = [...new Set(events.filter((e) => e.name === "initiate_checkout" || e.name === "purchase").map((e) => e.visitorId))];
  const history = payers.length
    ? (
        await db.analyticsEvent.findMany({ where: { visitorId: { in: payers }, name: { in: ["funnel_viewed", "funnel_completed"] } }, select: EVENT_SELECT })
      ).map(toRow)
    : [];
  const completions = buyers.length
    ? await db.planCompletion.findMany({ where: { userId: { in: buyers.map((b) => b.userId) } }, select: { userId: true, date: true } })
    : [];

  const reports = funnelReports(events, funnels, since, history).sort((a, b) => b.views - a.views || a.title.localeCompare(b.title));
  // A page of a flow is named by its flow, wherever a funnel is named.
  const flowOf = flowIdOf(funnels);
  const titles = new Map([...flowOf].map(([part, flow]) => [part, funnels.find((f) => f.id === flow)!.title]));
  const members = await findMembers(query, at, titles);
  const confirm = confirmId ? (members.find((m) => m.id === confirmId) ?? null) : null;

  return {
    email: admin.email,
    adminId: admin.id,
    period,
    funnels: reports,
    revenue: revenueByOffer(events, since),
    oneTap,
    recovery,
    subscriptions: activeSubscriptions(subscriptions, at),
    retention: retention(
      buyers.map((b) => ({ ...b, funnel: b.funnel ? (flowOf.get(b.funnel) ?? b.funnel) : null })),
      completions,
      at,
    ).map((r) => ({ ...r, title: r.funnel ? (titles.get(r.funnel) ?? r.funnel) : "No funnel" })),
    query,
    members,
    confirm,
  };
}

/**
 * Changes a member's role (the form of the confirmation screen), then back to the search the
 * admin came from (`query`, else the member's address) with a toast saying what changed.
 */
export async function setMemberRole(input: { admin: SessionUser; userId: string; role: Role; query: string | undefined }): Promise<Go | Refusal> {
  const { admin, userId, role } = input;
  // An admin removing their own access could leave nobody able to undo it.
  if (userId === admin.id && role !== "admin") return refusal(400, "You can't remove your own admin access.");
  const user = await db.user.findUnique({ where: { id: userId }, select: { id: true, email: true } });
  if (!user) return refusal(404, "That member does not exist.");
  await db.user.update({ where: { id: user.id }, data: { role } });
  const back = new URLSearchParams({ q: input.query?.slice(0, MAX_QUERY) ?? user.email });
  const toast = await toastHeader({ title: "Role changed", description: `${user.email} is now ${role === "admin" ? "an admin" : "a user"}.` });
  return go(`/admin?${back}#users`, [toast]);
}
