/**
 * Which routine a purchase pays for: a purchase session (a browser that paid for an address
 * nobody has verified yet) may play the routine plan that purchase unlocked, and nothing
 * else. The purchase's entitlement names that plan (see app/billing/entitlements.server.ts).
 */
import { db } from "~/utils/db.server";

export async function purchaseIncludesPlan(checkoutSessionId: string, planId: string): Promise<boolean> {
  const entitlement = await db.entitlement.findUnique({ where: { stripeCheckoutSessionId: checkoutSessionId }, select: { routinePlanId: true } });
  return entitlement?.routinePlanId === planId;
}
