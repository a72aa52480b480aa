/**
 * The profile's 'Subscription Details', as rows (pure): Status (Active or Free),
 * Plan, Price, Started, Next Billing (hidden for single_payment), Access Type
 * ('Lifetime Access' for single_payment), and one action.
 */
import type { SubscriptionView } from "~/billing/entitlements.server";

export type DetailRow = { label: string; value: string };
export type ProfileAction = "manage" | "lifetime" | "upgrade";

const CYCLE = { monthly: "/month", annual: "/year", single_payment: " one-time" } as const;
const ACCESS = { monthly: "Monthly Subscription", annual: "Annual Subscription", single_payment: "Lifetime Access" } as const;

/** Made once per time zone: building an Intl.DateTimeFormat costs far more than formatting with one. */
const dateFormats = new Map<string, Intl.DateTimeFormat>();

function formatDate(iso: string | null, timeZone: string): string {
  if (!iso) return "—";
  let format = dateFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone });
    dateFormats.set(timeZone, format);
  }
  return format.format(new Date(iso));
}

export function subscriptionDetails(view: SubscriptionView, timeZone: string): { rows: DetailRow[]; action: ProfileAction } {
  if (!view.subscribed || !view.tier) {
    return {
      rows: [
        { label: "Status", value: "Free" },
        { label: "Plan", value: "Free" },
        { label: "Price", value: "—" },
        { label: "Started", value: "—" },
        { label: "Next Billing", value: "—" },
        { label: "Access Type", value: "Free Access" },
      ],
      action: "upgrade",
    };
  }
  const lifetime = view.tier === "single_payment";
  const rows: DetailRow[] = [
    { label: "Status", value: "Active" },
    { label: "Plan", value: view.planName ?? "Premium" },
    { label: "Price", value: view.priceText ? `${view.priceText}${CYCLE[view.tier]}` : "—" },
    { label: "Started", value: formatDate(view.startedAt, timeZone) },
  ];
  if (!lifetime) {
    // A cancelled subscription runs to the end of the period and then stops: no next bill.
    rows.push(
      view.cancelAtPeriodEnd
        ? { label: "Next Billing", value: `None (ends ${formatDate(view.currentPeriodEnd, timeZone)})` }
        : { label: "Next Billing", value: formatDate(view.currentPeriodEnd, timeZone) },
    );
  }
  rows.push({ label: "Access Type", value: ACCESS[view.tier] });
  return { rows, action: lifetime ? "lifetime" : view.recurring ? "manage" : "upgrade" };
}
