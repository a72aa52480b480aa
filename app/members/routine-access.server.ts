/**
 * Which routine a purchase pays for: a purchase session (a browser that paid for an address
 * nobody has verified yet) may play that routine and nothing else. Every offer grants the
 * active routine plan today (the one /home shows); plans per offer would change this
 * function only.
 */
import { getActivePlan } from "~/content/content.server";
import { db } from "~/utils/db.server";

export async function purchaseIncludesPlan(checkoutSessionId: string, planId: string): Promise<boolean> {
  const [checkout, plan] = await Promise.all([db.checkoutSession.findUnique({ where: { id: checkoutSessionId }, select: { status: true } }), getActivePlan()]);
  return checkout?.status === "complete" && plan?._id === planId;
}
