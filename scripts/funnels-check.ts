// `npm run funnels:check`: lints funnels/*.json against each other, the content dataset and
// the app's pages (app/funnels/lint.ts), and the content documents against each other: their
// references and the routine plans' rules (app/content-checks/content-lint.ts), and the experiments:
// every variant applied to its offer or funnel step (app/content-checks/experiment-lint.ts). Exits 1 on any
// error; warnings alone pass.
import fs from "node:fs";
import { z } from "zod";
import { readAppRoutes } from "../app/funnels/app-routes.server";
import { readEmbeddedDataset } from "../app/content/embedded-dataset.server";
import { lintContent } from "../app/content-checks/content-lint";
import { lintExperiments } from "../app/content-checks/experiment-lint";
import { lintFunnels, type FunnelFile } from "../app/funnels/lint";
import { resolveFunnel } from "../app/content/funnel-resolve";
import type { Funnel } from "../app/content-model/funnel";

const Config = z.object({
  $comment: z.string().optional(),
  pendingRoutes: z.record(z.string().startsWith("/"), z.string().min(1)),
});

function readFunnelFiles(): FunnelFile[] {
  return fs
    .readdirSync("funnels")
    .filter((name) => name.endsWith(".json") && !name.endsWith(".schema.json"))
    .sort()
    .map((name) => {
      const file = `funnels/${name}`;
      return { file, doc: JSON.parse(fs.readFileSync(file, "utf8")) };
    });
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

// The dataset first: it names a funnel file that is not valid JSON.
const dataset = readEmbeddedDataset();
const files = readFunnelFiles();
const { pendingRoutes } = Config.parse(JSON.parse(fs.readFileSync("scripts/funnels-check.config.json", "utf8")));
const funnelReport = lintFunnels({ files, dataset, appRoutes: readAppRoutes(), pendingRoutes });
const shared = new Map<string, unknown>(dataset.filter((d) => d._type === "question").map((d) => [d._id, d]));
const funnels = new Map<string, Funnel>();
for (const doc of dataset.filter((d) => d._type === "funnel")) {
  const result = resolveFunnel(doc, shared);
  if (result.ok) funnels.set(doc._id, result.funnel);
}
const contentReport = lintContent(dataset, funnels);
const experimentReport = lintExperiments({ dataset, files, appRoutes: readAppRoutes(), pendingRoutes });
const errors = [...funnelReport.errors, ...contentReport.errors, ...experimentReport.errors];
const warnings = [...funnelReport.warnings, ...contentReport.warnings, ...experimentReport.warnings];

for (const error of errors) console.log(error);
for (const warning of warnings) console.log(`warning: ${warning}`);
const plans = dataset.filter((d) => d._type === "plan").length;
const experiments = dataset.filter((d) => d._type === "experiment").length;
console.log(
  `funnels:check: ${plural(files.length, "funnel")}, ${plural(plans, "plan")}, ${plural(experiments, "experiment")}, ${plural(errors.length, "error")}, ${plural(warnings.length, "warning")}`,
);
process.exitCode = errors.length ? 1 : 0;
