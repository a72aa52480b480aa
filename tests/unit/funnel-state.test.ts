import { afterEach, describe, expect, it, vi } from "vitest";
import { readFunnelState, writeFunnelState } from "~/funnels/state.server";
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
