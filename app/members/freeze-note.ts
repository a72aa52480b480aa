/**
 * The line under the streak on /home about streak freezes. After a freeze covered a missed
 * day this week it says so (the member sees a snowflake on that day and deserves to know why
 * the streak survived), then what comes next; otherwise how to earn one, or how many are held.
 */
import { DAYS_PER_FREEZE, type WeekDay } from "./calendar";

export function freezeNote(streak: { freezesHeld: number; weeklyCompletions: readonly WeekDay[] }): string {
  const held = streak.freezesHeld;
  const lastFrozen = streak.weeklyCompletions.filter((day) => day.frozen).at(-1);
  if (lastFrozen) {
    const next = held === 0 ? `Finish ${DAYS_PER_FREEZE} days in a row to earn another.` : `${held} streak ${held === 1 ? "freeze" : "freezes"} left.`;
    return `A streak freeze covered ${lastFrozen.name}, so your streak lives on. ${next}`;
  }
  if (held === 0) return `Finish ${DAYS_PER_FREEZE} days in a row to earn a streak freeze.`;
  return `${held} streak ${held === 1 ? "freeze" : "freezes"} held: a missed day uses one, so your streak lives on.`;
}
