// `npm run funnels:check`: lints funnels/*.json against each other, the content dataset and
// the app's pages (app/funnels/lint.ts). Exits 1 on any error; warnings alone pass.
import fs from "node:fs";
import { z } from "zod";
import { readAppRoutes } from "../app/funnels/app-routes.server";
import { readEmbeddedDataset } from "../app/content/embedded-dataset";
import { lintFunnels, type FunnelFile } from "../app/funnels/lint";

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
const { errors, warnings } = lintFunnels({ files, dataset, appRoutes: readAppRoutes(), pendingRoutes });

for (const error of errors) console.log(error);
for (const warning of warnings) console.log(`warning: ${warning}`);
console.log(`funnels:check: ${plural(files.length, "funnel")}, ${plural(errors.length, "error")}, ${plural(warnings.length, "warning")}`);
process.exitCode = errors.length ? 1 : 0;
