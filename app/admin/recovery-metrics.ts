/**
 * The admin's numbers for the e-mail step and the recovery e-mails (ADR 44): pure functions over
 * the first-party event log, like ./metrics.ts, so each is what the log says.
 *
 *  - Leads: distinct visitors with an email_captured event in the window; with consent: those
 *    whose event says consent.
 *  - Lead → purchase: leads whose visitor has a purchase after their address, or a
 *    recovery_purchased (a purchase on another device after a recovery e-mail is logged to the
 *    lead's visitor that way), over leads.
 *  - Recovery e-mails sent, opened (the e-mail's image loaded; once per e-mail) and clicked (events), purchases after recovery and their revenue
 *    (recovery_purchased, by currency).
 * Split by experiment variant: the same numbers over the leads whose email_captured event was
 * made in that variant (the event's `variants`), one row per experiment and variant.
 */
import { rate } from "./metrics";

export type RecoveryEventRow = {
  visitorId: string;
  name: string;
  props: Record<string, unknown>;
  /** The running experiments' variants when it happened ({"<experimentId>": "<variant key>"}), or null. */
  variants: Record<string, string> | null;
  createdAt: Date;
};

export type RecoveryReport = {
  /** "experiment: variant", or null for everyone. */
  variant: string | null;
  leads: number;
  consenting: number;
  leadPurchases: number;
  /** leadPurchases over leads, 0..1; null without leads. */
  leadToPurchase: number | null;
  sent: number;
  /** E-mails whose image was loaded: a floor (mail apps that block images) and, with mail apps that load every image ahead, a ceiling too. */
  opened: number;
  clicked: number;
  recoveredPurchases: number;
  /** Revenue from purchases after a recovery e-mail, by currency (major units). */
  recoveredRevenue: { currency: string; amount: number }[];
};

function reportFor(variant: string | null, leadsOf: RecoveryEventRow[], events: RecoveryEventRow[]): RecoveryReport {
  const firstLead = new Map<string, RecoveryEventRow>();
  for (const e of leadsOf) {
    const seen = firstLead.get(e.visitorId);
    if (!seen || e.createdAt < seen.createdAt) firstLead.set(e.visitorId, e);
  }
  const consenting = new Set(leadsOf.filter((e) => e.props.consent === true).map((e) => e.visitorId));
  const mine = events.filter((e) => firstLead.has(e.visitorId));
  const bought = new Set(
    mine
      .filter((e) => e.name === "recovery_purchased" || (e.name === "purchase" && e.createdAt >= firstLead.get(e.visitorId)!.createdAt))
      .map((e) => e.visitorId),
  );
  const count = (name: string) => mine.filter((e) => e.name === name).length;
  const recovered = mine.filter((e) => e.name === "recovery_purchased");
  const revenue = new Map<string, number>();
  for (const e of recovered) {
    const currency = String(e.props.currency ?? "").toUpperCase();
    const price = typeof e.props.price === "number" ? e.props.price : 0;
    revenue.set(currency, Math.round(((revenue.get(currency) ?? 0) + price) * 100) / 100);
  }
  return {
    variant,
    leads: firstLead.size,
    consenting: consenting.size,
    leadPurchases: bought.size,
    leadToPurchase: rate(bought.size, firstLead.size),
    sent: count("recovery_sent"),
    opened: count("recovery_opened"),
    clicked: count("recovery_clicked"),
    recoveredPurchases: recovered.length,
    recoveredRevenue: [...revenue].map(([currency, amount]) => ({ currency, amount })).sort((a, b) => a.currency.localeCompare(b.currency)),
  };
}

/**
 * Everyone's numbers first, then one row per experiment variant the leads were in. `events`: the
 * email_captured events since the window's start and every later recovery_* and purchase event
 * of those visitors.
 */
export function recoveryReports(events: RecoveryEventRow[], since: Date): RecoveryReport[] {
  const leads = events.filter((e) => e.name === "email_captured" && e.createdAt >= since);
  const rows = [reportFor(null, leads, events)];
  const variants = [...new Set(leads.flatMap((e) => Object.entries(e.variants ?? {}).map(([experiment, key]) => `${experiment}: ${key}`)))].sort();
  for (const variant of variants) {
    const [experiment, key] = variant.split(": ");
    rows.push(
      reportFor(
        variant,
        leads.filter((e) => e.variants?.[experiment] === key),
        events,
      ),
    );
  }
  return rows;
}
