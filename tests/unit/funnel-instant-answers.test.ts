/**
 * What the browser works out by itself after an answer (ADR 43): the same view the server
 * builds, and nothing when it cannot know (answers it does not have, steps that need documents).
 */
import { describe, expect, it } from "vitest";
import { repeatableEventId } from "~/analytics/events.server";
import { answerFunnelStep, browserShowsNext, clientPlanOf, planFunnelStep, stepToAnswer } from "~/funnels/flow.server";
import { writeFunnelState } from "~/funnels/state.server";
import { answersAfter, nextPlainStep } from "~/funnels/step-view";
import { loadFunnel } from "./helpers";

describe("the next step, worked out in the browser", () => {
  it("is the view the server shows for the same answers", async () => {
    const funnel = await loadFunnel("skin");
    const plan = clientPlanOf(funnel);
    const after = { skinType: "dry" };
    const next = nextPlainStep(plan, "1", {}, after);
    expect(next?.to).toBe("/quiz/2");
    const cookie = (await writeFunnelState(funnel, { answers: after })).split(";")[0];
    const server = await planFunnelStep({ cookieHeader: cookie, route: "/quiz", stepParam: "2", version: { funnel } as never });
    expect(server.kind === "view" && server.view).toEqual(next?.page);
    expect(next?.page.step).toMatchObject({ label: "Step 2 of 12", progress: 16.7 });
  });

  it("after the intro's start: the first question as the server shows it, answers cleared when the intro starts afresh", async () => {
    const funnel = await loadFunnel("skin");
    const plan = clientPlanOf(funnel);
    const intro = plan.steps[0]!;
    const before = { skinType: "oily" };
    const after = answersAfter(intro, before, {});
    expect(after).toEqual({});
    const next = nextPlainStep(plan, intro.id, before, after);
    expect(next?.to).toBe("/quiz/1");
    const server = await planFunnelStep({ cookieHeader: null, route: "/quiz", stepParam: "1", version: { funnel } as never });
    expect(server.kind === "view" && server.view).toEqual(next?.page);
    // The intro's own page carries the plan the browser works this out from.
    const opened = await planFunnelStep({ cookieHeader: null, route: "/quiz", version: { funnel } as never });
    expect(opened.kind === "view" && opened.view.plan).toEqual(plan);
    // An intro that keeps the answers, and a question, add to what the tab knows.
    expect(answersAfter({ type: "intro", resetAnswers: false }, before, {})).toEqual(before);
    expect(answersAfter({ type: "question" }, before, { mainConcern: ["acne"] })).toEqual({ skinType: "oily", mainConcern: ["acne"] });
  });

  it("the server knows when the tab already shows the answer's next step (and then sends only where the funnel goes)", async () => {
    const funnel = await loadFunnel("skin");
    const at = await stepToAnswer({ cookieHeader: null, route: "/quiz", stepParam: "1", version: { funnel } as never });
    if (!at || !("step" in at)) throw new Error("step 1 should be answerable");
    const answered = await answerFunnelStep(at, { skinType: "dry" });
    if (!("go" in answered)) throw new Error("the answer should be taken");
    expect(answered.go).toBe("/quiz/2");
    expect(browserShowsNext(at, { skinType: "dry" }, answered)).toBe(true);
    // Where the server sends the visitor is not where the tab went: the tab needs the page.
    expect(browserShowsNext(at, { skinType: "dry" }, { ...answered, go: "/quiz/5" })).toBe(false);
  });

  it("waits for the server when the tab lacks earlier answers the branches may read", async () => {
    const plan = clientPlanOf(await loadFunnel("skin"));
    expect(nextPlainStep(plan, "5", {}, { dailyImpact: "photos" })).toBeNull();
  });
});

describe("events of a request sent again", () => {
  it("get the same id for the same visitor, key, event and step, and a different one otherwise", () => {
    const id = repeatableEventId("v1", "abc-1", { name: "step_answered", step: "3" });
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(repeatableEventId("v1", "abc-1", { name: "step_answered", step: "3" })).toBe(id);
    expect(repeatableEventId("v2", "abc-1", { name: "step_answered", step: "3" })).not.toBe(id);
    expect(repeatableEventId("v1", "abc-2", { name: "step_answered", step: "3" })).not.toBe(id);
  });
});
