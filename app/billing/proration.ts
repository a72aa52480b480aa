/**
 * What a plan switch does with the money already paid (ADR 33), pure. Stripe works it out in
 * Stripe mode (its invoice preview); the local test portal works out the same thing here:
 * the unused part of the period paid for becomes a credit, the new plan's first period is
 * charged today, the credit pays what it can of it, and what is left of the credit pays the
 * next bills. Nothing goes back to the card: that is what a refund is for.
 */
import { displayPrice } from "~/billing/catalogue";

export type Proration = {
  /** The unused time of the current plan, credited. */
  creditMinor: number;
  /** The new plan's first period, charged today. */
  chargeMinor: number;
  /** Paid by card today (the charge less the credit, never below 0). */
  dueNowMinor: number;
  /** Credit left on the account after today, for the next bills. */
  creditLeftMinor: number;
  currency: string;
};

/** From the two amounts: a credit for unused time and a charge for the new plan. */
export function prorationOf(creditMinor: number, chargeMinor: number, currency: string): Proration {
  const total = chargeMinor - creditMinor;
  return { creditMinor, chargeMinor, dueNowMinor: Math.max(0, total), creditLeftMinor: Math.max(0, -total), currency };
}

/**
 * The local test portal's proration: the unused share of what was paid for the current
 * period (to the cent, by time), against the new plan's full price from today (a switch
 * between monthly and annual starts a new period, as at Stripe).
 */
export function localProration(input: { paidMinor: number; periodStart: Date; periodEnd: Date; at: Date; newPriceMinor: number; currency: string }): Proration {
  const period = input.periodEnd.getTime() - input.periodStart.getTime();
  const left = Math.min(Math.max(input.periodEnd.getTime() - input.at.getTime(), 0), period);
  const credit = period > 0 ? Math.round((input.paidMinor * left) / period) : 0;
  return prorationOf(credit, input.newPriceMinor, input.currency);
}

/**
 * Stripe's preview invoice as a proration: its negative lines are the credit for unused time,
 * its positive ones the new plan; the preview's total decides what the card pays today.
 */
export function prorationFromInvoice(invoice: { total: number; currency: string; lines: readonly { amount: number }[] }): Proration {
  const credit = -invoice.lines.filter((line) => line.amount < 0).reduce((sum, line) => sum + line.amount, 0);
  const charge = invoice.lines.filter((line) => line.amount > 0).reduce((sum, line) => sum + line.amount, 0);
  return {
    creditMinor: credit,
    chargeMinor: charge,
    dueNowMinor: Math.max(0, invoice.total),
    creditLeftMinor: Math.max(0, -invoice.total),
    currency: invoice.currency,
  };
}

/** What happens to the money, in the member's words: the switch page and the e-mail say the same lines. */
export function prorationLines(proration: Proration, from: string, to: string): string[] {
  const money = (minor: number) => displayPrice(minor, proration.currency);
  const lines: string[] = [];
  if (proration.creditMinor > 0) lines.push(`The unused time on your ${from} is worth ${money(proration.creditMinor)}: it becomes a credit on your account.`);
  if (proration.dueNowMinor === 0) {
    lines.push(`Your first period of the ${to} (${money(proration.chargeMinor)}) is paid from that credit today: nothing is charged to your card.`);
  } else if (proration.creditMinor > 0) {
    lines.push(`Today you pay ${money(proration.dueNowMinor)} for the ${to}: ${money(proration.chargeMinor)} less your credit.`);
  } else {
    lines.push(`Today you pay ${money(proration.dueNowMinor)} for the ${to}.`);
  }
  if (proration.creditLeftMinor > 0)
    lines.push(
      `The ${money(proration.creditLeftMinor)} of credit left pays your next bills before your card is charged again. Nothing is refunded to your card.`,
    );
  return lines;
}
