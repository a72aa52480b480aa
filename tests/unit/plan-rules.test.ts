/**
 * A plan made personal by the funnels' rule engine, and the lint that keeps plan rules honest
 * (the same checks as funnel result rules).
 */
import { evaluate, parse } from "groq-js";
import { describe, expect, it } from "vitest";
import { PLAN_BY_ID } from "~/content/queries";
import { ContentImage, Plan, ResolvedPlan } from "~/content-model/content-types";
import { lintPlanRules } from "~/funnels/lint";
import { personalisePlan, planAnswers, videoView, type AnswerSet } from "~/members/personalise";
import { embeddedDataset, loadFunnel } from "./helpers";

const docs = embeddedDataset();
async function plan(id: string): Promise<ResolvedPlan> {
  return ResolvedPlan.parse(await (await evaluate(parse(PLAN_BY_ID, { params: { id } }), { dataset: docs, params: { id } })).get());
}
const storedPlan = (id: string) => Plan.parse(structuredClone(docs.find((d) => d._id === id)));

describe("choosing by the answers", () => {
  it("the skincare plan: oily, acne-prone and dry skin get different steps, products and reasons; no answers get the general plan", async () => {
    const skincare = await plan("clear-healthy-skin");
    const oily = personalisePlan(skincare, { skinType: "oily", mainConcern: ["acne", "large-pores"] });
    const dry = personalisePlan(skincare, { skinType: "dry", mainConcern: ["fine-lines"] });
    const general = personalisePlan(skincare, {});

    expect(oily.reason).toBe("For your oily, acne-prone skin");
    expect(dry.reason).toBe("For your dry skin and fine lines");
    expect(general).toMatchObject({ reason: null, personalised: false });

    // Personalised within the spec's six steps (the paywall previews them): the step stays, what to do changes.
    expect(oily.steps[0]).toMatchObject({ title: "Morning Gentle Cleanser", note: "Oily, breakout-prone skin: a gel that clears the night's oil" });
    expect(dry.steps[0]).toMatchObject({ title: "Morning Gentle Cleanser", note: "Dry or sensitive skin: a cleanse that leaves comfort behind" });
    expect(oily.steps[0].description).not.toBe(dry.steps[0].description);
    expect(dry.steps[4]).toMatchObject({ title: "Night Repair", note: "Fine lines: retinol, slowly" });
    expect(general.steps.map((s) => s.title)).toEqual([
      "Morning Gentle Cleanser",
      "Targeted Serum",
      "Hydrating Moisturizer",
      "Evening Deep Clean",
      "Night Repair",
      "Weekly Treatment",
    ]);
    expect(general.steps.every((s) => s.note === null)).toBe(true);

    expect(oily.products.map((p) => p.name).slice(0, 3)).toEqual(["Balancing Salicylic Cleanser", "Niacinamide 10% Serum", "Oil-Free Gel Moisturizer"]);
    expect(dry.products.map((p) => p.name).slice(0, 3)).toEqual(["Cream Cleanser", "Hyaluronic Acid Serum", "Ceramide Moisturizer"]);
    // Nobody with oily skin is "matched" to a rich cream or a hydrating primer.
    expect(oily.products.map((p) => p.name)).not.toContain("Ceramide Moisturizer");
  });

  it("a multi-choice answer matches a rule when any chosen value does; the first matching rule wins", async () => {
    const skincare = await plan("clear-healthy-skin");
    expect(personalisePlan(skincare, { skinType: "normal", mainConcern: ["large-pores", "dark-spots"] }).reason).toBe("For dark spots and an uneven tone");
    expect(personalisePlan(skincare, { skinType: "normal", mainConcern: ["redness", "acne"] }).reason).toBe("For your redness-prone skin: calm first");
    // Answers no rule covers leave the general plan: no "built from your answers", no badge (issue 27).
    expect(personalisePlan(skincare, { skinType: "normal", mainConcern: ["large-pores"] })).toMatchObject({ reason: null, personalised: false });
  });

  it("every plan changes with its own quiz's answers", async () => {
    const cases: [string, Record<string, string>, Record<string, string>][] = [
      ["makeup-prep", { skinType: "oily", biggestFrustration: "short-lasting" }, { skinType: "dry", biggestFrustration: "patchy" }],
      ["crease-free", { creasingLocation: "under-eyes", foundationCreasing: "lunchtime" }, { creasingLocation: "smile-lines", foundationCreasing: "evening" }],
      ["no-more-cakey", { skinType: "oily-combination", biggestFrustration: "fades-quickly" }, { skinType: "dry", biggestFrustration: "patchy-uneven" }],
    ];
    for (const [id, first, second] of cases) {
      const a = personalisePlan(await plan(id), first);
      const b = personalisePlan(await plan(id), second);
      expect(a.reason, id).not.toBe(b.reason);
      expect(a.products[0].name, id).not.toBe(b.products[0].name);
      expect(
        a.steps.map((s) => s.title),
        id,
      ).not.toEqual(b.steps.map((s) => s.title));
    }
    const prep = personalisePlan(await plan("makeup-prep"), { skinType: "oily" });
    expect(prep.products[0].name).toBe("Mattifying Primer");
  });

  it("merges a plan's funnels' answers, a newer answer to the same field winning, other funnels ignored", () => {
    const sets: AnswerSet[] = [
      { funnel: "makeup", answers: { skinType: "dry", mainGoal: "smooth-base" }, at: "2026-11-01T10:00:00.000Z" },
      { funnel: "cakey-makeup", answers: { skinType: "oily-combination" }, at: "2026-11-02T10:00:00.000Z" },
      { funnel: "skin", answers: { skinType: "sensitive" }, at: "2026-11-03T10:00:00.000Z" },
    ];
    expect(planAnswers(["makeup", "cakey-makeup"], sets)).toEqual({ skinType: "oily-combination", mainGoal: "smooth-base" });
    expect(planAnswers(["makeup"], sets)).toEqual({ skinType: "dry", mainGoal: "smooth-base" });
    expect(planAnswers(["crease-crisis"], sets)).toEqual({});
  });

  it("shows a video only when the content has one", () => {
    const still = ContentImage.parse({ src: "/images/routine/cleanse.svg", width: 640, height: 400, alt: "A cleanser" });
    expect(videoView(null)).toBeNull();
    expect(videoView({ title: "Cleanse", url: "/videos/cleanse.mp4", poster: still, duration: "0:40" })).toEqual({
      title: "Cleanse",
      src: "/videos/cleanse.mp4",
      poster: still,
      duration: "0:40",
      captions: null,
    });
    expect(
      videoView({
        title: "Cleanse",
        fileUrl: "https://cdn.sanity.io/files/p/d/abc.mp4",
        poster: still,
        captions: { fileUrl: "https://cdn.sanity.io/files/p/d/abc.vtt", label: "English", srclang: "en" },
      })?.captions,
    ).toEqual({ src: "https://cdn.sanity.io/files/p/d/abc.vtt", label: "English", srclang: "en" });
  });
});

describe("plan rule lint", () => {
  it("finds nothing wrong with the plans in the dataset", () => {
    const funnels: Record<string, string> = {
      "clear-healthy-skin": "skin",
      "makeup-prep": "makeup",
      "crease-free": "crease-crisis",
      "no-more-cakey": "cakey-makeup",
    };
    for (const [id, funnel] of Object.entries(funnels)) expect(lintPlanRules(storedPlan(id), [loadFunnel(funnel)]), id).toEqual([]);
  });

  it("flags a field the plan's quizzes don't ask, an option that doesn't exist, a rule that can't match and one that is never used", () => {
    const doc = storedPlan("crease-free");
    doc.reasons.rules[0].when = [{ field: "skinType", anyOf: ["oily"] }];
    doc.reasons.rules[1].when = [{ field: "creasingLocation", anyOf: ["under-eye"] }];
    doc.products.rules[0].when = [
      { field: "creasingLocation", anyOf: ["under-eyes"] },
      { field: "creasingLocation", anyOf: ["forehead"] },
    ];
    doc.steps[3].variants.push({ when: [{ field: "creasingLocation", anyOf: ["under-eyes"] }], title: "Again", note: "Never shown" });
    const problems = lintPlanRules(doc, [loadFunnel("crease-crisis")]);
    expect(problems).toEqual([
      { path: ["reasons", "rules", 0, "when", 0, "field"], message: 'no quiz of this plan asks "skinType" (its quizzes: "crease-crisis")' },
      { path: ["reasons", "rules", 1, "when", 0, "anyOf", 0], message: '"creasingLocation" has no option "under-eye"' },
      {
        path: ["products", "rules", 0],
        message: 'rule 1 can never match: "creasingLocation" has a single answer, which cannot be one of "under-eyes" and one of "forehead"',
      },
      { path: ["steps", 3, "variants", 2], message: "rule 3 is never used: whenever it matches, rule 1 matches first" },
    ]);
  });

  it("a plan with rules but no quizzes is told to name them", () => {
    const doc = storedPlan("makeup-prep");
    expect(lintPlanRules(doc, [])[0].message).toMatch(/its quizzes: none/);
  });
});

describe("answers on the account", () => {
  it("keeps the newest result per quiz: an older one arriving late never replaces it", async () => {
    const { db } = await import("~/utils/db.server");
    const { rememberAnswers, memberAnswers } = await import("~/members/answers.server");
    const user = await db.user.create({ data: { email: `answers-${crypto.randomUUID()}@glowcoach.test` } });
    await rememberAnswers(user.id, [{ funnel: "skin", answers: { skinType: "dry" }, at: "2026-11-02T10:00:00.000Z" }]);
    // A checkout started before the quiz was taken again is fulfilled late, with the old answers.
    await rememberAnswers(user.id, [{ funnel: "skin", answers: { skinType: "oily" }, at: "2026-11-01T10:00:00.000Z" }]);
    await rememberAnswers(user.id, [{ funnel: "makeup", answers: { skinType: "oily" }, at: "2026-11-01T10:00:00.000Z" }]);
    const sets = await memberAnswers(user.id);
    expect(sets.find((s) => s.funnel === "skin")).toEqual({ funnel: "skin", answers: { skinType: "dry" }, at: "2026-11-02T10:00:00.000Z" });
    expect(sets).toHaveLength(2);
    await rememberAnswers(user.id, [{ funnel: "skin", answers: { skinType: "sensitive" }, at: "2026-11-03T10:00:00.000Z" }]);
    expect((await memberAnswers(user.id)).find((s) => s.funnel === "skin")?.answers).toEqual({ skinType: "sensitive" });
  });
});
