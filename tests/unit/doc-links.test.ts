/**
 * The docs keep resolving: every relative Markdown link, `docs/….md` path, `ADR NN` and quoted
 * section reference ("Upgrades" in docs/operators.md) in the README, the guides, the Prisma
 * schema, the app, the scripts, the Studio, the tests and the server names a file (and
 * heading) that exists; an ADR a Prisma model's comment cites talks about that model; and the
 * operators' guide states the shutdown drain time the server actually uses.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Generated or installed: Prisma's client copies the schema's comments (the schema is checked itself). */
const SKIPPED_FOLDERS = new Set(["app/generated", "studio/node_modules", "studio/dist", "studio/.sanity"]);

/** Every file under `dir` (relative to the repository) whose name passes `keep`. */
function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  const found: string[] = [];
  const walk = (relative: string) => {
    for (const entry of fs.readdirSync(path.join(ROOT, relative), { withFileTypes: true })) {
      const child = path.posix.join(relative, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(child)) walk(child);
      } else if (keep(entry.name)) found.push(child);
    }
  };
  walk(dir);
  return found.sort();
}

const markdownFiles = ["README.md", "tests/README.md", ...filesUnder("docs", (name) => name.endsWith(".md"))];
const codeFiles = [
  "server.mjs",
  ...filesUnder("prisma", (name) => name.endsWith(".prisma")),
  ...filesUnder("app", (name) => /\.tsx?$/.test(name)),
  ...filesUnder("scripts", (name) => /\.(m?js|ts|json)$/.test(name)),
  ...filesUnder("studio", (name) => /\.tsx?$/.test(name)),
  // This file cites made-up ADRs and paths on purpose, to show the checker finds them.
  ...filesUnder("tests", (name) => /\.tsx?$/.test(name)).filter((file) => file !== "tests/unit/doc-links.test.ts"),
  ".ci/run",
  "playwright.config.ts",
  "vitest.config.ts",
];

const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");

/** The text outside fenced code blocks (links and headings there are examples, not references). */
function outsideCodeFences(markdown: string): string {
  let inFence = false;
  return markdown
    .split("\n")
    .map((line) => {
      if (/^\s*```/.test(line)) {
        inFence = !inFence;
        return "";
      }
      return inFence ? "" : line;
    })
    .join("\n");
}

/** GitHub's anchor for each heading of a Markdown file (`## Two commands` → `two-commands`). */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, text] of outsideCodeFences(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = text
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/[`*]/g, "")
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** The headings' own words, for references that quote a section ("Changing the database"). */
function headingTexts(markdown: string): Set<string> {
  return new Set([...outsideCodeFences(markdown).matchAll(/^#{1,6}\s+(.+?)\s*$/gm)].map(([, text]) => text.replace(/[`*]/g, "")));
}

const ADR_FILES = fs.readdirSync(path.join(ROOT, "docs/decisions")).filter((name) => /^\d{4}-.+\.md$/.test(name));

/** The ADR file of number `n`, if there is one. */
const adrFile = (n: number) => ADR_FILES.find((name) => Number(name.slice(0, 4)) === n);

/** Every ADR number cited in `text`: "ADR 19", "ADRs 6 and 19", "docs/decisions/0019-….md". */
function citedAdrs(text: string): number[] {
  const numbers: number[] = [];
  for (const [, list] of text.matchAll(/\bADRs?\s+(\d+(?:(?:,\s*|\s+and\s+|\s+or\s+)\d+)*)/g)) {
    for (const n of list.match(/\d+/g) ?? []) numbers.push(Number(n));
  }
  for (const [, n] of text.matchAll(/decisions\/(\d{4})-/g)) numbers.push(Number(n));
  return numbers;
}

/** A problem found: the file and line it is on, and what is wrong. */
type Problem = string;

function lineOf(text: string, index: number) {
  return text.slice(0, index).split("\n").length;
}

/** Relative links `[text](target#anchor)` in a Markdown file that lead nowhere. */
function brokenMarkdownLinks(file: string, markdown = read(file)): Problem[] {
  // Inline code (`globalThis[type](message)`) is code, not a link.
  const text = outsideCodeFences(markdown).replace(/`[^`\n]*`/g, (code) => " ".repeat(code.length));
  const problems: Problem[] = [];
  for (const match of text.matchAll(/\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = match[1];
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: …
    const [targetPath, anchor] = target.split("#", 2);
    const resolved = targetPath ? path.posix.normalize(path.posix.join(path.posix.dirname(file), targetPath)) : file;
    const where = `${file}:${lineOf(text, match.index)}: ${target}`;
    if (!fs.existsSync(path.join(ROOT, resolved))) {
      problems.push(`${where}: no file ${resolved}`);
    } else if (anchor && resolved.endsWith(".md") && !headingAnchors(read(resolved)).has(anchor)) {
      problems.push(`${where}: no heading #${anchor} in ${resolved}`);
    }
  }
  return problems;
}

/** Repository paths written out (`docs/decisions/0015-two-databases.md`) that do not exist. */
function brokenDocPaths(file: string, text = read(file)): Problem[] {
  const problems: Problem[] = [];
  for (const match of text.matchAll(/(?<![\w./-])((?:docs|tests)\/[\w./-]*?\.md)\b/g)) {
    if (!fs.existsSync(path.join(ROOT, match[1]))) {
      problems.push(`${file}:${lineOf(text, match.index)}: no file ${match[1]}`);
    }
  }
  return problems;
}

/** `ADR NN` citations whose number has no ADR. */
function brokenAdrNumbers(file: string, text = read(file)): Problem[] {
  const problems: Problem[] = [];
  for (const match of text.matchAll(/\bADRs?\s+\d+(?:(?:,\s*|\s+and\s+|\s+or\s+)\d+)*/g)) {
    for (const n of citedAdrs(match[0])) {
      if (!adrFile(n)) problems.push(`${file}:${lineOf(text, match.index)}: ${match[0]}: there is no ADR ${n}`);
    }
  }
  return problems;
}

/**
 * Sections quoted by name with their file: `README "Upgrades"`, `"Configuration" in
 * docs/operators.md` (a message the server prints). Within the guides, link to the heading.
 */
function brokenSectionReferences(file: string, text = read(file)): Problem[] {
  const problems: Problem[] = [];
  const check = (quoted: string, target: string, index: number) => {
    const section = quoted.replace(/\s+/g, " ");
    const targetFile = target === "README" ? "README.md" : target;
    if (!fs.existsSync(path.join(ROOT, targetFile))) {
      problems.push(`${file}:${lineOf(text, index)}: no file ${targetFile}`);
    } else if (!headingTexts(read(targetFile)).has(section)) {
      problems.push(`${file}:${lineOf(text, index)}: no section "${section}" in ${targetFile}`);
    }
  };
  const doc = String.raw`(README(?:\.md)?|(?:docs|tests)\/[\w./-]+\.md)`;
  for (const match of text.matchAll(new RegExp(String.raw`${doc}(?:'s)?,? "([^"]+)"`, "g"))) {
    check(match[2], match[1], match.index);
  }
  for (const match of text.matchAll(new RegExp(String.raw`"([^"]+)" in ${doc}`, "g"))) {
    check(match[1], match[2], match.index);
  }
  return problems;
}

/** Each Prisma model's doc comment (its `///` lines) and the ADRs it cites. */
function prismaModelCitations(schema: string): { model: string; adrs: number[] }[] {
  const lines = schema.split("\n");
  const models: { model: string; adrs: number[] }[] = [];
  lines.forEach((line, index) => {
    const model = /^model (\w+) \{/.exec(line)?.[1];
    if (!model) return;
    let start = index;
    while (start > 0 && lines[start - 1].startsWith("///")) start--;
    models.push({ model, adrs: citedAdrs(lines.slice(start, index).join("\n")) });
  });
  return models;
}

/** Models whose comment cites an ADR that never names them (a wrong number, not a missing one). */
function modelsCitingOtherAdrs(file: string, schema: string): Problem[] {
  const problems: Problem[] = [];
  for (const { model, adrs } of prismaModelCitations(schema)) {
    for (const n of adrs) {
      const adr = adrFile(n);
      if (adr && !new RegExp(String.raw`\b${model}\b`).test(read(`docs/decisions/${adr}`))) {
        problems.push(`${file}: model ${model} cites ADR ${n} (${adr}), which never mentions ${model}`);
      }
    }
  }
  return problems;
}

describe("links in the docs and the code resolve", () => {
  it.each(markdownFiles)("%s: relative links lead to files and headings that exist", (file) => {
    expect(brokenMarkdownLinks(file)).toEqual([]);
  });

  it.each([...markdownFiles, ...codeFiles])("%s: doc paths, ADR numbers and quoted sections exist", (file) => {
    expect([...brokenDocPaths(file), ...brokenAdrNumbers(file), ...brokenSectionReferences(file)]).toEqual([]);
  });

  it.each(filesUnder("prisma", (name) => name.endsWith(".prisma")))("%s: an ADR a model's comment cites is about that model (names it)", (file) => {
    expect(modelsCitingOtherAdrs(file, read(file))).toEqual([]);
  });

  it("the checker finds what it is for", () => {
    expect(citedAdrs("see ADRs 6 and 19, ADR 33 or docs/decisions/0025-marketer-content.md")).toEqual([6, 19, 33, 25]);
    expect(headingAnchors("## Two commands\n## Database: SQLite or PostgreSQL\n## Two commands\n```\n## not\n```")).toEqual(
      new Set(["two-commands", "database-sqlite-or-postgresql", "two-commands-1"]),
    );
    expect(adrFile(13)).toBe("0013-request-gate-and-document-headers.md");
    expect(adrFile(99)).toBeUndefined();

    const guide = "docs/guide.md";
    expect(brokenMarkdownLinks(guide, "[a](decisions/0099-x.md) [b](operators.md#nowhere) [c](operators.md#upgrades) `f[x](y)`")).toEqual([
      "docs/guide.md:1: decisions/0099-x.md: no file docs/decisions/0099-x.md",
      "docs/guide.md:1: operators.md#nowhere: no heading #nowhere in docs/operators.md",
    ]);
    expect(brokenDocPaths("x.ts", "// docs/decisions/0025-content-assets-and-slugs.md")).toHaveLength(1);
    expect(brokenAdrNumbers("x.ts", "// ADR 99")).toEqual(["x.ts:1: ADR 99: there is no ADR 99"]);
    expect(brokenSectionReferences("x.ts", 'See "Configuration" in README.md. README "Upgrades"')).toHaveLength(2);
    expect(brokenSectionReferences("x.ts", 'See "Configuration" in docs/operators.md.')).toEqual([]);
    const schema = "/// Purchases, states appended (see ADR 13).\nmodel Entitlement {\n}\n/// (ADR 19)\nmodel Entitlement2 {\n}";
    expect(modelsCitingOtherAdrs("schema.prisma", schema)).toEqual([
      "schema.prisma: model Entitlement cites ADR 13 (0013-request-gate-and-document-headers.md), which never mentions Entitlement",
      "schema.prisma: model Entitlement2 cites ADR 19 (0019-plans-and-entitlements.md), which never mentions Entitlement2",
    ]);
  });
});

describe("the shutdown drain time", () => {
  const drainMs = Number(/const DRAIN_TIMEOUT_MS = ([\d_]+);/.exec(read("app/server.ts"))?.[1].replaceAll("_", ""));
  const drainSeconds = drainMs / 1000;

  /** Paragraphs of the README and the guides that say what SIGTERM does (any "N s" there is the drain). */
  const stoppingParagraphs = ["README.md", ...filesUnder("docs", (name) => name.endsWith(".md")).filter((file) => !file.startsWith("docs/decisions/"))].flatMap(
    (file) =>
      read(file)
        .split(/\n\s*\n/)
        .filter((paragraph) => paragraph.includes("SIGTERM"))
        .map((paragraph) => ({ file, paragraph })),
  );

  it("is read from server.mjs", () => {
    expect(drainSeconds).toBeGreaterThan(0);
  });

  it("is stated as the server's own value wherever the docs give one", () => {
    const stated = stoppingParagraphs.flatMap(({ file, paragraph }) =>
      [...paragraph.matchAll(/\b(\d+(?:\.\d+)?) s\b/g)].map((match) => ({ file, seconds: Number(match[1]) })),
    );
    expect(stated.length).toBeGreaterThan(0);
    for (const { file, seconds } of stated) expect({ file, seconds }).toEqual({ file, seconds: drainSeconds });
  });

  it("is shorter than the systemd unit's stop timeout, so systemd never kills a drain", () => {
    const timeouts = [...markdownFiles].flatMap((file) => [...read(file).matchAll(/^TimeoutStopSec=(\d+)$/gm)].map((match) => Number(match[1])));
    expect(timeouts.length).toBeGreaterThan(0);
    for (const timeout of timeouts) expect(timeout).toBeGreaterThan(drainSeconds);
  });
});
