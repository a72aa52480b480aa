import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The folder rule of ADR 39, read from the code's own import lines: the content model is a
 * leaf, no file import runs in a circle, and no two domain folders import each other.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const APP = path.join(ROOT, "app");
const MODEL = "content-model";

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === "generated" ? [] : sourceFiles(full);
    return /\.(ts|tsx)$/.test(name) ? [full] : [];
  });
}

// `import ... from "x"`, `export ... from "x"`, `import "x"` and `import("x")`, over several lines.
const IMPORT = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;

function specifiers(file: string): string[] {
  const text = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
  return [...text.matchAll(IMPORT)].map((m) => m[1] ?? m[2]);
}

/** The app file a specifier names, as a path relative to app/ without its extension; null for a package. */
function appTarget(from: string, specifier: string): string | null {
  let target: string;
  if (specifier.startsWith("~/")) target = path.join(APP, specifier.slice(2));
  else if (specifier.startsWith(".")) target = path.resolve(path.dirname(from), specifier);
  else return null;
  return path.relative(APP, target).replace(/\.(ts|tsx)$/, "");
}

const files = sourceFiles(APP);
const id = (file: string) => path.relative(APP, file).replace(/\.(ts|tsx)$/, "");
const importsOf = new Map(files.map((file) => [id(file), specifiers(file).map((s) => ({ specifier: s, target: appTarget(file, s) }))]));
const folderOf = (appPath: string) => appPath.split("/")[0];

describe("app/content-model is a leaf", () => {
  it("holds the content schemas", () => {
    const model = files.map(id).filter((f) => folderOf(f) === MODEL);
    expect(model).toEqual(expect.arrayContaining([`${MODEL}/content-types`, `${MODEL}/funnel`, `${MODEL}/offer`, `${MODEL}/experiment`]));
  });

  it("imports only zod and its own files", () => {
    const outside = [...importsOf]
      .filter(([file]) => folderOf(file) === MODEL)
      .flatMap(([file, imports]) =>
        imports
          .filter(({ specifier, target }) => (target === null ? specifier !== "zod" : folderOf(target) !== MODEL))
          .map(({ specifier }) => `${file} -> ${specifier}`),
      );
    expect(outside).toEqual([]);
  });
});

describe("content/ loads content into the model", () => {
  it("imports only the model and the ground floor (utils), never a domain that uses content", () => {
    const allowed = new Set(["content", MODEL, "utils"]);
    const upward = [...importsOf]
      .filter(([file]) => folderOf(file) === "content")
      .flatMap(([file, imports]) => imports.filter(({ target }) => target && !allowed.has(folderOf(target))).map(({ specifier }) => `${file} -> ${specifier}`));
    expect(upward).toEqual([]);
  });
});

describe("imports point one way", () => {
  it("no file import runs in a circle", () => {
    const known = new Set(importsOf.keys());
    const resolve = (target: string) => (known.has(target) ? target : known.has(`${target}/index`) ? `${target}/index` : null);
    const state = new Map<string, "open" | "done">();
    const circles: string[] = [];
    const visit = (file: string, trail: string[]) => {
      if (state.get(file) === "done") return;
      if (state.get(file) === "open") {
        circles.push([...trail.slice(trail.indexOf(file)), file].join(" -> "));
        return;
      }
      state.set(file, "open");
      for (const { target } of importsOf.get(file) ?? []) {
        const next = target && resolve(target);
        if (next) visit(next, [...trail, file]);
      }
      state.set(file, "done");
    };
    for (const file of known) visit(file, []);
    expect(circles).toEqual([]);
  });

  // Pairs of folders that imported each other and no longer may (ADR 39): the shared piece
  // moved to the lower folder, or the higher one hands it down as a parameter.
  const MUST_NOT_MEET: [string, string][] = [
    ["analytics", "experiments"],
    ["analytics", "auth"],
    ["billing", "payments"],
    ["members", "reminders"],
    ["content", "funnels"],
    ["content", "payments"],
    ["content", "experiments"],
    ["experiments", "funnels"],
    ["experiments", "payments"],
    ["auth", "components"],
    ["auth", "utils"],
    ["funnels", "render"],
  ];

  /** "from -> to" between two folders, with the files that make it. */
  const folderArrows = new Map<string, string[]>();
  for (const [file, imports] of importsOf) {
    for (const { target } of imports) {
      if (!target || folderOf(target) === folderOf(file)) continue;
      const arrow = `${folderOf(file)} -> ${folderOf(target)}`;
      folderArrows.set(arrow, [...(folderArrows.get(arrow) ?? []), `${file} -> ${target}`]);
    }
  }

  it("no two app folders import each other", () => {
    const mutual = [...folderArrows.keys()].filter((arrow) => {
      const [from, to] = arrow.split(" -> ");
      return from < to && folderArrows.has(`${to} -> ${from}`);
    });
    expect(mutual.map((arrow) => ({ arrow, files: folderArrows.get(arrow), back: folderArrows.get(arrow.split(" -> ").reverse().join(" -> ")) }))).toEqual([]);
  });

  it.each(MUST_NOT_MEET)("%s and %s do not import each other", (a, b) => {
    const there = folderArrows.get(`${a} -> ${b}`);
    const back = folderArrows.get(`${b} -> ${a}`);
    expect(there && back ? { there, back } : null).toBeNull();
  });

  // ADR 39's floors, from the ground up: a folder imports only folders on its own floor or below.
  const FLOORS = [
    [MODEL, "utils", "hooks", "styles", "generated"],
    ["content", "email", "components", "billing"],
    ["security", "render", "analytics"],
    ["auth", "experiments", "operations", "pages"],
    ["funnels", "members"],
    ["payments", "reminders", "recovery", "admin", "content-checks"],
    ["routes", "root", "entry.server", "entry.client", "load-context.server"],
    // The typed server entry (gate, stored pages, Express, Remix) and its build's types.
    ["server", "server-build.d"],
  ];
  const floorOf = new Map(FLOORS.flatMap((names, floor) => names.map((name) => [name, floor] as const)));
  // Imports that still run up: none (the server entry hands the funnel page cache to the stored
  // pages as a parameter, ADR 40). Nothing may be added here.
  const STILL_UP = new Set<string>();

  it("every app folder stands on a floor", () => {
    expect([...new Set([...importsOf.keys()].map(folderOf))].filter((folder) => !floorOf.has(folder))).toEqual([]);
  });

  it("each known upward import still exists (a removed one comes off the list)", () => {
    expect([...STILL_UP].filter((arrow) => !folderArrows.has(arrow))).toEqual([]);
  });

  it("no import runs up a floor but the known ones", () => {
    const up = [...folderArrows.keys()].filter((arrow) => {
      const [from, to] = arrow.split(" -> ");
      return floorOf.get(to)! > floorOf.get(from)! && !STILL_UP.has(arrow);
    });
    expect(up.map((arrow) => ({ arrow, files: folderArrows.get(arrow) }))).toEqual([]);
  });
});
