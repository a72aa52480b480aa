/**
 * What /home shows. Signed out: an invitation to sign in or take the quiz. Signed in: the plan
 * the member follows (or the default plan, with the way to get it), made personal by their
 * answers, their streak and week for it, and a picker when they own several plans.
 */
import { data, redirect } from "@remix-run/node";
import { getSession, requireUser } from "~/auth/guards.server";
import { getHomePage } from "~/content/content.server";
import type { HomePage } from "~/content/types";
import { fieldsOf, readFormEntries } from "~/utils/form.server";
import { EMPTY_STREAK, streakData, type StreakData } from "./completions.server";
import { choosePlan, memberPlan } from "./plans.server";
import { memberToday } from "./time-zone.server";
import { logger } from "~/utils/logger.server";
import { db } from "~/utils/db.server";
import { reminderSettings } from "~/reminders/reminders.server";

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

export async function homeView(request: Request) {
  // A purchase session (a browser that paid, address not verified yet) sees its routine here too.
  const [session, page] = await Promise.all([getSession(request), getHomePage()]);
  const user = session?.user ?? null;
  if (!user) {
    return { signedIn: false as const, guest: page.guest, trustFooter: page.trustFooter };
  }
  const [{ today }, member] = await Promise.all([memberToday(user, request), memberPlan(user, request.headers.get("Cookie"))]);
  const { plan, personal } = member;
  const streak = plan
    ? await streakData(user.id, plan._id, today).catch((error) => {
        logger.error({ err: error }, "Failed to fetch streak data");
        return EMPTY_STREAK(today);
      })
    : EMPTY_STREAK(today);
  // The first finish offers the daily reminder with one tap (only then, so it never nags).
  const reminderOffer = streak.doneToday && !(await reminderSettings(user.id)).on && (await db.planCompletion.count({ where: { userId: user.id } })) === 1;
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

/** The plan picker: follow another plan the member owns. */
export async function homeAction(request: Request) {
  const user = await requireUser(request);
  const form = await readFormEntries(request);
  if (!form.ok) return data({ error: form.error }, { status: form.status });
  const { intent, planId } = fieldsOf(form.entries);
  if (intent !== "choose-plan" || typeof planId !== "string") return data({ error: "Please use the buttons on the page." }, { status: 400 });
  if (!(await choosePlan(user, planId))) return data({ error: "You can only follow a plan you have." }, { status: 400 });
  return redirect("/home", 303);
}
