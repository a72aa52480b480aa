import fs from "node:fs";
import path from "node:path";
import { evaluate, parse } from "groq-js";
import { describe, expect, it } from "vitest";
import {
  HomePage,
  Plan,
  Product,
  ResolvedPlan,
  ResolvedTutorialStep,
  SiteSettings,
  TutorialSettings,
  TutorialStep,
  type ContentImage,
} from "~/content-model/content-types";
import { DEFAULT_PLAN, PLAN_BY_ID, TUTORIAL_STEP } from "~/content/queries";
import { embeddedDataset } from "./helpers";

const docs = embeddedDataset();
const query = async (q: string, params: Record<string, unknown> = {}) => (await evaluate(parse(q, { params }), { dataset: docs, params })).get();

function expectServedImage(image: ContentImage) {
  const file = path.join("public", image.src);
  expect(fs.existsSync(file), `${image.src} exists in public/`).toBe(true);
  const svg = fs.readFileSync(file, "utf8");
  // The file's own size matches what the page reserves, so nothing shifts while it loads.
  expect(svg).toContain(`width="${image.width}" height="${image.height}"`);
  expect(image.alt.length).toBeGreaterThan(5);
}

const PLANS = {
  "clear-healthy-skin": "Clear & Healthy Skin",
  "makeup-prep": "Makeup Prep",
  "crease-free": "Crease-Free Makeup",
  "no-more-cakey": "No-More-Cakey Makeup",
};

describe("members' content", () => {
  it("has a plan for every product, one of them the default, each read through its query with six steps, six tutorial pages and products", async () => {
    const plans = docs.filter((d) => d._type === "plan");
    expect(Object.fromEntries(plans.map((p) => [p._id, p.name]))).toEqual(PLANS);
    expect(plans.filter((p) => p.isActive === true).map((p) => p._id)).toEqual(["clear-healthy-skin"]);
    expect(ResolvedPlan.parse(await query(DEFAULT_PLAN))._id).toBe("clear-healthy-skin");
    for (const id of Object.keys(PLANS)) {
      Plan.parse(docs.find((d) => d._id === id));
      const plan = ResolvedPlan.parse(await query(PLAN_BY_ID, { id }));
      expect(plan.stepCount).toBe(6);
      expect(plan.steps).toHaveLength(6);
      expect(plan.answersFrom.length).toBeGreaterThan(0);
      for (const step of plan.steps) {
        expect(step.tips.length).toBeGreaterThan(0);
        expectServedImage(step.image);
      }
      expect(plan.tutorial).toHaveLength(6);
      for (const pageId of plan.tutorial) {
        const page = ResolvedTutorialStep.parse(await query(TUTORIAL_STEP, { id: pageId }));
        expectServedImage(page.image);
        for (const product of page.recommended) expectServedImage(product.image);
      }
      for (const product of [...plan.products.otherwise, ...plan.products.rules.flatMap((r) => r.products)]) expectServedImage(product.image);
      // Each offer sells one plan, and every plan is sold.
      expect(docs.filter((d) => d._type === "offer" && (d.routinePlan as { _ref: string })._ref === id)).toHaveLength(1);
    }
  });

  it("keeps every plan's own tutorial pages apart (no page shared between plans)", () => {
    const pages = docs.filter((d) => d._type === "plan").flatMap((p) => (p.tutorial as { _ref: string }[]).map((r) => r._ref));
    expect(new Set(pages).size).toBe(pages.length);
  });

  it("refuses a plan whose step count does not match its steps, and images that are not the app's files", () => {
    const plan = structuredClone(docs.find((d) => d._type === "plan")!) as Record<string, any>;
    plan.stepCount = 5;
    expect(Plan.safeParse(plan).success).toBe(false);
    expect(Plan.safeParse({ ...plan, stepCount: 6, steps: [] }).success).toBe(false);
    const other = structuredClone(docs.find((d) => d._type === "plan")!) as Record<string, any>;
    other.steps[0].image.src = "https://example.com/cleanse.jpg";
    expect(Plan.safeParse(other).success).toBe(false);
  });

  it("keeps the six-step skincare tutorial: titles, next labels, tips, products and things to avoid", async () => {
    const plan = ResolvedPlan.parse(await query(PLAN_BY_ID, { id: "clear-healthy-skin" }));
    const steps = await Promise.all(plan.tutorial.map(async (id) => ResolvedTutorialStep.parse(await query(TUTORIAL_STEP, { id }))));
    expect(steps.map((s) => s.title)).toEqual([
      "Cleansing the Right Way",
      "Hydration & Moisturizing",
      "Sun Protection (SPF)",
      "Targeted Treatments",
      "Lifestyle Habits",
      "Weekly Extras & Consistency",
    ]);
    expect(steps.map((s) => s.nextLabel)).toEqual([
      "Next: Hydration",
      "Next: Sun Protection",
      "Next: Targeted Treatments",
      "Next: Lifestyle Habits",
      "Next: Weekly Extras",
      "Finish & See Results",
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
    // No page pretends to have a video it doesn't have.
    for (const step of steps) expect(step.video ?? null).toBeNull();
  });

  it("has products with details for 'Learn More', and shop links only as https", () => {
    const products = docs.filter((d) => d._type === "product");
    expect(products.length).toBeGreaterThanOrEqual(30);
    for (const doc of products) expect(Product.parse(doc).details.length).toBeGreaterThan(0);
    expect(Product.safeParse({ ...products[0], shopUrl: "http://shop.example/cleanser" }).success).toBe(false);
    expect(Product.safeParse({ ...products[0], shopUrl: "https://shop.example/cleanser" }).success).toBe(true);
  });

  it("has the tutorial footer (copyright of the current year: {year}) and the completion texts, for the skincare plan", () => {
    const settings = TutorialSettings.parse(docs.find((d) => d._id === "tutorialSettings"));
    expect(settings.footer.copyright).toContain("© {year} Glow Coach");
    const { completion } = settings;
    expect([completion.title, completion.message.replace("{plan}", "Clear & Healthy Skin"), completion.badge.replace("{count}", "6")]).toEqual([
      "Congratulations!",
      "You've completed your Clear & Healthy Skin routine.",
      "6 steps completed today",
    ]);
    expect(completion.button).toEqual({ label: "Stick to Routine", href: "/home" });
    expect(completion.trustLine).toBe("Trusted by 1,000+ learners and validated by beauty experts.");
  });

  it("has footer links in the site settings; those without a page are kept but never shown", () => {
    const settings = SiteSettings.parse(docs.find((d) => d._id === "siteSettings"));
    expect(settings.footerLinks.filter((l) => l.href).map((l) => l.href)).toEqual(["/partnerships", "/privacy-policy", "/terms-of-service"]);
    expect(settings.footerLinks.filter((l) => !l.href).map((l) => l.label)).toEqual(["Careers", "Press"]);
  });

  it("has the home page's lines, its invitation for signed-out visitors and a motivational line for every state", () => {
    const home = HomePage.parse(docs.find((d) => d._id === "page-home"));
    for (const when of ["start", "continue", "done"]) expect(home.motivation.some((m) => m.when === when)).toBe(true);
    expect(home.guest.quizHref).toBe("/quiz");
  });

  it("stores tutorial pages with product references the query resolves", () => {
    const stored = TutorialStep.parse(docs.find((d) => d._id === "tutorial-step-1"));
    expect(stored.recommended.map((r) => r._ref)).toEqual(["product-gentle-gel-cleanser", "product-cleansing-balm"]);
  });
});
