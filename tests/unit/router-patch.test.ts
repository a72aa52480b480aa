import fs from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

// The server's copy of Remix's router, with patches/@remix-run+router+1.23.3.patch applied by
// `npm install` (patch-package): route matching keeps the ranked routes and each path's matches.
const require = createRequire(import.meta.url);
const { matchRoutes } = require("@remix-run/router") as typeof import("@remix-run/router");

const routes = [
  {
    id: "root",
    path: "",
    children: [
      { id: "home", path: "home" },
      { id: "plan", path: "plan/:id" },
      { id: "content", path: ":funnel/:step?" },
      { id: "index", index: true },
      { id: "splat", path: "*" },
    ],
  },
];

const ids = (path: string) => matchRoutes(routes, path)?.map((match) => match.route.id);

describe("route matching (patched to keep its work between calls)", () => {
  it("is applied to the installed router", () => {
    const source = fs.readFileSync(require.resolve("@remix-run/router"), "utf8");
    expect(source).toContain("const matchCaches = new WeakMap()");
  });

  it("matches as the router always did, on the first call and on later ones", () => {
    for (let round = 0; round < 3; round++) {
      expect(ids("/")).toEqual(["root", "index"]);
      expect(ids("/home")).toEqual(["root", "home"]);
      expect(ids("/plan/clear-healthy-skin")).toEqual(["root", "plan"]);
      expect(ids("/quiz")).toEqual(["root", "content"]);
      expect(ids("/quiz/3")).toEqual(["root", "content"]);
      expect(ids("/a/b/c")).toEqual(["root", "splat"]);
    }
    expect(matchRoutes(routes, "/plan/abc")?.[1].params).toEqual({ id: "abc" });
    expect(matchRoutes(routes, "/plan/x%20y")?.[1].params).toEqual({ id: "x y" });
  });

  it("gives every caller matches of its own", () => {
    const first = matchRoutes(routes, "/quiz/3")!;
    (first[1].params as Record<string, string>).step = "changed";
    first.pop();
    expect(matchRoutes(routes, "/quiz/3")?.[1].params).toEqual({ funnel: "quiz", step: "3" });
  });

  it("keeps a route tree's matches apart from another tree's", () => {
    const other = [{ id: "only", path: "quiz/:n" }];
    expect(matchRoutes(other, "/quiz/3")?.map((m) => m.route.id)).toEqual(["only"]);
    expect(ids("/quiz/3")).toEqual(["root", "content"]);
  });

  it("stays correct past the number of paths it keeps", () => {
    for (let i = 0; i < 1200; i++) expect(matchRoutes(routes, `/plan/p${i}`)?.[1].params.id).toBe(`p${i}`);
    expect(ids("/home")).toEqual(["root", "home"]);
  });
});
