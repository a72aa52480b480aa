/**
 * Completions: which steps a member has done today and which days they finished the
 * routine. Writes are single INSERT ... ON CONFLICT DO NOTHING statements, so a double
 * click, a retried request or two tabs finishing at once record one row, never two, and
 * never fail (a duplicate counts as done). Every statement here is on the
 * player's and home's path, so all of them are hot-path SQL (~/utils/sql.server).
 */
import crypto from "node:crypto";
import { execute, query, queryRows, statement } from "~/utils/sql.server";
import { memberStreak, type StreakData } from "./calendar";

export type FinishOutcome = { recorded: "new" | "already-done" | "steps-missing" };

/** Inserts the day's completion when `stepCount` steps are done that day, unless it is there already. */
const insertCompletion = statement((id: string, userId: string, planId: string, date: string, at: Date, stepCount: number) =>
  query
    .insertInto("PlanCompletion")
    .columns(["id", "userId", "planId", "date", "createdAt"])
    .expression(
      query
        .selectNoFrom((eb) => [
          eb.val(id).as("id"),
          eb.val(userId).as("userId"),
          eb.val(planId).as("planId"),
          eb.val(date).as("date"),
          eb.val(at).as("createdAt"),
        ])
        .where(
          (eb) =>
            eb
              .selectFrom("PlanStepCompletion")
              .select((eb) => eb.fn.countAll().as("done"))
              .where("userId", "=", userId)
              .where("planId", "=", planId)
              .where("date", "=", date),
          ">=",
          stepCount,
        ),
    )
    .onConflict((oc) => oc.columns(["userId", "planId", "date"]).doNothing()),
);

const insertStepDone = statement((userId: string, planId: string, date: string, step: number, at: Date) =>
  query
    .insertInto("PlanStepCompletion")
    .values({ userId, planId, date, step, createdAt: at })
    .onConflict((oc) => oc.columns(["userId", "planId", "date", "step"]).doNothing()),
);

const stepsOn = statement((userId: string, planId: string, date: string) =>
  query.selectFrom("PlanStepCompletion").select("step").where("userId", "=", userId).where("planId", "=", planId).where("date", "=", date).orderBy("step"),
);

const completionOn = statement((userId: string, planId: string, date: string) =>
  query
    .selectFrom("PlanCompletion")
    .select((eb) => eb.lit(1).as("done"))
    .where("userId", "=", userId)
    .where("planId", "=", planId)
    .where("date", "=", date)
    .limit(1),
);

const completionDatesUntil = statement((userId: string, today: string) =>
  query.selectFrom("PlanCompletion").select("date").distinct().where("userId", "=", userId).where("date", "<=", today),
);

/**
 * Marks the routine done for `date` (the member's local YYYY-MM-DD) when its `stepCount`
 * steps are all done that day. Idempotent. The check and the insert are one statement, so
 * the common case (a first finish) costs one round trip.
 */
export async function recordCompletion(userId: string, planId: string, date: string, at: Date, stepCount: number): Promise<FinishOutcome> {
  const inserted = await execute(insertCompletion, crypto.randomUUID(), userId, planId, date, at, stepCount);
  if (inserted > 0) return { recorded: "new" };
  return { recorded: (await isDoneOn(userId, planId, date)) ? "already-done" : "steps-missing" };
}

/** Marks one step done for `date`. Idempotent. */
export async function recordStepDone(userId: string, planId: string, date: string, step: number, at: Date): Promise<void> {
  await execute(insertStepDone, userId, planId, date, step, at);
}

/** The step numbers done on `date`, ascending. */
export async function stepsDoneOn(userId: string, planId: string, date: string): Promise<number[]> {
  const rows = await queryRows(stepsOn, userId, planId, date);
  return rows.map((row) => Number(row.step));
}

export async function isDoneOn(userId: string, planId: string, date: string): Promise<boolean> {
  const rows = await queryRows(completionOn, userId, planId, date);
  return rows.length > 0;
}

/**
 * The member's streak and week as of `today`: every day they finished any of their routines
 * counts (one streak per person, ADR 31). Read here, not kept at finish time, so finishing stays
 * one statement and the history of every plan, past purchases included, is the union with
 * nothing to migrate.
 */
export async function streakData(userId: string, today: string): Promise<StreakData> {
  // Dates are tiny strings; a member finishing every day for years still loads in one small query
  // (the (userId, planId, date) index serves it by its userId prefix).
  const rows = await queryRows(completionDatesUntil, userId, today);
  return memberStreak(
    rows.map((row) => row.date),
    today,
  );
}

export const EMPTY_STREAK = (today: string): StreakData => memberStreak([], today);
