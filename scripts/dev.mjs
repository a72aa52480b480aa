// `npm run dev`: migrations, then the Vite dev server with hot reload.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { exitOnRuntimeProblem } from "./runtime-check.mjs";

process.env.NODE_ENV = "development";
process.chdir(path.resolve(import.meta.dirname, ".."));
exitOnRuntimeProblem();
execFileSync("npx", ["prisma", "migrate", "deploy"], { stdio: ["ignore", "ignore", "inherit"] });
await import("../server.mjs");
