// Where the browser suite's minutes go: sums the last run's JSON report (playwright.config.ts
// writes test-results/e2e-report.json) per spec file and per project, slowest first, and lists
// the slowest tests. Times are the tests' own (hooks included), summed over both workers.
//   node scripts/e2e-durations.mjs [report.json] [how many slowest tests, default 15]
import fs from "node:fs";

const file = process.argv[2] ?? "test-results/e2e-report.json";
const slowest = Number(process.argv[3] ?? 15);
const report = JSON.parse(fs.readFileSync(file, "utf8"));

const tests = [];
function walk(suite, specFile) {
  const at = suite.file ?? specFile;
  for (const spec of suite.specs ?? []) {
    for (const test of spec.tests) {
      const ms = test.results.reduce((sum, result) => sum + result.duration, 0);
      tests.push({ file: at, project: test.projectName, title: spec.title, ms, status: test.status });
    }
  }
  for (const child of suite.suites ?? []) walk(child, at);
}
for (const suite of report.suites) walk(suite);

const PROJECTS = ["desktop", "phone", "desktop-no-js", "phone-no-js"];
const byFile = new Map();
for (const t of tests) {
  const row = byFile.get(t.file) ?? { tests: 0, ms: 0, projects: Object.fromEntries(PROJECTS.map((p) => [p, 0])) };
  row.tests++;
  row.ms += t.ms;
  row.projects[t.project] = (row.projects[t.project] ?? 0) + t.ms;
  byFile.set(t.file, row);
}
const total = tests.reduce((sum, t) => sum + t.ms, 0);
const s = (ms) => (ms / 1000).toFixed(0);
console.log(`${tests.length} tests, ${s(total)} s of test time (wall: ${s(report.stats.duration)} s, ${report.config.workers ?? "?"} workers)\n`);
console.log(`| spec | tests | s | share | ${PROJECTS.join(" | ")} |`);
console.log(`|---|---:|---:|---:|${PROJECTS.map(() => "---:").join("|")}|`);
for (const [name, row] of [...byFile].sort((a, b) => b[1].ms - a[1].ms)) {
  console.log(`| ${name} | ${row.tests} | ${s(row.ms)} | ${((100 * row.ms) / total).toFixed(1)}% | ${PROJECTS.map((p) => s(row.projects[p])).join(" | ")} |`);
}
console.log(`\nSlowest tests:\n\n| s | project | spec › test |\n|---:|---|---|`);
for (const t of [...tests].sort((a, b) => b.ms - a.ms).slice(0, slowest)) {
  console.log(`| ${s(t.ms)} | ${t.project} | ${t.file} › ${t.title.slice(0, 110)} |`);
}
const failed = tests.filter((t) => t.status !== "expected" && t.status !== "skipped");
if (failed.length) console.log(`\nNot as expected: ${failed.map((t) => `${t.project} ${t.file} › ${t.title}`).join("; ")}`);
