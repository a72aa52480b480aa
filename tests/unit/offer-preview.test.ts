/**
 * The offer page previews the plan a buyer gets (issue 27 item 3, ADR 34): its routine steps,
 * products and tips are the offer's routine plan made personal by the visitor's answers, with
 * the same function the member's pages use, locked parts without their texts. The skincare
 * paywall's six sample steps are the skincare plan's steps.
 */
import { evaluate, parse } from "groq-js";
import { describe, expect, it } from "vitest";
import { PLAN_BY_ID } from "~/content/queries";
import { ResolvedPlan } from "~/content-model/content-types";
import { personalisePlan } from "~/members/personalise";
import { planPreview } from "~/payments/offer-page-preview";
import { Offer } from "~/content-model/offer";
import { embeddedDataset } from "./helpers";

const docs = embeddedDataset();
async function plan(id: string): Promise<ResolvedPlan> {
  return ResolvedPlan.parse(await (await evaluate(parse(PLAN_BY_ID, { params: { id } }), { dataset: docs, params: { id } })).get());
}
function offer(path: string): Offer {
  return Offer.parse(docs.find((d) => d._type === "offer" && d.path === path));
}

/** The spec's /subscribe preview, in order. */
const SPEC_STEPS = ["Morning Gentle Cleanser", "Targeted Serum", "Hydrating Moisturizer", "Evening Deep Clean", "Night Repair", "Weekly Treatment"];

const OILY_ACNE = { skinType: "oily", mainConcern: ["acne"] };
const DRY_LINES = { skinType: "dry", mainConcern: ["fine-lines"] };

describe("the skincare paywall previews the skincare plan", () => {
  it("the plan's steps are the spec's six, for a visitor without answers and, personalised within them, for any answers", async () => {
    const skincare = await plan(offer("/subscribe").routinePlan._ref);
    expect(personalisePlan(skincare, {}).steps.map((s) => s.title)).toEqual(SPEC_STEPS);
    for (const answers of [OILY_ACNE, DRY_LINES, { skinType: "sensitive", mainConcern: ["redness"] }, { skinType: "normal", mainConcern: ["dark-spots"] }]) {
      expect(personalisePlan(skincare, answers).steps.map((s) => s.title)).toEqual(SPEC_STEPS);
    }
  });

  it("without answers /subscribe shows the spec's preview: six steps, step 1 open, the rest by name only", async () => {
    const subscribe = offer("/subscribe");
    const { routine, tips } = planPreview(subscribe.sections, personalisePlan(await plan(subscribe.routinePlan._ref), {}));
    expect(routine.map((s) => s.name)).toEqual(SPEC_STEPS);
    expect(routine.map((s) => s.detail !== null)).toEqual([true, false, false, false, false, false]);
    // Three tips: two to read, Tip 3 locked.
    expect(tips.map((t) => [t.title, t.locked])).toEqual([
      ["Tip 1", false],
      ["Tip 2", false],
      ["Tip 3", true],
    ]);
  });

  it("two answer sets get two previews, each exactly the plan that answer set is then given", async () => {
    const subscribe = offer("/subscribe");
    const skincare = await plan(subscribe.routinePlan._ref);
    const previews = [OILY_ACNE, DRY_LINES].map((answers) => {
      const delivered = personalisePlan(skincare, answers);
      const preview = planPreview(subscribe.sections, delivered);
      // What the buyer then gets: the player's steps, /home's products and 'Tips & Tricks'.
      expect(preview.routine.map((s) => s.name)).toEqual(delivered.steps.map((s) => s.title));
      expect(preview.routine[0].detail).toBe(delivered.steps[0].description);
      expect(preview.matches[0].name).toBe(delivered.products[0].name);
      expect(preview.tips.filter((t) => !t.locked).map((t) => t.text)).toEqual(delivered.homeTips.slice(0, 2));
      return preview;
    });
    const [oily, dry] = previews;
    expect(oily.routine[0].detail).not.toBe(dry.routine[0].detail);
    expect(oily.matches[0].name).toBe("Balancing Salicylic Cleanser");
    expect(dry.matches[0].name).toBe("Cream Cleanser");
    expect(oily.tips[0].text).not.toBe(dry.tips[0].text);
  });

  it("locked parts never carry their names or texts to the page", async () => {
    const subscribe = offer("/subscribe");
    const delivered = personalisePlan(await plan(subscribe.routinePlan._ref), OILY_ACNE);
    const preview = planPreview(subscribe.sections, delivered);
    const page = JSON.stringify(preview);
    for (const locked of delivered.steps.slice(1)) expect(page).not.toContain(locked.description);
    expect(page).not.toContain(delivered.homeTips[2]);
    expect(page).not.toContain(delivered.products[1].name);
    expect(preview.matches.filter((m) => m.locked).every((m) => m.name === null)).toBe(true);
  });

  it("every offer with a routine section previews its own plan's steps", async () => {
    for (const path of ["/subscribe-otp", "/cakey-otp"]) {
      const page = offer(path);
      const delivered = personalisePlan(await plan(page.routinePlan._ref), {});
      expect(planPreview(page.sections, delivered).routine.map((s) => s.name)).toEqual(delivered.steps.map((s) => s.title));
    }
  });
});

describe("the offer's preview settings", () => {
  it("refuses more unlocked tips than tips shown, and a second routine or tips section", () => {
    const doc = structuredClone(docs.find((d) => d._id === "offer-skincare-paywall")!) as Record<string, any>;
    const tips = doc.sections.find((s: any) => s._type === "tips");
    tips.visibleTips = 4;
    doc.sections.push(structuredClone(doc.sections.find((s: any) => s._type === "routine")));
    const problems = Offer.safeParse(doc).error?.issues.map((i) => i.message) ?? [];
    expect(problems).toContain("must be at most the number of tips shown");
    expect(problems).toContain("an offer has at most one routine section");
  });
});
