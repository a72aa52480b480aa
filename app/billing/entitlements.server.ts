/**
 * Entitlements: what a member has bought, one per product (an offer), each with the history of
 * its states. This module is the only one that reads or writes the Entitlement tables:
 * checkout fulfilment, the Stripe webhooks and the billing portals write through
 * `applyEntitlementChange`; pages read `entitlementsOf` (see ADR 19).
 *
 * A state is never changed once written. A change appends a new state dated by the fact it
 * reports (a Stripe event's `created`, the moment a test payment completed). A change dated
 * before the current state is ignored, so a late, re-delivered or shuffled event never wins;
 * the same change applied twice appends nothing.
 */
import { againIfCreatedMeanwhile, db, type DbTransaction } from "~/utils/db.server";
import { now, validUntil } from "~/utils/clock.server";
import { executeWithin, query, queryRows, statement } from "~/utils/sql.server";
import { moneyFormat } from "~/billing/catalogue";

export type Tier = "monthly" | "annual" | "single_payment";

/** One entitlement as the pages read it (what every page needs to decide access and show billing). */
export type SubscriptionView = {
  subscribed: boolean;
  tier: Tier | null;
  /** Stripe's status, or "active"/"refunded" for a one-time plan; null without a record. */
  status: string | null;
  planName: string | null;
  /** "$9.99": the price as the member paid it. */
  priceText: string | null;
  startedAt: string | null;
  /** ISO time the paid period ends; null for single_payment and without a record. */
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  /** Monthly or annual and subscribed: the billing portal can manage it. */
  recurring: boolean;
};

export const NOT_SUBSCRIBED: SubscriptionView = {
  subscribed: false,
  tier: null,
  status: null,
  planName: null,
  priceText: null,
  startedAt: null,
  currentPeriodEnd: null,
  cancelAtPeriodEnd: false,
  recurring: false,
};

/** Stripe statuses in which the member has paid for the current period. */
const PAID_STATUSES = new Set(["active", "trialing", "past_due"]);

export function formatPrice(minor: number, currency: string): string {
  return moneyFormat(currency).format(minor / 100);
}

function isTier(value: string): value is Tier {
  return value === "monthly" || value === "annual" || value === "single_payment";
}

/** The fields of a state the views need. */
export type StateRow = {
  tier: string;
  status: string;
  planName: string;
  priceMinor: number;
  currency: string;
  startedAt: Date;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
};

/**
 * Pure: the view of a state at time `at`. A recurring plan whose period has ended is not
 * subscribed even if a webhook saying so has not arrived yet.
 */
export function viewOf(row: StateRow | null, at: Date): SubscriptionView {
  if (!row || !isTier(row.tier)) return NOT_SUBSCRIBED;
  const lifetime = row.tier === "single_payment";
  const periodOpen = lifetime || !row.currentPeriodEnd || row.currentPeriodEnd.getTime() > at.getTime();
  const subscribed = PAID_STATUSES.has(row.status) && periodOpen;
  return {
    subscribed,
    tier: row.tier,
    status: row.status,
    planName: row.planName,
    priceText: formatPrice(row.priceMinor, row.currency),
    startedAt: row.startedAt.toISOString(),
    currentPeriodEnd: lifetime ? null : (row.currentPeriodEnd?.toISOString() ?? null),
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    recurring: subscribed && !lifetime,
  };
}

/** An entitlement with its current state. */
export type EntitlementView = SubscriptionView & {
  id: string;
  offerId: string;
  /** The routine plan it unlocks (a plan document's _id). */
  routinePlanId: string;
  /** The offer's plan in the current state ("annual"). */
  planId: string;
  /** What the current state's plan costs, in minor units and ISO currency (a switch prorates it). */
  priceMinor: number;
  currency: string;
  grantedAt: string;
  stripeCustomerId: string | null;
  stripeSubscriptionId: string | null;
};

type CurrentRow = StateRow & {
  id: string;
  offerId: string;
  routinePlanId: string;
  planId: string;
  createdAt: Date;
  stripeCustomerId: string | null;
  stripeSubscriptionId: string | null;
  userId: string;
};

/** Raw values as the driver returns them (dates may be text, booleans 0/1): typed rows. */
function normalise(row: Record<string, unknown>): CurrentRow {
  const date = (v: unknown) => (v instanceof Date ? v : new Date(String(v)));
  return {
    ...(row as unknown as CurrentRow),
    priceMinor: Number(row.priceMinor),
    startedAt: date(row.startedAt),
    createdAt: date(row.createdAt),
    currentPeriodEnd: row.currentPeriodEnd === null || row.currentPeriodEnd === undefined ? null : date(row.currentPeriodEnd),
    cancelAtPeriodEnd: row.cancelAtPeriodEnd === true || row.cancelAtPeriodEnd === 1 || row.cancelAtPeriodEnd === 1n,
  };
}

function toView(row: CurrentRow, at: Date): EntitlementView {
  // A paid period that ends later ends the access shown now (viewOf): pages change then.
  const periodEnd = row.tier !== "single_payment" ? row.currentPeriodEnd?.getTime() : undefined;
  if (periodEnd !== undefined && periodEnd > at.getTime()) validUntil(periodEnd);
  return {
    ...viewOf(row, at),
    id: row.id,
    offerId: row.offerId,
    routinePlanId: row.routinePlanId,
    planId: row.planId,
    priceMinor: row.priceMinor,
    currency: row.currency,
    grantedAt: row.createdAt.toISOString(),
    stripeCustomerId: row.stripeCustomerId,
    stripeSubscriptionId: row.stripeSubscriptionId,
  };
}

/**
 * The current state of every entitlement of one member (or of everyone, for the admin), newest
 * purchase first. A state is current when no state of the same entitlement is later (by `at`,
 * then by id). Hot-path SQL (~/utils/sql.server, the same on SQLite and PostgreSQL): /home and
 * every step of the routine ask, and the ORM's nested "latest child" costs several times the CPU.
 */
async function currentRows(userId: string | null): Promise<CurrentRow[]> {
  const rows = userId ? await queryRows(currentStatesOfMember, userId) : await queryRows(everyCurrentState);
  return rows.map(normalise);
}

const currentStates = () =>
  query
    .selectFrom("Entitlement as e")
    .innerJoin("EntitlementState as s", "s.entitlementId", "e.id")
    .select(["e.id", "e.userId", "e.offerId", "e.routinePlanId", "e.createdAt", "e.stripeCustomerId", "e.stripeSubscriptionId"])
    .select(["s.tier", "s.planId", "s.planName", "s.priceMinor", "s.currency", "s.status", "s.startedAt", "s.currentPeriodEnd", "s.cancelAtPeriodEnd"])
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("EntitlementState as n")
            .select((eb) => eb.lit(1).as("later"))
            .whereRef("n.entitlementId", "=", "s.entitlementId")
            .where((eb) => eb.or([eb("n.at", ">", eb.ref("s.at")), eb.and([eb("n.at", "=", eb.ref("s.at")), eb("n.id", ">", eb.ref("s.id"))])])),
        ),
      ),
    )
    .orderBy("e.createdAt", "desc")
    .orderBy("e.id", "desc");
const currentStatesOfMember = statement((userId: string) => currentStates().where("e.userId", "=", userId));
const everyCurrentState = statement(() => currentStates());

/** Every entitlement of a member with its current state, newest purchase first. */
export async function entitlementsOf(userId: string, at: Date = now()): Promise<EntitlementView[]> {
  return (await currentRows(userId)).map((row) => toView(row, at));
}

/** The current state of every entitlement there is, for the admin's counts. */
export async function allCurrentStates(): Promise<(StateRow & { userId: string; offerId: string })[]> {
  return currentRows(null);
}

/** The entitlement a member has paid for that unlocks this routine plan, if any (newest first). */
export function ownedEntitlement(entitlements: EntitlementView[], routinePlanId: string): EntitlementView | null {
  return entitlements.find((e) => e.subscribed && e.routinePlanId === routinePlanId) ?? null;
}

type Lookup = { id: string } | { stripeSubscriptionId: string } | { stripePaymentIntentId: string } | { stripeCheckoutSessionId: string };

/**
 * One entitlement found by its id or a Stripe id, with its current state (webhooks, portals).
 * The ORM is fine here: these paths run on events, not on every page view.
 */
export async function findEntitlement(where: Lookup, at: Date = now()): Promise<(EntitlementView & { userId: string }) | null> {
  const row = await db.entitlement.findUnique({ where: where as never, include: { states: { orderBy: [{ at: "desc" }, { id: "desc" }], take: 1 } } });
  const state = row?.states[0];
  if (!row || !state) return null;
  return { ...toView({ ...state, ...row, planId: state.planId }, at), userId: row.userId };
}

/** A Stripe customer's entitlements (current states), newest purchase first. */
export async function entitlementsOfCustomer(customerId: string, at: Date = now()): Promise<(EntitlementView & { userId: string })[]> {
  const rows = await db.entitlement.findMany({
    where: { stripeCustomerId: customerId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    include: { states: { orderBy: [{ at: "desc" }, { id: "desc" }], take: 1 } },
  });
  return rows.flatMap((row) => (row.states[0] ? [{ ...toView({ ...row.states[0], ...row, planId: row.states[0].planId }, at), userId: row.userId }] : []));
}

/**
 * One member's entitlement with what the refund needs: the purchase (its first state: the plan
 * bought, the price paid and when) and the ids its payment has at Stripe. Null when the
 * entitlement is not this member's, so another member's id is simply not found.
 */
export async function purchaseOf(userId: string, entitlementId: string, at: Date = now()) {
  const row = await db.entitlement.findFirst({
    where: { id: entitlementId, userId },
    include: { states: { orderBy: [{ at: "asc" }, { id: "asc" }] } },
  });
  const first = row?.states[0];
  const current = row?.states.at(-1);
  if (!row || !first || !current) return null;
  return {
    current: toView({ ...current, ...row, planId: current.planId }, at),
    purchase: { at: first.at, planId: first.planId, planName: first.planName, priceMinor: first.priceMinor, currency: first.currency, tier: first.tier },
    stripe: {
      customerId: row.stripeCustomerId,
      subscriptionId: row.stripeSubscriptionId,
      paymentIntentId: row.stripePaymentIntentId,
      checkoutSessionId: row.stripeCheckoutSessionId,
    },
  };
}

/** The history of one entitlement, oldest state first (for tests, support and the admin). */
export async function entitlementHistory(entitlementId: string) {
  return db.entitlementState.findMany({ where: { entitlementId }, orderBy: [{ at: "asc" }, { id: "asc" }] });
}

// ---------------------------------------------------------------------------
// Writing

export type EntitlementChange = {
  /** When the reported fact happened; older than the current state → ignored. */
  at: Date;
  /** What brought the change: "purchase", "stripe:invoice.paid", "portal:switch", ... */
  reason: string;
  tier?: Tier;
  status?: string;
  planId?: string;
  planName?: string;
  priceMinor?: number;
  currency?: string;
  startedAt?: Date;
  /** undefined: unchanged; null: none (lifetime). */
  currentPeriodEnd?: Date | null;
  cancelAtPeriodEnd?: boolean;
};

/** Who bought what, and where: how an entitlement is found again, or created. */
export type EntitlementIdentity = {
  userId: string;
  offerId: string;
  routinePlanId: string;
  stripeCustomerId?: string | null;
  stripeSubscriptionId?: string | null;
  stripePaymentIntentId?: string | null;
  stripeCheckoutSessionId?: string | null;
};

export type ApplyResult = "created" | "updated" | "unchanged" | "stale" | "incomplete";

const STATE_FIELDS = ["tier", "planId", "planName", "priceMinor", "currency", "status", "startedAt", "currentPeriodEnd", "cancelAtPeriodEnd"] as const;

function same(a: unknown, b: unknown): boolean {
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  return a === b;
}

type Tx = DbTransaction;

/** Holds the entitlement rows the identity names until the transaction ends (see applyEntitlementChange). */
async function holdEntitlement(tx: Tx, identity: Partial<EntitlementIdentity> & { id?: string }): Promise<void> {
  const named = (value: string | null | undefined) => value ?? null;
  await executeWithin(
    tx,
    holdEntitlementRows,
    named(identity.id),
    named(identity.stripeSubscriptionId),
    named(identity.stripeCheckoutSessionId),
    named(identity.stripePaymentIntentId),
  );
}

/** A write that changes nothing, to the rows any of the ids name: they are held until the transaction ends. */
const holdEntitlementRows = statement((id: string | null, subscriptionId: string | null, checkoutSessionId: string | null, paymentIntentId: string | null) =>
  query
    .updateTable("Entitlement")
    .set((eb) => ({ createdAt: eb.ref("createdAt") }))
    .where((eb) =>
      eb.or([
        // A missing id is compared as NULL, which matches no row: the statement keeps one shape.
        eb("id", "=", eb.val(id)),
        eb("stripeSubscriptionId", "=", subscriptionId),
        eb("stripeCheckoutSessionId", "=", checkoutSessionId),
        eb("stripePaymentIntentId", "=", paymentIntentId),
      ]),
    ),
);

/** The ids that name an entitlement, most specific first. */
async function locate(tx: Tx, identity: Partial<EntitlementIdentity> & { id?: string }) {
  if (identity.id) return tx.entitlement.findUnique({ where: { id: identity.id } });
  for (const key of ["stripeSubscriptionId", "stripeCheckoutSessionId", "stripePaymentIntentId"] as const) {
    const value = identity[key];
    if (value) {
      const found = await tx.entitlement.findUnique({ where: { [key]: value } as never });
      if (found) return found;
    }
  }
  return null;
}

/**
 * Applies a change to the entitlement the identity names (by id, Stripe subscription, checkout
 * session or payment), creating it from a change that says what was bought. Ids the row does
 * not have yet (the checkout session, when a subscription event came first) are filled in;
 * ids it has are never replaced. `createOnly`: an existing entitlement only gets those ids.
 * Returns what happened and the entitlement's id.
 *
 * Two deliveries about one purchase may be applied at the same moment (two instances, or two
 * workers): they are applied one after the other. The transaction first writes to the rows the
 * identity names (a write that changes nothing), which holds them on PostgreSQL until it ends
 * and takes SQLite's write lock before anything is read; the other waits, then reads what this
 * one recorded, so an older change is never appended after a newer one and no change is built
 * on a state that was already replaced. Two first deliveries can both find nothing: the
 * Stripe ids are unique, so the second insert fails, and it is applied again to the row the
 * first created.
 *
 * `within`: applied as part of the caller's transaction (checkout fulfilment), stored with its
 * other writes or not at all; on such a race the caller runs its whole transaction again.
 */
export async function applyEntitlementChange(
  identity: (EntitlementIdentity & { id?: undefined }) | { id: string },
  change: EntitlementChange,
  options: { createOnly?: boolean; newest?: boolean; within?: DbTransaction } = {},
): Promise<{ result: ApplyResult; entitlementId: string | null }> {
  if (options.within) return applyOnce(identity, change, options);
  return againIfCreatedMeanwhile(() => applyOnce(identity, change, options));
}

async function applyOnce(
  identity: (EntitlementIdentity & { id?: undefined }) | { id: string },
  change: EntitlementChange,
  options: { createOnly?: boolean; newest?: boolean; within?: Tx },
): Promise<{ result: ApplyResult; entitlementId: string | null }> {
  const inTransaction = <T>(work: (tx: Tx) => Promise<T>): Promise<T> => (options.within ? work(options.within) : db.$transaction(work));
  return inTransaction(async (tx) => {
    await holdEntitlement(tx, identity);
    const found = await locate(tx, identity);
    const { at, reason } = change;
    if (!found) {
      if (!("userId" in identity) || !identity.userId) return { result: "incomplete" as const, entitlementId: null };
      const { tier, status, planId, planName, priceMinor, currency } = change;
      if (!tier || !status || !planId || !planName || priceMinor === undefined || !currency) return { result: "incomplete" as const, entitlementId: null };
      const created = await tx.entitlement.create({
        data: {
          userId: identity.userId,
          offerId: identity.offerId,
          routinePlanId: identity.routinePlanId,
          stripeCustomerId: identity.stripeCustomerId ?? null,
          stripeSubscriptionId: identity.stripeSubscriptionId ?? null,
          stripePaymentIntentId: identity.stripePaymentIntentId ?? null,
          stripeCheckoutSessionId: identity.stripeCheckoutSessionId ?? null,
          createdAt: at,
        },
      });
      await tx.entitlementState.create({
        data: {
          entitlementId: created.id,
          tier,
          planId,
          planName,
          priceMinor,
          currency,
          status,
          startedAt: change.startedAt ?? at,
          currentPeriodEnd: change.currentPeriodEnd ?? null,
          cancelAtPeriodEnd: change.cancelAtPeriodEnd ?? false,
          at,
          reason,
          recordedAt: now(),
        },
      });
      return { result: "created" as const, entitlementId: created.id };
    }

    // Fill in ids the row did not know yet (never replace one it has).
    if ("userId" in identity) {
      const missing: Record<string, string> = {};
      for (const key of ["stripeCustomerId", "stripeSubscriptionId", "stripePaymentIntentId", "stripeCheckoutSessionId"] as const) {
        const value = identity[key];
        if (value && !found[key]) missing[key] = value;
      }
      if (Object.keys(missing).length) await tx.entitlement.update({ where: { id: found.id }, data: missing });
    }
    if (options.createOnly) return { result: "unchanged" as const, entitlementId: found.id };

    const current = await tx.entitlementState.findFirst({ where: { entitlementId: found.id }, orderBy: [{ at: "desc" }, { id: "desc" }] });
    if (!current) throw new Error(`entitlement ${found.id} has no state`);
    // A change the app makes itself (a refund) is the newest fact about the purchase, even if an
    // event stamped a moment later by Stripe's clock arrived first.
    if (options.newest && at.getTime() < current.at.getTime()) return applyAt(tx, found.id, current, { ...change, at: current.at });
    if (at.getTime() < current.at.getTime()) return { result: "stale" as const, entitlementId: found.id };
    return applyAt(tx, found.id, current, change);
  });
}

type StateRowFull = NonNullable<Awaited<ReturnType<Tx["entitlementState"]["findFirst"]>>>;

/** Appends the change on top of the current state (unless it is the same fact again). */
async function applyAt(
  tx: Tx,
  entitlementId: string,
  current: StateRowFull,
  change: EntitlementChange,
): Promise<{ result: ApplyResult; entitlementId: string }> {
  const { at, reason, ...fields } = change;
  const next = { ...current };
  for (const key of STATE_FIELDS) {
    const value = fields[key];
    if (value !== undefined) (next as Record<string, unknown>)[key] = value;
  }
  // A refund is final: news that arrives after it (the cancellation Stripe sends for the
  // refunded subscription, a late renewal event) is recorded but never gives the access back.
  const refunded = current.status === "refunded" || (await tx.entitlementState.count({ where: { entitlementId, status: "refunded" } })) > 0;
  if (refunded) next.status = "refunded";
  // The same fact again (a re-delivery) adds nothing. A newer fact that changes nothing is
  // still recorded: it moves the state's date on, so an older event arriving later stays stale.
  const unchanged = STATE_FIELDS.every((key) => same(next[key], current[key]));
  if (unchanged && at.getTime() === current.at.getTime()) return { result: "unchanged" as const, entitlementId };
  const { id: _id, entitlementId: _e, at: _at, reason: _r, recordedAt: _rec, ...state } = next;
  await tx.entitlementState.create({ data: { ...state, entitlementId, at, reason, recordedAt: now() } });
  return { result: "updated" as const, entitlementId };
}
