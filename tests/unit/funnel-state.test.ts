import { afterEach, describe, expect, it, vi } from "vitest";
import { answerFunnelStep, nextStepOf, stepToAnswer } from "~/funnels/flow.server";
import { readFunnelState, writeFunnelState } from "~/funnels/state.server";
import { withSetCookies } from "~/utils/cookies.server";
import { isGo, isRefusal } from "~/utils/outcome";
import { logger } from "~/utils/logger.server";
import { loadFunnel } from "./helpers";

const skin = loadFunnel("skin");

function cookiePair(setCookie: string) {
  return setCookie.split(";")[0];
}

describe("answers cookie", () => {
  afterEach(() => vi.restoreAllMocks());

  it("round-trips the answers, signed and HttpOnly", async () => {
    const setCookie = await writeFunnelState(skin, { answers: { skinType: "dry", mainConcern: ["acne"] } });
    expect(setCookie).toMatch(/^gc_funnel_skin=/);
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("SameSite=Lax");
    const state = await readFunnelState(cookiePair(setCookie), skin);
    expect(state.answers).toEqual({ skinType: "dry", mainConcern: ["acne"] });
  });

  it("treats a tampered cookie as no answers, and logs it", async () => {
    const warn = vi.spyOn(logger, "warn").mockImplementation(() => {});
    const [name, value] = cookiePair(await writeFunnelState(skin, { answers: { skinType: "dry" } })).split("=");
    const forged = Buffer.from(JSON.stringify({ answers: { skinType: "oily" } })).toString("base64");
    const tampered = `${name}=${encodeURIComponent(forged)}.${value.split(".")[1]}`;
    expect((await readFunnelState(tampered, skin)).answers).toEqual({});
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('tampered answers cookie for "skin"'));
  });

  it("treats answers without a signature as no answers (the cookie is signed, never plain)", async () => {
    vi.spyOn(logger, "warn").mockImplementation(() => {});
    const forged = Buffer.from(JSON.stringify({ answers: { skinType: "oily" } })).toString("base64");
    expect((await readFunnelState(`gc_funnel_skin=${encodeURIComponent(forged)}`, skin)).answers).toEqual({});
  });

  it("treats garbage as no answers", async () => {
    vi.spyOn(logger, "warn").mockImplementation(() => {});
    for (const junk of ["gc_funnel_skin=", "gc_funnel_skin=%%%", "gc_funnel_skin=abc.def", "gc_funnel_skin=\u00ff"]) {
      expect((await readFunnelState(junk, skin)).answers).toEqual({});
    }
  });

  it("drops answers to questions the funnel no longer has", async () => {
    const setCookie = await writeFunnelState(skin, { answers: { skinType: "dry", retired: "x", urgency: "someday" } });
    expect((await readFunnelState(cookiePair(setCookie), skin)).answers).toEqual({ skinType: "dry" });
  });
});

describe("the next step handed over with an answer", () => {
  it("reads the cookies the answer sets as the browser will send them", () => {
    expect(withSetCookies("gc_vid=v1; gc_funnel_skin=old", ["gc_funnel_skin=new; Path=/; HttpOnly", "gc_toast=hi; Path=/"])).toBe(
      "gc_vid=v1; gc_funnel_skin=new; gc_toast=hi",
    );
    expect(withSetCookies(null, ["a=1; Path=/"])).toBe("a=1");
    expect(withSetCookies("a=1; b=2", ["a=; Max-Age=0; Path=/"])).toBe("b=2");
    expect(withSetCookies("a=1", [])).toBe("a=1");
  });

  it("is the step the answer leads to, opened with the answers just given", async () => {
    const at = await stepToAnswer({ cookieHeader: null, route: "/quiz", stepParam: "1", version: { funnel: skin, variant: null } });
    if (!at || isGo(at)) throw new Error("step 1 should be answerable");
    const answered = await answerFunnelStep(at, { skinType: "oily" });
    if (isRefusal(answered)) throw new Error(answered.message);
    const next = await nextStepOf(skin, answered, null, { funnel: skin, variant: null });
    expect(next?.view.step.id).toBe("2");
    expect(next?.view.backHref).toBe("/quiz/1");
    // Going back to step 1 would show the answer just saved.
    const back = await nextStepOf(skin, { go: "/quiz/1", cookies: answered.cookies }, null, { funnel: skin, variant: null });
    expect(back?.view.answers).toEqual({ skinType: "oily" });
  });

  it("is nothing when the answer leads out of the funnel or to a step the visitor may not open", async () => {
    expect(await nextStepOf(skin, { go: "/subscribe", cookies: [] }, null, { funnel: skin, variant: null })).toBeNull();
    expect(await nextStepOf(skin, { go: "/quiz/2?x=1", cookies: [] }, null, { funnel: skin, variant: null })).toBeNull();
    // Step 5 without the earlier answers sends the visitor back: not a page to hand over.
    expect(await nextStepOf(skin, { go: "/quiz/5", cookies: [] }, null, { funnel: skin, variant: null })).toBeNull();
  });
});
