import { describe, expect, it } from "vitest";
import { Insight, LandingPage, SiteSettings } from "~/content-model/content-types";
import { embeddedDataset, loadFunnel } from "./helpers";

describe("embedded content dataset", () => {
  const docs = embeddedDataset();

  it("has unique, public document ids (no dots: Sanity keeps dotted ids private)", () => {
    const ids = docs.map((d) => d._id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it("has valid site settings and landing page", () => {
    expect(SiteSettings.safeParse(docs.find((d) => d._id === "siteSettings")).success).toBe(true);
    expect(LandingPage.safeParse(docs.find((d) => d._id === "page-landing")).success).toBe(true);
  });

  it("has a valid document for every insight the skin quiz can show", () => {
    const result = loadFunnel("skin").steps.find((s) => s.type === "result")!;
    if (result.type !== "result") throw new Error("no result step");
    const refs = [...result.pick.rules.map((r) => r.insight._ref), result.pick.otherwise._ref];
    for (const ref of refs) {
      const doc = docs.find((d) => d._id === ref);
      const parsed = Insight.safeParse(doc);
      expect(parsed.success, `${ref}: ${parsed.error?.message}`).toBe(true);
    }
  });
});
