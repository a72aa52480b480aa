import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { HomePage, Plan, TutorialSettings, TutorialStep, type ContentImage } from "~/content/types";
import { embeddedDataset } from "./helpers";

const docs = embeddedDataset();

function expectServedImage(image: ContentImage) {
  const file = path.join("public", image.src);
  expect(fs.existsSync(file), `${image.src} exists in public/`).toBe(true);
  const svg = fs.readFileSync(file, "utf8");
  // The file's own size matches what the page reserves, so nothing shifts while it loads.
  expect(svg).toContain(`width="${image.width}" height="${image.height}"`);
  expect(image.alt.length).toBeGreaterThan(5);
}

describe("members' content", () => {
  it("has exactly one active plan, valid, with 6 steps that each have an image and tips", () => {
    const plans = docs.filter((d) => d._type === "plan");
    expect(plans.filter((p) => p.isActive === true)).toHaveLength(1);
    for (const doc of plans) {
      const plan = Plan.parse(doc);
      expect(plan.stepCount).toBe(6);
      for (const step of plan.steps) {
        expect(step.tips.length).toBeGreaterThan(0);
        expectServedImage(step.image);
      }
    }
  });

  it("refuses a plan whose step count does not match its steps", () => {
    const plan = structuredClone(docs.find((d) => d._type === "plan")!);
    plan.stepCount = 5;
    expect(Plan.safeParse(plan).success).toBe(false);
    expect(Plan.safeParse({ ...plan, stepCount: 6, steps: [] }).success).toBe(false);
  });

  it("refuses images that are not files served by the app", () => {
    const plan = structuredClone(docs.find((d) => d._type === "plan")!) as unknown as { steps: { image: { src: string } }[] };
    plan.steps[0].image.src = "https://example.com/cleanse.jpg";
    expect(Plan.safeParse(plan).success).toBe(false);
  });

  it("has the six tutorial steps the spec lists, with their next labels and targets", () => {
    const steps = [1, 2, 3, 4, 5, 6].map((n) => TutorialStep.parse(docs.find((d) => d._type === "tutorialStep" && d.number === n)));
    expect(steps.map((s) => s.title)).toEqual([
      "Cleansing the Right Way",
      "Hydration & Moisturizing",
      "Sun Protection (SPF)",
      "Targeted Treatments",
      "Lifestyle Habits",
      "Weekly Extras & Consistency",
    ]);
    expect(steps.map((s) => [s.next.label, s.next.href])).toEqual([
      ["Next: Hydration", "/path2"],
      ["Next: Sun Protection", "/path3"],
      ["Next: Targeted Treatments", "/path4"],
      ["Next: Lifestyle Habits", "/path5"],
      ["Next: Weekly Extras", "/path6"],
      ["Finish & See Results", "/completion"],
    ]);
    const [cleansing, , sun, treatments, lifestyle, weekly] = steps;
    expect(cleansing.tips.join(" ")).toMatch(/lukewarm water.*30 seconds.*twice daily/s);
    expect(sun.tips.join(" ")).toMatch(/every 2-3 hours.*SPF 30 or higher/s);
    expect(treatments.tips.join(" ")).toMatch(/2-3 times per week.*[Pp]atch test.*too many actives/s);
    expect(treatments.recommended.map((p) => p.name).join(" ")).toMatch(/BHA.*[Nn]iacinamide/);
    expect(treatments.avoid.map((a) => a.title).join(" ")).toMatch(/retinol with AHA\/BHA.*spot treatments/s);
    expect(lifestyle.tips.join(" ")).toMatch(/[Ww]ater.*7-8 hours.*pillowcase 2-3 times a week/s);
    expect(lifestyle.recommendedHeading).toBe("Lifestyle Essentials");
    expect(lifestyle.recommended.map((p) => p.name)).toEqual(["Quality Sleep", "Proper Hydration"]);
    expect(lifestyle.avoid.map((a) => a.title).join(" ")).toMatch(/[Tt]ouching your face.*diet and smoking/s);
    expect(weekly.tips.join(" ")).toMatch(/1-2 times a week.*soothing mask.*photo/s);
    expect(weekly.recommended.map((p) => p.name).join(" ")).toMatch(/AHA 7%.*[Cc]ica [Mm]ask/s);
    expect(weekly.avoid.map((a) => a.title).join(" ")).toMatch(/Over-exfoliation.*new products at once/s);
    for (const step of steps) {
      expectServedImage(step.video.image);
      for (const product of step.recommended) expectServedImage(product.image);
    }
  });

  it("has the tutorial footer and the completion texts", () => {
    const settings = TutorialSettings.parse(docs.find((d) => d._id === "tutorialSettings"));
    expect(settings.footer.links.map((l) => l.href)).toEqual(["#product", "/partnerships", null, null, "/privacy-policy", "/terms-of-service"]);
    expect(settings.footer.copyright).toContain("2025");
    expect(settings.completion).toMatchObject({
      title: "Congratulations!",
      message: "You've completed your Clear & Healthy Skin routine.",
      badge: "6 steps completed today",
      button: { label: "Stick to Routine", href: "/home" },
      trustLine: "Trusted by 1,000+ learners and validated by beauty experts.",
    });
  });

  it("has the home page's fixed cards and a motivational line for every state", () => {
    const home = HomePage.parse(docs.find((d) => d._id === "page-home"));
    expect(home.tips).toHaveLength(4);
    expect(home.products).toHaveLength(2);
    expect(home.avoid).toHaveLength(2);
    for (const when of ["start", "continue", "done"]) expect(home.motivation.some((m) => m.when === when)).toBe(true);
    for (const product of home.products) expectServedImage(product.image);
  });
});
