/**
 * The typical progress a quiz result draws (ADR 42): a score on a 0-100 scale, week by week,
 * worked out from the visitor's answers and the plan's `progress` content. Pure: no I/O, no
 * React, so the result page, its text alternative and the tests read the same numbers.
 */
import type { PlanProgress } from "~/content-model/content-types";
import { firstMatch, type Answers } from "./engine";

export type ProgressPoint = { week: number; score: number };

/** The curve's parameters for one visitor: each the first rule that holds for their answers, else the plan's `otherwise`. */
export type ProgressParameters = { start: number; gain: number; halfwayWeek: number; weeks: number };

export function progressParameters(progress: PlanProgress, answers: Answers): ProgressParameters {
  const pick = (part: PlanProgress["start"]) => firstMatch(part.rules, answers)?.value ?? part.otherwise;
  return {
    start: pick(progress.start),
    gain: (progress.typicalGain * pick(progress.pace)) / 100,
    halfwayWeek: pick(progress.halfwayWeek),
    weeks: progress.weeks,
  };
}

/**
 * One point a week, week 0 to the last: the score rises from `start` towards `start + gain`,
 * halving the distance left every `halfwayWeek` weeks (most change comes early, then it levels
 * off, as skin does). Whole numbers, because that is what the page shows.
 */
export function projectProgress({ start, gain, halfwayWeek, weeks }: ProgressParameters): ProgressPoint[] {
  return Array.from({ length: weeks + 1 }, (_, week) => {
    const score = start + gain * (1 - 0.5 ** (week / halfwayWeek));
    return { week, score: Math.min(100, Math.max(0, Math.round(score))) };
  });
}

/** What the result page's chart shows: the plan's words, the answers it was drawn from, and the numbers. */
export type ProgressChart = {
  title: string;
  measure: string;
  note: string;
  planName: string;
  /** The visitor's answers the curve depends on, in words ("oily skin", "5-10 minutes"). */
  basedOn: string[];
  points: ProgressPoint[];
};

/** The answer fields the plan's progress rules read, in the order they appear (start, halfway week, pace). */
export function progressFields(progress: PlanProgress): string[] {
  const parts = [progress.start, progress.halfwayWeek, progress.pace];
  return [...new Set(parts.flatMap((part) => part.rules.flatMap((rule) => rule.when.map((condition) => condition.field))))];
}

/**
 * The chart for a plan and a visitor's answers, or null when the plan has no progress content.
 * `describe` turns an answer field into the visitor's words for it (undefined when unanswered).
 */
export function progressChart(
  plan: { name: string; progress?: PlanProgress },
  answers: Answers,
  describe: (field: string) => string | undefined,
): ProgressChart | null {
  const { progress } = plan;
  if (!progress) return null;
  return {
    title: progress.title,
    measure: progress.measure,
    note: progress.note,
    planName: plan.name,
    basedOn: progressFields(progress).flatMap((field) => describe(field) ?? []),
    points: projectProgress(progressParameters(progress, answers)),
  };
}
