/**
 * Addresses of content pages (offer pages, quizzes): never one of the app's own pages (the
 * reserved list stays in step with app/routes), never another content page's, and a link to
 * an offer page counts as a link to a page (funnels:check).
 */
import { describe, expect, it } from "vitest";
import { lintContent } from "~/content-checks/content-lint";
import { RESERVED_SEGMENTS, reservedPathProblem } from "~/content-model/reserved-paths";
import { readAppRoutes } from "~/funnels/app-routes.server";
import { lintFunnels } from "~/funnels/lint";
import { Offer } from "~/content-model/offer";
import { embeddedDataset, funnelDocument, loadFunnel } from "./helpers";

describe("reserved addresses", () => {
  it("every page of the app is reserved (a new route must be added to app/content-model/reserved-paths.ts)", () => {
    const first = readAppRoutes()
      .flatMap((pattern) => (pattern.includes("${n}") ? [1, 2, 3, 4, 5, 6].map((n) => pattern.replace("${n}", String(n))) : [pattern]))
      .map((pattern) => pattern.split("/")[1])
      .filter((segment) => segment && !segment.startsWith(":"));
    expect(first.length).toBeGreaterThan(20);
    expect(first.filter((segment) => !RESERVED_SEGMENTS.has(segment))).toEqual([]);
  });

  it("the offer pages and quizzes the app ships are not at reserved addresses; the app's own pages are refused", () => {
    for (const doc of embeddedDataset().filter((d) => d._type === "offer" || d._type === "funnel")) {
      expect(reservedPathProblem(String(doc.path ?? doc.route)), doc._id).toBeNull();
    }
    expect(reservedPathProblem("/login")).toBe('"/login" is a page of the app: choose another address');
    expect(reservedPathProblem("/glow-offer")).toBeNull();
    const offer = { ...embeddedDataset().find((d) => d._id === "offer-skincare-paywall")!, path: "/home" };
    const result = Offer.safeParse(offer);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`)).toEqual(['path: "/home" is a page of the app: choose another address']);
  });
});

describe("funnels:check and content addresses", () => {
  const funnels = new Map(["skin", "makeup", "cakey-makeup", "crease-crisis"].map((id) => [`funnel-${id}`, loadFunnel(id)]));

  it("refuses an offer page at a quiz's address or at another offer's", () => {
    const dataset = structuredClone(embeddedDataset());
    expect(lintContent(dataset, funnels).errors).toEqual([]);
    const sales = dataset.find((d) => d._id === "offer-crease-free")!;
    const copy = { ...structuredClone(sales), _id: "offer-copy", offerId: "copy", path: "/subscribe" };
    sales.path = "/quiz";
    const errors = lintContent([...dataset, copy], funnels).errors;
    expect(errors).toContain('content: offer "offer-crease-free": path: "/quiz" is the address of the quiz "skin"');
    expect(errors).toHaveLength(2);
    expect(errors).toContain('content: offer "offer-copy": path: "/subscribe" is already the address of the offer "offer-skincare-paywall"');
  });

  it("a quiz's result may lead to any offer page, a new one included, and only to pages that exist", () => {
    const skin = funnelDocument("skin");
    const result = (skin.steps as { id: string; type: string; cta?: { href: string } }[]).find((s) => s.type === "result")!;
    result.cta!.href = "/glow-offer";
    const offer = {
      ...structuredClone(embeddedDataset().find((d) => d._id === "offer-skincare-paywall")!),
      _id: "offer-glow",
      offerId: "glow",
      path: "/glow-offer",
    };
    const lint = (dataset: ReturnType<typeof embeddedDataset>) =>
      lintFunnels({ files: [{ file: "funnels/skin.json", doc: skin }], dataset, appRoutes: readAppRoutes() }).errors;
    expect(lint([...embeddedDataset(), offer])).toEqual([]);
    expect(lint(embeddedDataset())).toEqual([`funnels/skin.json: ${(result as { id?: string }).id}: cta.href "/glow-offer" is not a page of the app`]);
  });
});
