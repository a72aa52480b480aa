/**
 * The app's own pages as route patterns ("/", "/plan/:id"), for the funnel linter to check
 * that funnels link to pages that exist. Read from the route files the way Remix's flat
 * routes name them, plus the routes app/routes.ts declares by hand.
 */
import fs from "node:fs";
import path from "node:path";

const ROUTE_MODULE = /\.(tsx|ts|jsx|js|mdx|md)$/;

/** Dots separate segments except inside [escapes]: "[sitemap.xml]" is one segment. */
const SEGMENT = /(?:\[[^\]]*\]|[^.])+/g;

function patternSegment(raw: string): string {
  const optional = /^\((.*)\)$/.exec(raw);
  if (optional) return `${patternSegment(optional[1])}?`;
  if (raw === "$") return "*";
  const name = raw.startsWith("$") ? `:${raw.slice(1)}` : raw;
  return name.replace(/[[\]]/g, "");
}

/**
 * The URL pattern of a flat route ("plan.$id" → "/plan/:id", "$funnel.($step)" →
 * "/:funnel/:step?", "_index" → "/"), or undefined for a pathless layout ("_auth"),
 * which has no page of its own. Segments starting with "_" add nothing to the URL; a
 * trailing "_" only opts out of nesting. Escaped characters ("[_]") are never special.
 */
export function routePattern(routeName: string): string | undefined {
  const raw = routeName.match(SEGMENT) ?? [];
  const last = raw.at(-1);
  const isIndex = last === "_index";
  if (!isIndex && last?.startsWith("_")) return undefined;
  const segments = (isIndex ? raw.slice(0, -1) : raw)
    .filter((segment) => !segment.startsWith("_"))
    .map((segment) => patternSegment(segment.endsWith("_") ? segment.slice(0, -1) : segment));
  return `/${segments.join("/")}`;
}

/**
 * Paths of `route("…")` calls in app/routes.ts. Read as text: evaluating the file needs the
 * Remix Vite plugin. Only top-level calls are understood; a nested route's path would be
 * relative to its parent's.
 */
export function declaredRoutePatterns(routesTs: string): string[] {
  return [...routesTs.matchAll(/\broute\(\s*(["'`])(.*?)\1/g)].map((match) => `/${match[2].replace(/^\//, "")}`);
}

/**
 * A route whose first segment is a parameter or splat (the generic funnel route, the
 * not-found page) matches every path, so it would make every link look valid. Funnel URLs
 * are checked against the funnel files instead.
 */
function matchesAnyPath(pattern: string): boolean {
  const first = pattern.split("/")[1] ?? "";
  return first.startsWith(":") || first === "*";
}

/** A file in app/routes is a route; so is a folder holding a route (or index) module. */
function routeNames(routesDir: string): string[] {
  return fs.readdirSync(routesDir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isFile()) return ROUTE_MODULE.test(entry.name) ? [entry.name.replace(ROUTE_MODULE, "")] : [];
    if (!entry.isDirectory()) return [];
    const modules = fs.readdirSync(path.join(routesDir, entry.name)).filter((name) => ROUTE_MODULE.test(name));
    return modules.some((name) => /^(route|index)\./.test(name)) ? [entry.name] : [];
  });
}

export function readAppRoutes(appDir = "app"): string[] {
  const fromFiles = routeNames(path.join(appDir, "routes")).map(routePattern);
  const declared = declaredRoutePatterns(fs.readFileSync(path.join(appDir, "routes.ts"), "utf8"));
  const patterns = [...fromFiles, ...declared].filter((p): p is string => p !== undefined && !matchesAnyPath(p));
  return [...new Set(patterns)].sort();
}
