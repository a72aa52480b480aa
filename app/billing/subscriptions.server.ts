/**
 * What a member has paid for, as the pages read it (the spec's "subscription check result").
 * Writing subscriptions is checkout fulfilment's and the Stripe webhooks' job; this module
 * only answers "is this member subscribed, and to what".
 */
import { queryRows, sql } from "~/utils/sql.server";
import { now } from "~/utils/clock.server";
import { moneyFormat } from "~/payments/catalogue";

export type Tier = "monthly" | "annual" | "single_payment";

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

type SubscriptionRow = {
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
 * Pure: the view of a stored row at time `at`. A recurring plan whose period has ended is
 * not subscribed even if a webhook saying so has not arrived yet.
 */
export function viewOf(row: SubscriptionRow | null, at: Date): SubscriptionView {
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

export async function getSubscriptionView(userId: string): Promise<SubscriptionView> {
  // Hot-path SQL: /home asks on every visit, and the ORM's findUnique costs many times the CPU.
  const rows = await queryRows<SubscriptionRow>(sql`
    SELECT "tier", "status", "planName", "priceMinor", "currency", "startedAt", "currentPeriodEnd", "cancelAtPeriodEnd"
    FROM "Subscription" WHERE "userId" = ${userId}`);
  return viewOf(rows[0] ?? null, now());
}
