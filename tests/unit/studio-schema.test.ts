/**
 * The Studio's schema and validation (studio/schemaTypes) against the app's: every document
 * of the embedded dataset passes both, and broken documents fail both, each problem on the
 * field a marketer would fix.
 */
import { evaluate, parse } from "groq-js";
import { describe, expect, it } from "vitest";
import {
  HomePage,
  Insight,
  LandingPage,
  LegalPage,
  PartnershipsPage,
  Plan,
  Product,
  SiteSettings,
  TutorialSettings,
  TutorialStep,
} from "~/content-model/content-types";
import { Offer } from "~/content-model/offer";
import { STEP_TYPE_NAMES, toSanityDocument } from "~/content/sanity-format";
import { lintFunnels } from "~/funnels/lint";
import { resolveFunnel } from "~/content/funnel-resolve";
import { schemaProblems, studioSchema, validateWithStudio, type StudioMarker } from "../../studio/validate";
import { embeddedDataset, sharedQuestions } from "./helpers";

const stored = () => embeddedDataset().map((d) => toSanityDocument(structuredClone(d)));

/** The Studio's client for custom rules: GROQ over the dataset as stored in Sanity. */
const fetchFrom =
  (docs: Record<string, unknown>[]) =>
  async (query: string, params: Record<string, unknown> = {}) =>
    (await evaluate(parse(query, { params }), { dataset: docs, params })).get();

const errors = (markers: StudioMarker[]) => markers.filter((m) => m.level === "error");
const pathText = (path: StudioMarker["path"]) => path.map((p) => (typeof p === "object" ? `[${p._key}]` : String(p))).join(".");

const appSchemas: Record<string, { safeParse(v: unknown): { success: boolean } }> = {
  insight: Insight,
  siteSettings: SiteSettings,
  landingPage: LandingPage,
  plan: Plan,
  product: Product,
  tutorialStep: TutorialStep,
  tutorialSettings: TutorialSettings,
  homePage: HomePage,
  partnershipsPage: PartnershipsPage,
  legalPage: LegalPage,
  offer: Offer,
};

/** What the app does with a document of this type: true when it would render it. */
function appAccepts(doc: Record<string, unknown>): boolean {
  if (doc._type === "funnel") return resolveFunnel(doc, sharedQuestions()).ok;
  const schema = appSchemas[String(doc._type)];
  return schema ? schema.safeParse(doc).success : true;
}

describe("Studio schema", () => {
  it("is a valid Sanity schema (what sanity build checks)", () => {
    expect(schemaProblems().filter((p) => p.severity === "error")).toEqual([]);
  });

  it("has a document type for every type in the dataset, and the step kinds content:push names", () => {
    for (const type of new Set(embeddedDataset().map((d) => d._type))) expect(studioSchema.get(type)?.name, type).toBe(type);
    for (const name of Object.values(STEP_TYPE_NAMES)) expect(studioSchema.get(name)?.jsonType, name).toBe("object");
  });
});

describe("every document of the embedded dataset", () => {
  const docs = stored();
  const ids = new Set(docs.map((d) => d._id));

  it.each(docs.map((d) => [d._id, d] as const))("%s passes the Studio and the app", async (_id, doc) => {
    expect(appAccepts(doc)).toBe(true);
    const markers = await validateWithStudio(doc, fetchFrom(docs), { knownIds: ids });
    expect(markers.map((m) => `${m.level} ${pathText(m.path)}: ${m.message}`)).toEqual([]);
    // "cli" also flags fields the Studio has no input for (a marketer could not edit them).
    const unknown = await validateWithStudio(doc, fetchFrom(docs), { knownIds: ids, environment: "cli" });
    expect(unknown.map((m) => `${pathText(m.path)}: ${m.message}`)).toEqual([]);
  });
});

describe("broken documents fail in the Studio as in the app", () => {
  const docs = stored();
  const byId = (id: string) => structuredClone(docs.find((d) => d._id === id)!) as Record<string, any>;

  async function studioErrors(doc: Record<string, unknown>) {
    return errors(await validateWithStudio(doc, fetchFrom(docs.map((d) => (d._id === doc._id ? doc : d))))).map((m) => `${pathText(m.path)}: ${m.message}`);
  }

  it("a result rule pointing at an option that does not exist", async () => {
    const skin = byId("funnel-skin");
    const result = skin.steps.find((s: any) => s.type === "result");
    result.pick.rules[0].when[0].anyOf = ["no-such-option"];
    expect(appAccepts(skin)).toBe(false);
    const found = await studioErrors(skin);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^steps\.\[[^\]]+\]\.pick\.rules\.\[[^\]]+\]\.when\.\[[^\]]+\]\.anyOf\.0: "\w+" has no option "no-such-option"$/);
  });

  it("a funnel step nothing leads to", async () => {
    const skin = byId("funnel-skin");
    // Step 1 skips step 2: step 2 can no longer be reached from the first step.
    const two = skin.steps.findIndex((s: any) => s.id === "2");
    skin.steps[two - 1].next = [{ _key: "k", to: { step: skin.steps[two + 1].id } }];
    expect(appAccepts(skin)).toBe(true); // the engine could run it ...
    const lint = lintFunnels({ files: [{ file: "skin.json", doc: skin }], dataset: embeddedDataset(), appRoutes: ["*"] });
    expect(lint.errors.join("\n")).toMatch(/skin\.json: 2: unreachable/); // ... but funnels:check refuses it, and so does the Studio.
    expect(await studioErrors(skin)).toEqual([`steps.[2]: unreachable: no branch leads here from the first step "0"`]);
  });

  it("a step going to a step that does not exist, and a shared question's rule on a missing option", async () => {
    const makeup = byId("funnel-makeup");
    const step = makeup.steps.find((s: any) => s.type === "question");
    step.next = [{ _key: "only", to: { step: "nowhere" } }];
    expect(appAccepts(makeup)).toBe(false);
    expect((await studioErrors(makeup)).join("\n")).toContain(`steps.[${step._key}].next.[only].to.step: no step "nowhere"`);
  });

  it("a shared question without options", async () => {
    const question = byId("question-longevity-goal");
    question.options = question.options.slice(0, 1);
    expect(await studioErrors(question)).toEqual(["options: needs at least two options"]);
    // Funnels asking it cannot resolve in the app.
    const shared = new Map(sharedQuestions());
    shared.set("question-longevity-goal", question);
    expect(resolveFunnel(byId("funnel-makeup"), shared).ok).toBe(false);
  });

  it("a routine plan whose step count does not match its steps", async () => {
    const plan = byId("clear-healthy-skin");
    plan.steps.pop();
    expect(appAccepts(plan)).toBe(false);
    expect(await studioErrors(plan)).toEqual(["stepCount: stepCount must equal the number of steps"]);
  });

  it("a progress chart that would leave its 0-100 scale, and a chart rule on an answer the quiz doesn't ask (ADR 42)", async () => {
    const plan = byId("clear-healthy-skin");
    plan.progress.typicalGain = 60;
    plan.progress.pace.rules[0].when[0].field = "timePerDay";
    expect(appAccepts(plan)).toBe(false);
    expect(await studioErrors(plan)).toEqual(["progress.typicalGain: the highest start plus typicalGain must stay within 100"]);
    plan.progress.typicalGain = 40;
    expect(appAccepts(plan)).toBe(true);
    const found = await studioErrors(plan);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^progress\.pace\.rules\.\[[^\]]+\]\.when\.\[[^\]]+\]\.field: no quiz of this plan asks "timePerDay"/);
  });

  it("a plan rule on an option its quiz doesn't have, and one that can never be used, are flagged on their fields", async () => {
    const plan = byId("makeup-prep");
    expect(appAccepts(plan)).toBe(true);
    expect(await studioErrors(plan)).toEqual([]);
    const rule = plan.products.rules[0];
    rule.when[0].anyOf = ["oily", "greasy"];
    const variants = plan.steps[2].variants;
    variants.push({ ...structuredClone(variants[0]), _key: "again" });
    expect(appAccepts(plan)).toBe(true); // the app could show it ...
    const found = await studioErrors(plan); // ... but the Studio says what is wrong, where.
    expect(found).toEqual([
      `products.rules.[${rule._key}].when.[${rule.when[0]._key}].anyOf.1: "skinType" has no option "greasy"`,
      `steps.[${plan.steps[2]._key}].variants.[again]: rule 4 is never used: whenever it matches, rule 1 matches first`,
    ]);
  });

  it("a plan without its tutorial pages, and a product with an http shop link", async () => {
    const plan = byId("crease-free");
    plan.tutorial = [];
    expect(appAccepts(plan)).toBe(false);
    expect(await studioErrors(plan)).toEqual(["tutorial: Add at least 1"]);
    const product = byId("product-beauty-sponge");
    product.shopUrl = "http://shop.example/sponge";
    expect(appAccepts(product)).toBe(false);
    expect((await studioErrors(product)).join("\n")).toMatch(/shopUrl/);
  });

  it("a tutorial step with two tips instead of three, and an empty title", async () => {
    const step = byId("tutorial-step-1");
    step.tips.pop();
    step.title = "  ";
    expect(appAccepts(step)).toBe(false);
    expect((await studioErrors(step)).sort()).toEqual(["tips: Must have exactly 3", "title: Required"]);
  });

  it("site settings with a support address that is not an e-mail and an http booking link", async () => {
    const settings = byId("siteSettings");
    settings.supportEmail = "support at glowcoach";
    settings.bookingUrl = "http://cal.com/glowcoach";
    expect(appAccepts(settings)).toBe(false);
    expect((await studioErrors(settings)).map((e) => e.split(":")[0]).sort()).toEqual(["bookingUrl", "supportEmail"]);
  });

  it("a draft is checked under its published id (singletons have fixed ids)", async () => {
    const settings = { ...byId("siteSettings"), _id: "drafts.siteSettings" };
    expect(await studioErrors(settings)).toEqual([]);
  });

  it("an offer whose struck-through price is not above the price, or whose section names a missing plan", async () => {
    const offer = {
      _id: "offer-test",
      _type: "offer",
      offerId: "skincare",
      path: "/skin-offer",
      pageTitle: "Your Clear Skin Plan",
      description: "Unlock your plan.",
      routinePlan: { _type: "reference", _ref: "clear-healthy-skin" },
      plans: [
        {
          _key: "annual",
          id: "annual",
          tier: "annual",
          name: "Annual Plan",
          priceMinor: 5900,
          compareAtMinor: 9900,
          priceSuffix: "/year",
          buttonLabel: "Unlock - {price}/year",
          refundDays: 30,
        },
        {
          _key: "monthly",
          id: "monthly",
          tier: "monthly",
          name: "Monthly Plan",
          priceMinor: 999,
          priceSuffix: "/month",
          buttonLabel: "Continue",
          refundDays: 7,
        },
      ],
      sections: [
        { _key: "p", _type: "plans", title: "Choose your plan", planIds: ["annual", "monthly"] },
        { _key: "f", _type: "faq", title: "Questions", items: [{ _key: "q", question: "Can I cancel?", answer: "Anytime." }] },
      ],
    };
    expect(await studioErrors(offer)).toEqual([]);
    offer.plans[0].compareAtMinor = 5900;
    offer.sections[0].planIds = ["annual", "lifetime"];
    // Small print quoting another refund period than the plan's window (ADR 33).
    Object.assign(offer.plans[0], { finePrint: "60-day money-back guarantee" });
    // The app's offer schema, in marketers' words (order: the app's).
    expect((await studioErrors(offer)).sort()).toEqual([
      "plans.[annual].compareAtMinor: The struck-through price must be more than the price ($59)",
      "plans.[annual].finePrint: promises a 60-day refund, but the plan's refund window is 30 days",
      'sections.[p]: No plan has the id "lifetime"',
    ]);
    const preview = studioSchema.get("offerPlan")!.preview!;
    expect(preview.prepare!({ title: "Annual Plan", price: 5900, was: 9900, suffix: "/year", badge: "Most Popular" })).toEqual({
      title: "Annual Plan",
      subtitle: "$59/year (was $99) · Most Popular",
    });
  });
  it("an offer page or a quiz at an address that is a page of the app, or already another offer's or quiz's", async () => {
    const offer = byId("offer-skincare-paywall");
    expect(await studioErrors(offer)).toEqual([]);
    offer.path = "/login";
    expect(appAccepts(offer)).toBe(false);
    expect(await studioErrors(offer)).toEqual(['path: "/login" is a page of the app: choose another address']);
    offer.path = "/quiz";
    expect(appAccepts(offer)).toBe(true); // the app's schema sees one document; the Studio (and funnels:check) see the others
    expect(await studioErrors(offer)).toEqual(['path: "/quiz" is already the address of the quiz "Skin quiz"']);
    const { _id: _ignored, ...copy } = byId("offer-skincare-paywall");
    expect(await studioErrors({ ...copy, _id: "drafts.offer-new" })).toEqual([
      'path: "/subscribe" is already the address of the offer page "Your Clear Skin Plan"',
    ]);
    // Its own draft is not "another" page.
    expect(await studioErrors({ ...byId("offer-skincare-paywall"), _id: "drafts.offer-skincare-paywall" })).toEqual([]);

    const quiz = byId("funnel-crease-crisis");
    quiz.route = "/admin";
    expect(appAccepts(quiz)).toBe(false);
    expect(await studioErrors(quiz)).toContain('route: "/admin" is a page of the app: choose another address');
    quiz.route = "/sales";
    expect(await studioErrors(quiz)).toEqual(['route: "/sales" is already the address of the offer page "Your Crease-Free Makeup Routine"']);
  });
});
