import { describe, expect, it } from "vitest";
import { safeRedirect } from "~/auth/redirect";
import { REDIRECT_ATTACKS } from "./redirect-corpus";

const ORIGIN = "https://glowcoach.app";

describe("one function decides every redirect target", () => {
  it.each(REDIRECT_ATTACKS.map((value) => [value]))("%j falls back to the default", (value) => {
    expect(safeRedirect(value)).toBe("/home");
    expect(safeRedirect(value, "/")).toBe("/");
  });

  it("answers only paths a browser resolves to our own origin", () => {
    for (const value of REDIRECT_ATTACKS) {
      const target = safeRedirect(value);
      expect(new URL(target, ORIGIN).origin, value).toBe(ORIGIN);
      expect(target, value).toMatch(/^\/(?![/\\])/);
    }
  });

  it("keeps ordinary paths, normalised", () => {
    expect(safeRedirect("/plan/abc?step=2#top")).toBe("/plan/abc?step=2#top");
    expect(safeRedirect("/quiz/./3")).toBe("/quiz/3");
    expect(safeRedirect("/a/../profile")).toBe("/profile");
    expect(safeRedirect("/login?redirectTo=%2Fhome")).toBe("/login?redirectTo=%2Fhome");
  });
});
