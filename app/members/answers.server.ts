/**
 * A visitor's quiz answers on their account. Answers live in a signed cookie per funnel while
 * someone is a visitor; once we know who they are they are kept on the account (MemberAnswers),
 * so their plans stay personal on every device and survive the cookie.
 *
 * `attachVisitorAnswers` is the one way answers move from a visitor to a member. It runs where
 * a member is known with the browser's cookies at hand: the members' pages and the offer pages
 * (so the first page after signing in attaches them, and a quiz taken again while signed in
 * updates the plan), and checkout fulfilment passes the answers its checkout carried.
 */
import { getFunnels } from "~/content/content.server";
import { readFunnelState } from "~/funnels/state.server";
import { db, type DbTransaction } from "~/utils/db.server";
import { now } from "~/utils/clock.server";
import { query, queryRows, statement } from "~/utils/sql.server";
import type { AnswerSet } from "./personalise";

/** The quiz results in this browser's cookies (every funnel with a worked-out result). */
export async function visitorAnswers(cookieHeader: string | null): Promise<AnswerSet[]> {
  if (!cookieHeader?.includes("gc_funnel_")) return [];
  const sets: AnswerSet[] = [];
  for (const funnel of (await getFunnels()).values()) {
    if (!cookieHeader.includes(`gc_funnel_${funnel.id}=`)) continue;
    const { result } = await readFunnelState(cookieHeader, funnel);
    if (result && Object.keys(result.answers).length) sets.push({ funnel: funnel.id, answers: result.answers, at: result.at });
  }
  return sets;
}

const AnswerValues = (value: unknown): Record<string, string | string[]> => {
  if (!value || typeof value !== "object" || Array.isArray(value)) return {};
  const out: Record<string, string | string[]> = {};
  for (const [key, v] of Object.entries(value)) {
    if (typeof v === "string") out[key] = v;
    else if (Array.isArray(v) && v.every((x) => typeof x === "string")) out[key] = v;
  }
  return out;
};

const answersOf = statement((userId: string) => query.selectFrom("MemberAnswers").select(["funnelId", "answers", "answeredAt"]).where("userId", "=", userId));

type StoredAnswers = { funnelId: string; answers: string; answeredAt: Date | string };

/**
 * The answer sets kept on a member's account. `within` a caller's transaction they are read
 * through it: a second connection besides it could be the one it waits for.
 */
export async function memberAnswers(userId: string, within?: DbTransaction): Promise<AnswerSet[]> {
  const rows: StoredAnswers[] = within
    ? await within.memberAnswers.findMany({ where: { userId }, select: { funnelId: true, answers: true, answeredAt: true } })
    : // Hot-path SQL: the members' pages read this on every view (the ORM's findMany costs several times the CPU).
      await queryRows(answersOf, userId);
  return rows.map((row) => {
    let answers: Record<string, string | string[]> = {};
    try {
      answers = AnswerValues(JSON.parse(row.answers));
    } catch {
      // A row we cannot read is treated as no answers for that quiz.
    }
    return { funnel: row.funnelId, answers, at: new Date(row.answeredAt).toISOString() };
  });
}

/**
 * Keeps answer sets on a member's account. A set replaces the member's earlier answers to the
 * same funnel only when it is newer, so an old checkout's answers arriving late never undo a
 * quiz taken again since. Returns the member's sets afterwards. `known`: the member's sets,
 * when the caller has just read them; `within`: as writes of the caller's transaction (a
 * purchase), stored with it or not at all.
 */
export async function rememberAnswers(
  userId: string,
  sets: readonly AnswerSet[],
  { known, within }: { known?: AnswerSet[]; within?: DbTransaction } = {},
): Promise<AnswerSet[]> {
  const stored = known ?? (await memberAnswers(userId, within));
  const byFunnel = new Map(stored.map((set) => [set.funnel, set]));
  for (const set of sets) {
    const at = new Date(set.at);
    if (Number.isNaN(at.getTime()) || !Object.keys(set.answers).length) continue;
    const existing = byFunnel.get(set.funnel);
    if (existing && existing.at >= at.toISOString()) continue;
    const data = { answers: JSON.stringify(set.answers), answeredAt: at, updatedAt: now() };
    try {
      await (within ?? db).memberAnswers.upsert({
        where: { userId_funnelId: { userId, funnelId: set.funnel } },
        create: { userId, funnelId: set.funnel, ...data },
        update: data,
      });
    } catch (error) {
      // Another request stored the same answers a moment ago: theirs is as good as ours. In a
      // caller's transaction the refused insert ended it (PostgreSQL): the caller runs it again.
      if ((error as { code?: string }).code !== "P2002" || within) throw error;
    }
    byFunnel.set(set.funnel, { ...set, at: at.toISOString() });
  }
  return [...byFunnel.values()];
}

/** Attaches this browser's quiz results to the member, and returns all of the member's answer sets. */
export async function attachVisitorAnswers(userId: string, cookieHeader: string | null): Promise<AnswerSet[]> {
  const [visitor, stored] = await Promise.all([visitorAnswers(cookieHeader), memberAnswers(userId)]);
  return visitor.length ? rememberAnswers(userId, visitor, { known: stored }) : stored;
}
