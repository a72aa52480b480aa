/**
 * "Step N of M" and the progress bar come from the funnel's graph (issue 27 item 5, ADR 34):
 * a question added to a quiz moves every later label without anyone retyping them; a label
 * content sets still wins (the seed's exact texts); funnels:check and the Studio warn where a
 * typed label or percentage disagrees with the computed one.
 */
import { evaluate, parse } from "groq-js";
import { describe, expect, it } from "vitest";
import { toSanityDocument } from "~/content/sanity-format";
import { stepChrome, stepPositions } from "~/funnels/engine";
import { labelProblems, lintFunnels } from "~/funnels/lint";
import { resolveFunnel } from "~/content/funnel-resolve";
import type { Funnel } from "~/content-model/funnel";
import { validateWithStudio, type StudioMarker } from "../../studio/validate";
import { embeddedDataset, funnelDocument, loadFunnel, sharedQuestions } from "./helpers";

function resolved(doc: unknown): Funnel {
  const result = resolveFunnel(doc, sharedQuestions());
  if (!result.ok) throw new Error(result.problems.join("\n"));
  return result.funnel;
}

/** The skin quiz with a new question after step 3, and (unless `keepTyped`) no typed labels or progress. */
type FunnelDoc = { _id: string; _type: string; [key: string]: any };

function skinWithExtraQuestion({ keepTyped }: { keepTyped: boolean }): FunnelDoc {
  const doc = funnelDocument("skin") as FunnelDoc;
  const at = doc.steps.findIndex((s: any) => s.id === "3");
  const extra = structuredClone(doc.steps[at]);
  extra.id = "3b";
  extra.questions = [
    {
      field: "makeupDaily",
      select: "one",
      options: [
        { value: "yes", label: "Yes" },
        { value: "no", label: "No" },
      ],
    },
  ];
  extra.next = doc.steps[at].next;
  doc.steps[at].next = [{ to: { step: "3b" } }];
  doc.steps.splice(at + 1, 0, extra);
  // The new question itself carries no typed label: it is the one a marketer just added.
  for (const step of keepTyped ? [extra] : doc.steps) {
    delete step.label;
    delete step.progress;
  }
  return doc;
}

const question = (id: string, next: unknown[]) => ({
  id,
  type: "question",
  title: `${id}?`,
  questions: [
    {
      field: id,
      select: "one",
      options: [
        { value: "x", label: "X" },
        { value: "y", label: "Y" },
      ],
    },
  ],
  continueLabel: "Continue",
  next,
});

describe("positions from the graph", () => {
  it("the seed's typed labels and percentages are exactly what the engine works out, in every funnel", () => {
    const funnels = embeddedDataset().filter((d) => d._type === "funnel");
    let compared = 0;
    for (const doc of funnels) {
      const funnel = resolved(doc);
      const positions = stepPositions(funnel);
      for (const step of funnel.steps) {
        const computed = positions.get(step.id);
        if (!computed) continue;
        const stated = /(\d+) of (\d+)/.exec(step.label ?? "");
        if (stated) expect([Number(stated[1]), Number(stated[2])], `${funnel.id} ${step.id}`).toEqual([computed.position, computed.total]);
        if (step.progress !== undefined) expect(computed.progress, `${funnel.id} ${step.id}`).toBe(step.progress);
        compared++;
      }
      // Content's own words stay on screen ("Final Question", "1 of 3").
      for (const step of funnel.steps) if (step.label) expect(stepChrome(funnel, step).label).toBe(step.label);
      expect(labelProblems(funnel), funnel.id).toEqual([]);
    }
    expect(compared).toBeGreaterThanOrEqual(40);
  });

  it("a quiz with a loop back counts each question once: the cakey quiz's step 6 is 'Step 5 of 7'", () => {
    const positions = stepPositions(loadFunnel("cakey-makeup"));
    expect(positions.get("6")).toEqual({ position: 5, total: 7, progress: 71.4 });
    expect(positions.get("5")).toBeUndefined(); // the insight step is no question
  });

  it("a question added without labels shows 'Step 4 of 13' and its bar, and every later step moves on by one", () => {
    const funnel = resolved(skinWithExtraQuestion({ keepTyped: false }));
    const chrome = (id: string) =>
      stepChrome(
        funnel,
        funnel.steps.find((s) => s.id === id)!,
      );
    expect(chrome("1")).toEqual({ label: "Step 1 of 13", progress: 7.7 });
    expect(chrome("3b")).toEqual({ label: "Step 4 of 13", progress: 30.8 });
    expect(chrome("4")).toEqual({ label: "Step 5 of 13", progress: 38.5 });
    expect(chrome("12")).toEqual({ label: "Step 13 of 13", progress: 100 });
    // Steps that are not questions show only what content gives them.
    expect(chrome("13")).toEqual({});
    expect(chrome("0")).toEqual({});
  });

  it("the step's page gets the computed label and bar (what the quiz shows), and the seed's page its typed ones", async () => {
    const { planFunnelStep } = await import("~/funnels/flow.server");
    const funnel = resolved(skinWithExtraQuestion({ keepTyped: false }));
    const planned = await planFunnelStep({ cookieHeader: null, route: "/quiz", stepParam: "1", version: { funnel, variant: null } });
    expect(planned.kind === "view" && [planned.view.step.label, planned.view.step.progress]).toEqual(["Step 1 of 13", 7.7]);
    const seed = await planFunnelStep({ cookieHeader: null, route: "/quiz", stepParam: "1" });
    expect(seed.kind === "view" && [seed.view.step.label, seed.view.step.progress]).toEqual(["Step 1 of 12", 8.3]);
    // Not a question: no counter.
    const intro = await planFunnelStep({ cookieHeader: null, route: "/quiz", stepParam: "0", version: { funnel, variant: null } });
    expect(intro.kind === "view" && "label" in intro.view.step).toBe(false);
  });

  it("a branch that skips questions jumps ahead and still ends at 100%", () => {
    const funnel = resolved({
      id: "branchy",
      route: "/branchy",
      title: "Branchy",
      pageTitle: "Branchy",
      steps: [
        question("a", [{ when: [{ field: "a", anyOf: ["y"] }], to: { step: "d" } }, { to: { step: "b" } }]),
        question("b", [{ to: { step: "c" } }]),
        question("c", [{ to: { step: "d" } }]),
        question("d", [{ to: { href: "/subscribe" } }]),
      ],
    });
    expect(funnel.steps.map((s) => stepChrome(funnel, s))).toEqual([
      { label: "Step 1 of 4", progress: 25 },
      { label: "Step 2 of 4", progress: 50 },
      { label: "Step 3 of 4", progress: 75 },
      { label: "Step 4 of 4", progress: 100 },
    ]);
  });

  it("a quiz of one question shows no 'Step 1 of 1'", () => {
    const funnel = loadFunnel("app-goal");
    expect(stepChrome(funnel, funnel.steps[0])).toEqual({});
  });
});

describe("typed labels that disagree are flagged", () => {
  it("funnels:check warns on each stale label and percentage, naming the computed one, and does not fail", () => {
    const doc = skinWithExtraQuestion({ keepTyped: true });
    const lint = lintFunnels({ files: [{ file: "skin.json", doc }], dataset: embeddedDataset(), appRoutes: [] });
    expect(lint.errors).toEqual([]);
    expect(lint.warnings).toContain(
      'skin.json: 4: label: "Step 4 of 12" disagrees with the step\'s place in the quiz: it is Step 5 of 13. Clear the label to show the computed one.',
    );
    expect(lint.warnings).toContain(
      "skin.json: 4: progress: 33.3% disagrees with the step's place in the quiz (Step 5 of 13): it is 38.5%. Clear it to show the computed one.",
    );
    // Every typed label says "of 12" (12 warnings); every typed percentage but the last 100% is off (11).
    expect(lint.warnings.filter((w) => w.startsWith("skin.json:"))).toHaveLength(23);
  });

  it("the Studio marks the stale label and percentage as warnings on their fields, and lets the quiz be published", async () => {
    const doc = toSanityDocument(skinWithExtraQuestion({ keepTyped: true })) as Record<string, any>;
    const step4 = doc.steps.find((s: any) => s.id === "4");
    const shared = embeddedDataset().filter((d) => d._type === "question");
    const fetch = async (query: string, params: Record<string, unknown> = {}) => (await evaluate(parse(query, { params }), { dataset: shared, params })).get();
    const markers: StudioMarker[] = await validateWithStudio(doc, fetch);
    expect(markers.filter((m) => m.level === "error")).toEqual([]);
    const onStep4 = markers.filter((m) => typeof m.path[1] === "object" && m.path[1]._key === step4._key);
    expect(onStep4.map((m) => [m.level, m.path.slice(2), m.message])).toEqual([
      ["warning", ["label"], '"Step 4 of 12" disagrees with the step\'s place in the quiz: it is Step 5 of 13. Clear the label to show the computed one.'],
      ["warning", ["progress"], "33.3% disagrees with the step's place in the quiz (Step 5 of 13): it is 38.5%. Clear it to show the computed one."],
    ]);
    // The seed's quiz, as it is: nothing to flag.
    expect(await validateWithStudio(toSanityDocument(funnelDocument("skin") as FunnelDoc), fetch)).toEqual([]);
  });
});
