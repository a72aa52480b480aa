/** Shared by the dashboard's server code and its page (no server imports here). */

/** The periods the dashboard offers, in days. */
export const PERIODS = [7, 30] as const;
export type Period = (typeof PERIODS)[number];

/** "42%" or "–" when there is nothing to divide by. */
export function percent(share: number | null): string {
  return share === null ? "–" : `${Math.round(share * 100)}%`;
}
