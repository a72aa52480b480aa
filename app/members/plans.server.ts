/**
 * Which routine plan a member follows, and that plan made personal. A member owns the plans
 * their entitlements unlock (one per product bought); they follow the one they chose on /home,
 * else the one they bought last. A member who owns none sees the default plan (the content's
 * active plan) with the way to get it. See ADR 19.
 */
import type { SessionUser } from "~/auth/users.server";
import { entitlementsOf, type EntitlementView } from "~/billing/entitlements.server";
import { getDefaultPlan, getFunnelById, getOfferForPlan, getPlan } from "~/content/content.server";
import type { ResolvedPlan } from "~/content-model/content-types";
import { db } from "~/utils/db.server";
import { query, queryRows, statement } from "~/utils/sql.server";
import { attachVisitorAnswers } from "./answers.server";
import { personalisePlan, planAnswers, type AnswerSet, type PersonalPlan } from "./personalise";

export type OwnedPlan = { id: string; name: string };

export type MemberPlan = {
  /** The plan the member follows (owned), or the default plan (not owned). Null: no plan in the content. */
  plan: ResolvedPlan | null;
  personal: PersonalPlan | null;
  owned: boolean;
  /** Every plan the member owns, the followed one first. */
  ownedPlans: OwnedPlan[];
  /** Where to get the plan when not owned (its offer page). */
  offerPath: string | null;
  /** The quiz whose answers would personalise the plan, when the member has not taken it. */
  quizPath: string | null;
  entitlements: EntitlementView[];
};

/** The distinct routine plans a member's paid entitlements unlock, newest purchase first. */
export function ownedPlanIds(entitlements: EntitlementView[]): string[] {
  return [...new Set(entitlements.filter((e) => e.subscribed).map((e) => e.routinePlanId))];
}

/** The plan to follow: the chosen one while it is owned, else the latest purchase, else none. */
export function followedPlanId(owned: string[], chosen: string | null): string | null {
  return chosen && owned.includes(chosen) ? chosen : (owned[0] ?? null);
}

const activePlanOf = statement((userId: string) => query.selectFrom("User").select("activePlanId").where("id", "=", userId));

async function chosenPlanId(userId: string): Promise<string | null> {
  const rows = await queryRows(activePlanOf, userId);
  return rows[0]?.activePlanId ?? null;
}

/** Where the quiz for a plan starts, when the member has not answered it. */
async function quizPathFor(plan: ResolvedPlan, sets: AnswerSet[]): Promise<string | null> {
  if (sets.some((set) => plan.answersFrom.includes(set.funnel))) return null;
  const funnel = plan.answersFrom[0] ? await getFunnelById(plan.answersFrom[0]) : null;
  return funnel?.route ?? null;
}

/**
 * The member's plan: `planId` asks for one plan (the player, a tutorial of that plan), else
 * the followed one. Attaches this browser's quiz answers to the account on the way.
 */
export async function memberPlan(user: SessionUser, cookieHeader: string | null, planId?: string): Promise<MemberPlan> {
  const [entitlements, chosen, sets] = await Promise.all([entitlementsOf(user.id), chosenPlanId(user.id), attachVisitorAnswers(user.id, cookieHeader)]);
  const ownedIds = ownedPlanIds(entitlements);
  const wanted = planId ?? followedPlanId(ownedIds, chosen);
  const plan = wanted ? await getPlan(wanted) : await getDefaultPlan();
  const ownedPlans = (await Promise.all(ownedIds.map(getPlan))).flatMap((p) => (p ? [{ id: p._id, name: p.name }] : []));
  const followed = followedPlanId(ownedIds, chosen);
  ownedPlans.sort((a, b) => Number(b.id === followed) - Number(a.id === followed));
  const owned = !!plan && ownedIds.includes(plan._id);
  return {
    plan,
    personal: plan ? personalisePlan(plan, planAnswers(plan.answersFrom, sets)) : null,
    owned,
    ownedPlans,
    offerPath: plan && !owned ? ((await getOfferForPlan(plan._id))?.path ?? null) : null,
    quizPath: plan ? await quizPathFor(plan, sets) : null,
    entitlements,
  };
}

/** The member picks which of their plans to follow; only a plan they own. */
export async function choosePlan(user: SessionUser, planId: string): Promise<boolean> {
  const owned = ownedPlanIds(await entitlementsOf(user.id));
  if (!owned.includes(planId)) return false;
  await db.user.update({ where: { id: user.id }, data: { activePlanId: planId } });
  return true;
}
