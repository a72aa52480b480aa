/**
 * What /home shows. Signed out: an invitation to sign in or take the quiz. Signed in: the plan
 * the member follows (or the default plan, with the way to get it), made personal by their
 * answers; the member's streak and week (the person's, whichever plans they finished); a
 * picker when they own several plans.
 */
import type { SessionUser } from "~/auth/users.server";
import { getHomePage } from "~/content/content.server";
import type { HomePage } from "~/content-model/content-types";
import { go, refusal, type Go, type Refusal } from "~/utils/outcome";
import type { StreakData } from "./calendar";
import { EMPTY_STREAK, streakData } from "./completions.server";
import { choosePlan, memberPlan } from "./plans.server";
import { memberDay } from "./time-zone.server";
import { logger } from "~/utils/logger.server";
import { reminderSettings } from "./reminder-settings.server";

export type RoutineButton = { state: "ready"; href: string } | { state: "disabled" };

/**
 * Where 'Do Today's Routine' leads: signed out → /login, a plan the member does not
 * own → its offer page (the default plan's is /subscribe), an owned plan → the player;
 * disabled with no plan.
 */
export function routineButton(input: { planId: string | null; signedIn: boolean; owned: boolean; offerPath: string | null }): RoutineButton {
  if (!input.planId) return { state: "disabled" };
  if (!input.signedIn) return { state: "ready", href: `/login?${new URLSearchParams({ redirectTo: "/home" })}` };
  if (!input.owned) return input.offerPath ? { state: "ready", href: input.offerPath } : { state: "disabled" };
  return { state: "ready", href: `/plan/${input.planId}` };
}

/** The motivational line for the member's state, varied by day so it doesn't feel canned. */
export function motivationalLine(lines: HomePage["motivation"], streak: StreakData, today: string): string {
  const when = streak.doneToday ? "done" : streak.currentStreak > 0 ? "continue" : "start";
  const options = lines.filter((line) => line.when === when);
  const dayNumber = Number(today.replaceAll("-", ""));
  const line = options[dayNumber % options.length] ?? lines[0];
  return line.text.replaceAll("{streak}", String(streak.currentStreak)).replaceAll("{next}", String(streak.currentStreak + 1));
}

/**
 * /home for `user` (a session of either kind: a browser that paid, address not verified yet,
 * sees its routine here too), or the guest page for null. `browserTimeZone`: the zone the
 * browser says it is in; `cookieHeader` holds this browser's quiz answers.
 */
export async function homeView(input: { user: SessionUser | null; browserTimeZone: string | null; cookieHeader: string | null }) {
  const { user } = input;
  const page = await getHomePage();
  if (!user) {
    return { signedIn: false as const, guest: page.guest, trustFooter: page.trustFooter };
  }
  const [{ today }, member] = await Promise.all([memberDay(user, input.browserTimeZone), memberPlan(user, input.cookieHeader)]);
  const { plan, personal } = member;
  // The person's streak, whichever plan they follow or finished (ADR 31).
  const streak = await streakData(user.id, today).catch((error) => {
    logger.error({ err: error }, "Failed to fetch streak data");
    return EMPTY_STREAK(today);
  });
  // The member's first day with a finished routine offers the daily reminder with one tap (only then, so it never nags).
  const reminderOffer = streak.doneToday && streak.daysDone === 1 && !(await reminderSettings(user.id)).on;
  return {
    signedIn: true as const,
    reminderOffer,
    plan: personal
      ? {
          id: personal.id,
          name: personal.name,
          description: personal.description,
          reason: personal.reason,
          personalised: personal.personalised,
          owned: member.owned,
        }
      : null,
    quiz: member.quizPath ? { href: member.quizPath, text: page.noAnswers.text, label: page.noAnswers.linkLabel } : null,
    picker: member.ownedPlans.length > 1 ? { title: page.pickerTitle, plans: member.ownedPlans, current: plan?._id ?? null } : null,
    streak,
    motivation: motivationalLine(page.motivation, streak, today),
    routine: routineButton({ planId: plan?._id ?? null, signedIn: true, owned: member.owned, offerPath: member.offerPath }),
    cards: personal ? { tips: personal.homeTips, products: personal.products.slice(0, 2), avoid: personal.avoid } : null,
    trustFooter: page.trustFooter,
  };
}

/** The plan picker: follow another plan the member owns (then back to /home). */
export async function followPlan(user: SessionUser, planId: string): Promise<Go | Refusal> {
  if (!(await choosePlan(user, planId))) return refusal(400, "You can only follow a plan you have.");
  return go("/home");
}
