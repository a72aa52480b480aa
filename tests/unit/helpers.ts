import { readEmbeddedDataset, type Document } from "~/content/embedded-dataset.server";
import { resolveFunnel } from "~/content/funnel-resolve";
import type { Funnel } from "~/content-model/funnel";

let dataset: Document[] | undefined;

export function embeddedDataset(): Document[] {
  return (dataset ??= readEmbeddedDataset());
}

export function sharedQuestions(): Map<string, unknown> {
  return new Map(
    embeddedDataset()
      .filter((d) => d._type === "question")
      .map((d) => [d._id, d]),
  );
}

export function funnelDocument(id: string): Record<string, unknown> {
  const doc = embeddedDataset().find((d) => d._type === "funnel" && d.id === id);
  if (!doc) throw new Error(`no funnel ${id}`);
  return structuredClone(doc);
}

export function loadFunnel(id: string): Funnel {
  const result = resolveFunnel(funnelDocument(id), sharedQuestions());
  if (!result.ok) throw new Error(result.problems.join("\n"));
  return result.funnel;
}

/** Gives a member a paid entitlement, as a test payment would (a lifetime plan unless a tier is given). */
export async function grantPlan(
  userId: string,
  routinePlanId: string,
  { tier = "single_payment" as "monthly" | "annual" | "single_payment", offerId = "test-offer", at = new Date() } = {},
) {
  const { applyEntitlementChange } = await import("~/billing/entitlements.server");
  const recurring = tier !== "single_payment";
  const { entitlementId } = await applyEntitlementChange(
    { userId, offerId, routinePlanId, stripeCheckoutSessionId: `cs_local_test_${crypto.randomUUID()}` },
    {
      at,
      reason: "purchase",
      tier,
      status: "active",
      planId: recurring ? tier : "lifetime",
      planName: recurring ? `${tier[0].toUpperCase()}${tier.slice(1)} Plan` : "Lifetime Plan",
      priceMinor: tier === "annual" ? 5900 : tier === "monthly" ? 999 : 2999,
      currency: "usd",
      currentPeriodEnd: recurring ? new Date(at.getTime() + (tier === "annual" ? 365 : 31) * 86_400_000) : null,
    },
  );
  return entitlementId!;
}
