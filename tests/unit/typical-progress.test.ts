/**
 * The result's typical-progress chart (issue 30, item 4; ADR 42): the projection from a plan's
 * progress content and a visitor's answers, the content's validation, and the markup the
 * result step places (picture, small print and the same numbers as text).
 */
import { evaluate, parse } from "groq-js";
import { describe, expect, it } from "vitest";
import { PLAN_BY_ID } from "~/content/queries";
import { Plan, PlanProgress, ResolvedPlan } from "~/content-model/content-types";
import { progressChartHtml, weekTicks } from "~/funnels/components/progress-chart.server";
import { describeAnswer } from "~/funnels/engine";
import { lintPlanRules } from "~/funnels/lint";
import { progressChart, progressParameters, projectProgress } from "~/funnels/typical-progress";
import { embeddedDataset, loadFunnel } from "./helpers";

const docs = embeddedDataset();
async function skincarePlan(): Promise<ResolvedPlan> {
  const params = { id: "clear-healthy-skin" };
  return ResolvedPlan.parse(await (await evaluate(parse(PLAN_BY_ID, { params }), { dataset: docs, params })).get());
}
const scores = (progress: PlanProgress, answers: Record<string, string | string[]>) =>
  projectProgress(progressParameters(progress, answers)).map((p) => p.score);

describe("the projection", () => {
  it("with only a measure, the defaults: 8 weeks from 40, levelling off towards 80, half way by week 2", () => {
    const progress = PlanProgress.parse({ measure: "Clear skin" });
    expect(progressParameters(progress, {})).toEqual({ start: 40, gain: 40, halfwayWeek: 2, weeks: 8 });
    expect(projectProgress(progressParameters(progress, {}))).toEqual([
      { week: 0, score: 40 },
      { week: 1, score: 52 },
      { week: 2, score: 60 },
      { week: 3, score: 66 },
      { week: 4, score: 70 },
      { week: 5, score: 73 },
      { week: 6, score: 75 },
      { week: 7, score: 76 },
      { week: 8, score: 78 },
    ]);
  });

  it("the skincare plan: skin type sets the start, the main concern the speed, time per day how far it goes", async () => {
    const { progress } = await skincarePlan();
    expect(progress).toBeDefined();
    // Oily (starts at 40), acne (half way by week 3), 5-10 minutes (90% of the 40-point gain).
    expect(progressParameters(progress!, { skinType: "oily", mainConcern: ["acne"], timeWillingness: "5-10" })).toEqual({
      start: 40,
      gain: 36,
      halfwayWeek: 3,
      weeks: 8,
    });
    expect(scores(progress!, { skinType: "oily", mainConcern: ["acne"], timeWillingness: "5-10" })).toEqual([40, 47, 53, 58, 62, 65, 67, 69, 70]);
    // Sensitive (35), fine lines listed with acne (the slower one wins: week 5), under 5 minutes (70%).
    expect(scores(progress!, { skinType: "sensitive", mainConcern: ["acne", "fine-lines"], timeWillingness: "under-5" })).toEqual([
      35, 39, 42, 45, 47, 49, 51, 52, 54,
    ]);
    // Normal skin, a concern no rule slows, 10+ minutes: the plan's `otherwise` values (50, week 2, 100%).
    expect(scores(progress!, { skinType: "normal", mainConcern: ["large-pores"], timeWillingness: "10-plus" })).toEqual([50, 62, 70, 76, 80, 83, 85, 86, 88]);
  });

  it("never leaves the 0-100 scale", () => {
    expect(projectProgress({ start: 90, gain: 40, halfwayWeek: 1, weeks: 3 }).map((p) => p.score)).toEqual([90, 100, 100, 100]);
  });

  it("names the answers it was drawn from, in the visitor's words, and the plan", async () => {
    const plan = await skincarePlan();
    const skin = loadFunnel("skin");
    const answers = { skinType: "oily", mainConcern: ["acne", "redness"], timeWillingness: "5-10" };
    const chart = progressChart(plan, answers, (field) => describeAnswer(skin, answers, field));
    expect(chart).toMatchObject({
      title: "How skin like yours typically changes",
      measure: "Clear, comfortable skin",
      planName: "Clear & Healthy Skin",
      basedOn: ["oily skin", "breakouts and redness", "5-10 minutes"],
    });
    expect(chart!.points.at(-1)).toEqual({ week: 8, score: 70 });
    // Unanswered fields are left out; a plan without progress content draws no chart.
    expect(progressChart(plan, {}, () => undefined)?.basedOn).toEqual([]);
    expect(progressChart({ ...plan, progress: undefined }, answers, () => "x")).toBeNull();
  });
});

describe("the content", () => {
  it("refuses a curve that would leave the scale, a pace of 0 and a chart longer than 16 weeks", () => {
    const problems = (input: unknown) => {
      const result = PlanProgress.safeParse(input);
      return result.success ? [] : result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    };
    expect(problems({ measure: "Skin", start: { rules: [{ when: [{ field: "skinType", anyOf: ["dry"] }], value: 70 }], otherwise: 40 } })).toEqual([
      "typicalGain: the highest start plus typicalGain must stay within 100",
    ]);
    expect(problems({ measure: "Skin", pace: { otherwise: 0 } })).toHaveLength(1);
    expect(problems({ measure: "Skin", weeks: 20 })).toHaveLength(1);
    expect(problems({ title: "No measure" })).toEqual(["measure: Invalid input: expected string, received undefined"]);
  });

  it("the plan lint checks the chart's rules against the plan's quiz, as it does every plan rule", () => {
    const doc = Plan.parse(structuredClone(docs.find((d) => d._id === "clear-healthy-skin")));
    expect(lintPlanRules(doc, [loadFunnel("skin")])).toEqual([]);
    doc.progress!.pace.rules[0].when = [{ field: "timePerDay", anyOf: ["under-5"] }];
    doc.progress!.halfwayWeek.rules[1].when = [{ field: "mainConcern", anyOf: ["dark-spot"] }];
    expect(lintPlanRules(doc, [loadFunnel("skin")])).toEqual([
      { path: ["progress", "halfwayWeek", "rules", 1, "when", 0, "anyOf", 0], message: '"mainConcern" has no option "dark-spot"' },
      { path: ["progress", "pace", "rules", 0, "when", 0, "field"], message: 'no quiz of this plan asks "timePerDay" (its quizzes: "skin")' },
    ]);
  });
});

describe("the markup", () => {
  const chart = {
    title: "How skin like yours typically changes",
    measure: "Clear, comfortable skin",
    note: "A typical path, not a promise.",
    planName: "Clear & Healthy Skin",
    basedOn: ["oily skin"],
    points: projectProgress({ start: 40, gain: 36, halfwayWeek: 3, weeks: 8 }),
  };

  it("is a labelled picture with the small print and a table holding the same numbers", () => {
    const html = progressChartHtml(chart);
    expect(html).toContain('role="img" aria-labelledby="progress-chart-title" aria-describedby="progress-chart-desc"');
    expect(html).toContain("How skin like yours typically changes (typical, not promised)</title>");
    expect(html).toContain("Clear, comfortable skin, on a scale of 0 to 100: typically 40 now, 62 by week 4 and 70 by week 8.</desc>");
    expect(html).toContain("Typical, not promised</span>");
    expect(html).toContain("<figcaption");
    const rows = [...html.matchAll(/<th scope="row"[^>]*>([^<]+)<\/th><td[^>]*>(\d+)<\/td>/g)].map((m) => `${m[1]}: ${m[2]}`);
    expect(rows).toEqual(["Now: 40", "Week 1: 47", "Week 2: 53", "Week 3: 58", "Week 4: 62", "Week 5: 65", "Week 6: 67", "Week 7: 69", "Week 8: 70"]);
  });

  it("escapes words from the content", () => {
    const html = progressChartHtml({ ...chart, measure: '<script>alert("x")</script>', planName: "A & B" });
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;");
    expect(html).toContain("over 8 weeks with A &amp; B, drawn from your answers:");
  });

  it("labels now, about four weeks between and the last week", () => {
    expect(weekTicks(8)).toEqual([0, 2, 4, 6, 8]);
    expect(weekTicks(12)).toEqual([0, 3, 6, 9, 12]);
    expect(weekTicks(10)).toEqual([0, 3, 6, 10]);
    expect(weekTicks(2)).toEqual([0, 1, 2]);
  });
});
