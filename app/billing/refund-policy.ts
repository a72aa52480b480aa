/**
 * Refund windows (ADR 33), pure. Each plan an offer sells holds its window once, in content
 * (`refundDays` on the offer's plan); the billing page, the refund itself and the Terms all
 * read it from there. A window runs from the purchase, for the plan bought then: a later plan
 * switch neither opens a new window nor shortens the one promised.
 */

const DAY_MS = 86_400_000;

export type RefundWindow = { days: number; endsAt: Date };

/** The window promised for a purchase of `planId` at `purchasedAt`; null when that plan promises none. */
export function refundWindow(purchase: { at: Date; planId: string }, plans: readonly { id: string; refundDays: number }[]): RefundWindow | null {
  const days = plans.find((plan) => plan.id === purchase.planId)?.refundDays ?? 0;
  return days > 0 ? { days, endsAt: new Date(purchase.at.getTime() + days * DAY_MS) } : null;
}

/** Where a purchase stands with its refund, for the billing page and the refund request. */
export type RefundStanding =
  { kind: "open"; days: number; endsAt: Date } | { kind: "ended"; days: number; endedAt: Date } | { kind: "refunded" } | { kind: "none" };

export function refundStanding(status: string | null, window: RefundWindow | null, at: Date): RefundStanding {
  if (status === "refunded") return { kind: "refunded" };
  if (!window) return { kind: "none" };
  return at.getTime() < window.endsAt.getTime()
    ? { kind: "open", days: window.days, endsAt: window.endsAt }
    : { kind: "ended", days: window.days, endedAt: window.endsAt };
}

/** "May 3, 2026": the dates the billing page, its refusals and the e-mails print (UTC unless told). */
export function longDate(date: Date, timeZone = "UTC"): string {
  return new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone }).format(date);
}

/** Why a refund outside its window is refused (the billing page's line says the same). */
export function windowEndedText(days: number, endedAt: Date, timeZone = "UTC"): string {
  return `The ${days}-day refund window ended on ${longDate(endedAt, timeZone)}.`;
}

/**
 * The Terms' list of windows, one line per plan sold: "Crease-Free Makeup Routine: 14 days
 * from your purchase." An offer with several plans names its product first ("Clear & Healthy
 * Skin, Annual Plan: …"). Plans without a window say so.
 */
export function refundTermsLines(offers: readonly { product: string; plans: readonly { name: string; refundDays: number }[] }[]): string[] {
  return offers.flatMap((offer) =>
    offer.plans.map((plan) => {
      const name = offer.plans.length > 1 ? `${offer.product}, ${plan.name}` : plan.name;
      return plan.refundDays > 0
        ? `${name}: ${plan.refundDays} ${plan.refundDays === 1 ? "day" : "days"} from your purchase.`
        : `${name}: no refund after purchase.`;
    }),
  );
}

/** The Terms paragraph replaced by refundTermsLines (a legal page's content says where the list goes). */
export const REFUND_WINDOWS_PLACEHOLDER = "{refundWindows}";
