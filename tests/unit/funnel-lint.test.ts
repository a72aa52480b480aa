/**
 * The funnel linter: each check fires on a broken copy of the skin quiz, with the exact
 * `file: step id: problem` line, and the real funnels pass.
 */
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { declaredRoutePatterns, readAppRoutes, routePattern } from "~/funnels/app-routes.server";
import { lintFunnels, type FunnelFile, type LintInput } from "~/funnels/lint";
import { embeddedDataset, funnelDocument } from "./helpers";

type Doc = Record<string, any>;

const SKIN = "funnels/skin.json";

function skin(edit: (doc: Doc) => void = () => {}): FunnelFile {
  const doc = funnelDocument("skin");
  edit(doc);
  return { file: SKIN, doc };
}

function lint(files: FunnelFile[], input: Partial<LintInput> = {}) {
  return lintFunnels({
    files,
    dataset: embeddedDataset(),
    appRoutes: ["/", "/app", "/plan/:id"],
    pendingRoutes: { "/shop": "the shop: not built yet" },
    ...input,
  });
}

const errorsAfter = (edit: (doc: Doc) => void) => lint([skin(edit)]).errors;

/** A step the tests add to the skin quiz; the schema needs nothing more. */
function analysing(id: string, to: string): Doc {
  return { id, type: "analysing", title: "Thinking", messages: ["Hmm"], durationMs: 0, next: [{ to: { step: to } }] };
}

/** Step 12 (the last question) goes to `to` for one answer, else on to analysing as before. */
function branchFromLastQuestion(doc: Doc, to: string) {
  doc.steps[12].next = [{ when: [{ field: "motivation", anyOf: ["photos"] }], to: { step: to } }, { to: { step: "13" } }];
}

describe("funnel linter", () => {
  it("passes the skin quiz as it is", () => {
    // Its result leads to /subscribe, an offer page of the dataset.
    expect(lint([skin()])).toEqual({ errors: [], warnings: [] });
  });

  it("names schema problems by step id, and skips the other checks for that file", () => {
    const errors = errorsAfter((d) => {
      d.steps[3].id = "duration";
      d.steps[2].next = [{ to: { step: "duration" } }];
      // Steps 4 to 14 become unreachable, which only the skipped graph check would say.
      d.steps[3].next = [{ to: { step: "99" } }];
    });
    expect(errors).toEqual(['funnels/skin.json: duration: next.0.to.step: no step "99"']);
  });

  it("names problems outside any step (funnel)", () => {
    expect(errorsAfter((d) => (d.route = "quiz"))).toEqual(["funnels/skin.json: (funnel): route: must be one path segment such as /quiz"]);
  });

  it("reports duplicate funnel ids and routes, and a route an app page already has", () => {
    const copy = { file: "funnels/skin-copy.json", doc: funnelDocument("skin") };
    const onApp = { file: "funnels/on-app.json", doc: { ...funnelDocument("skin"), id: "on-app", route: "/app" } };
    expect(lint([skin(), copy, onApp]).errors).toEqual([
      'funnels/on-app.json: (funnel): route: "/app" is a page of the app: choose another address',
      'funnels/skin-copy.json: (funnel): id "skin" is already used by funnels/skin.json',
      'funnels/skin-copy.json: (funnel): route "/quiz" is already used by funnels/skin.json',
    ]);
    // A page of the app the reserved list does not know yet (a new route) is still caught.
    const onNew = { file: "funnels/on-new.json", doc: { ...funnelDocument("skin"), id: "on-new", route: "/brand-new" } };
    expect(lint([onNew], { appRoutes: ["/brand-new"] }).errors).toEqual(['funnels/on-new.json: (funnel): route "/brand-new" is already a page of the app']);
  });

  it("reports a step no branch leads to", () => {
    expect(errorsAfter((d) => (d.steps[5].next = [{ to: { step: "7" } }]))).toEqual([
      'funnels/skin.json: 6: unreachable: no branch leads here from the first step "0"',
    ]);
  });

  it("reports a loop with no way out", () => {
    const errors = errorsAfter((d) => {
      branchFromLastQuestion(d, "loop-a");
      d.steps.push(analysing("loop-a", "loop-b"), analysing("loop-b", "loop-a"));
    });
    expect(errors).toEqual([
      "funnels/skin.json: loop-a: no exit can be reached from here: every way on stays in the funnel without reaching a result or a link out",
      "funnels/skin.json: loop-b: no exit can be reached from here: every way on stays in the funnel without reaching a result or a link out",
    ]);
  });

  it("reports a dead end: a step that only leads back to itself", () => {
    const errors = errorsAfter((d) => {
      branchFromLastQuestion(d, "stuck");
      d.steps.push(analysing("stuck", "stuck"));
    });
    expect(errors).toEqual([
      "funnels/skin.json: stuck: no exit can be reached from here: every way on stays in the funnel without reaching a result or a link out",
    ]);
  });

  it("accepts a loop that has a way out", () => {
    expect(
      errorsAfter((d) => (d.steps[13].next = [{ when: [{ field: "motivation", anyOf: ["photos"] }], to: { step: "12" } }, { to: { step: "email" } }])),
    ).toEqual([]);
  });

  describe("result rules", () => {
    it("reports a rule whose conditions contradict", () => {
      const errors = errorsAfter((d) => {
        d.steps[14].pick.rules[0].when.push({ field: "mainConcern", answered: false });
        d.steps[14].pick.rules[4].when.push({ field: "skinType", anyOf: ["oily"] });
      });
      expect(errors).toEqual([
        'funnels/skin.json: 14: pick.rules.0 can never match: "mainConcern" cannot be unanswered and one of "acne" at once',
        'funnels/skin.json: 14: pick.rules.4 can never match: "skinType" has a single answer, which cannot be one of "dry" and one of "oily"',
      ]);
    });

    it("accepts two lists on a multi-choice field: one chosen value can come from each", () => {
      expect(errorsAfter((d) => d.steps[14].pick.rules[0].when.push({ field: "mainConcern", anyOf: ["redness"] }))).toEqual([]);
    });

    it("reports rules an earlier rule always wins over", () => {
      const errors = errorsAfter((d) => {
        const rules = d.steps[14].pick.rules;
        rules[0].when[0].anyOf = ["acne", "redness"];
        rules.splice(2, 0, {
          when: [
            { field: "skinType", anyOf: ["dry"] },
            { field: "mainConcern", anyOf: ["acne"] },
          ],
          insight: { _ref: "insight-skin-dry" },
        });
      });
      expect(errors).toEqual([
        "funnels/skin.json: 14: pick.rules.1 is never used: whenever it matches, pick.rules.0 matches first",
        "funnels/skin.json: 14: pick.rules.2 is never used: whenever it matches, pick.rules.0 matches first",
      ]);
    });

    it("counts an answered condition as implied by any condition that needs an answer", () => {
      const errors = errorsAfter((d) => (d.steps[14].pick.rules[0].when = [{ field: "mainConcern", answered: true }]));
      expect(errors).toEqual([1, 2, 3].map((i) => `funnels/skin.json: 14: pick.rules.${i} is never used: whenever it matches, pick.rules.0 matches first`));
    });

    it("reports options that do not exist, in rules and in branches", () => {
      const errors = errorsAfter((d) => {
        d.steps[14].pick.rules[0].when[0].anyOf = ["spots"];
        d.steps[1].next = [{ when: [{ field: "skinType", anyOf: ["greasy"] }], to: { step: "2" } }, { to: { step: "2" } }];
      });
      expect(errors).toEqual([
        'funnels/skin.json: 1: next.0.when.0.anyOf.0: "skinType" has no option "greasy"',
        'funnels/skin.json: 14: pick.rules.0.when.0.anyOf.0: "mainConcern" has no option "spots"',
      ]);
    });
  });

  describe("links", () => {
    it("reports a link to no page as an error, and one to a pending page as a warning", () => {
      const result = lint([
        skin((d) => {
          d.steps[14].cta.href = "/nowhere";
          d.steps[13].next = [{ when: [{ field: "motivation", anyOf: ["photos"] }], to: { href: "/shop?from=quiz" } }, { to: { step: "email" } }];
        }),
      ]);
      expect(result).toEqual({
        errors: ['funnels/skin.json: 14: cta.href "/nowhere" is not a page of the app'],
        warnings: ['funnels/skin.json: 13: next.0.to.href "/shop?from=quiz" is a page that is not built yet (the shop: not built yet)'],
      });
    });

    it("matches route patterns and funnel pages, ignoring queries", () => {
      const linkTo = (href: string) => lint([skin((d) => (d.steps[14].cta.href = href))], { appRoutes: ["/app", "/plan/:id", "/shop/:item?"] }).errors;
      for (const href of ["/app?x=1", "/plan/7?from=quiz", "/shop", "/shop/mask", "/quiz", "/quiz/3"]) expect(linkTo(href), href).toEqual([]);
      for (const href of ["/", "/plan", "/plan/7/edit", "/quiz/99"]) expect(linkTo(href), href).toHaveLength(1);
    });
  });

  describe("content documents", () => {
    it("reports a missing insight document", () => {
      const errors = errorsAfter((d) => {
        d.steps[14].pick.rules[1].insight._ref = "insight-skin-nope";
        d.steps[14].pick.otherwise._ref = "insight-nope";
      });
      expect(errors).toEqual([
        'funnels/skin.json: 14: pick.rules.1.insight: no content document "insight-skin-nope"',
        'funnels/skin.json: 14: pick.otherwise: no content document "insight-nope"',
      ]);
    });

    it("reports a document of the wrong type, for picks and for shared questions (once)", () => {
      expect(errorsAfter((d) => (d.steps[14].pick.otherwise._ref = "siteSettings"))).toEqual([
        'funnels/skin.json: 14: pick.otherwise: "siteSettings" is a document of _type "siteSettings", not "insight"',
      ]);
      expect(errorsAfter((d) => (d.steps[6].questions = [{ _ref: "insight-skin-acne" }]))).toEqual([
        'funnels/skin.json: 6: questions.0._ref: "insight-skin-acne" is a document of _type "insight", not "question"',
      ]);
    });
  });

  describe("summaries of another funnel", () => {
    function recap(answersFrom: string): FunnelFile {
      const step = {
        id: "summary",
        type: "summary",
        title: "What we learned",
        answersFrom,
        cards: [
          { field: "skinType", title: "Skin type" },
          { field: "hairType", title: "Hair type" },
        ],
        continueLabel: "Continue",
        next: [{ to: { href: "/quiz" } }],
      };
      return { file: "funnels/recap.json", doc: { id: "recap", title: "Recap", route: "/recap", pageTitle: "Recap", steps: [step] } };
    }

    it("reports a card for a field the source funnel does not ask", () => {
      expect(lint([skin(), recap("skin")]).errors).toEqual(['funnels/recap.json: summary: cards.1.field: funnel "skin" does not ask "hairType"']);
    });

    it("reports a source funnel that does not exist", () => {
      expect(lint([skin(), recap("nobody")]).errors).toEqual(['funnels/recap.json: summary: answersFrom: no funnel has the id "nobody"']);
    });
  });

  it("passes the real funnels, content and routes", () => {
    const files = fs
      .readdirSync("funnels")
      .filter((name) => name.endsWith(".json") && !name.endsWith(".schema.json"))
      .map((name) => ({ file: `funnels/${name}`, doc: JSON.parse(fs.readFileSync(`funnels/${name}`, "utf8")) }));
    const { pendingRoutes } = JSON.parse(fs.readFileSync("scripts/funnels-check.config.json", "utf8"));
    expect(lintFunnels({ files, dataset: embeddedDataset(), appRoutes: readAppRoutes(), pendingRoutes }).errors).toEqual([]);
  });
});

describe("app route patterns", () => {
  it("reads the app's pages, leaving out the routes that match any path", () => {
    const routes = readAppRoutes();
    expect(routes).toContain("/");
    expect(routes).toContain("/app");
    expect(routes).not.toContain("/:funnel/:step?");
    expect(routes).not.toContain("/*");
  });

  it.each([
    ["_index", "/"],
    ["login", "/login"],
    ["plan.$id", "/plan/:id"],
    ["$funnel.($step)", "/:funnel/:step?"],
    ["$", "/*"],
    ["docs.$", "/docs/*"],
    ["_auth.login", "/login"],
    ["app._index", "/app"],
    ["app_.settings", "/app/settings"],
    ["(en).about", "/en?/about"],
    ["[sitemap.xml]", "/sitemap.xml"],
    ["_auth", undefined],
  ])("names the flat route %s %s", (name, pattern) => {
    expect(routePattern(name)).toBe(pattern);
  });

  it("reads route() calls in routes.ts", () => {
    expect(declaredRoutePatterns(`route("app", "routes/_index.tsx"),\n  route( '/plan/:id', "routes/plan.tsx")`)).toEqual(["/app", "/plan/:id"]);
  });
});
