/**
 * The Refund rows (ADR 33): the one module that writes them. A refund is claimed before the
 * payment provider is asked: the unique entitlement id lets one request through and answers
 * every other (a double submit, a second tab, another instance) "already refunded".
 */
import { now } from "~/utils/clock.server";
import { db } from "~/utils/db.server";

export type RefundClaim = { entitlementId: string; amountMinor: number; currency: string; provider: "local" | "stripe" };

/** Claims the refund of one entitlement; false when it was already claimed. */
export async function claimRefund(claim: RefundClaim): Promise<boolean> {
  try {
    await db.refund.create({ data: { ...claim, requestedAt: now() } });
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === "P2002") return false;
    throw error;
  }
}

/** The provider refused or could not be reached: the claim goes, so the member can try again. */
export async function releaseRefund(entitlementId: string): Promise<void> {
  await db.refund.deleteMany({ where: { entitlementId, completedAt: null } });
}

/** The provider made the refund. */
export async function completeRefund(entitlementId: string, providerRefundId: string | null): Promise<void> {
  await db.refund.update({ where: { entitlementId }, data: { providerRefundId, completedAt: now() } });
}

/** The refunds of a member's purchases, by entitlement id (the billing page's "Refunded … on …"). */
export async function refundsOf(userId: string) {
  const rows = await db.refund.findMany({ where: { entitlement: { userId } } });
  return new Map(rows.map((row) => [row.entitlementId, row]));
}
