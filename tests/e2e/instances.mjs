// The e2e suite's server: one app instance (the default), or with E2E_INSTANCES=N, N instances
// of the production build on ports PORT+1.. sharing one database, behind a round-robin proxy
// on PORT (tests/e2e/round-robin-proxy.mjs). With DATABASE_URL=postgresql://… the database is
// emptied and migrated first (a throwaway database only: see .ci/run).
//
// playwright.config.ts runs it as its webServer; the environment carries the app's settings.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { buildIfStale } from "../../scripts/build-if-stale.mjs";
import { startRoundRobinProxy } from "./round-robin-proxy.mjs";

const root = path.resolve(import.meta.dirname, "../..");
process.chdir(root);
const port = Number(process.env.PORT);
const instances = Number(process.env.E2E_INSTANCES || 1);
const dataDir = process.env.DATA_DIR;
if (!port || !dataDir) throw new Error("instances.mjs: PORT and DATA_DIR must be set");

fs.rmSync(dataDir, { recursive: true, force: true });
const url = process.env.DATABASE_URL;
if (url && /^postgres(ql)?:\/\//.test(url)) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query("DROP SCHEMA public CASCADE; CREATE SCHEMA public");
  await client.end();
}

if (instances === 1) {
  await import("../../scripts/start.mjs");
} else {
  // Migrations once, then the instances: none of them migrates or builds.
  execFileSync("npx", ["prisma", "migrate", "deploy"], { stdio: ["ignore", "ignore", "inherit"] });
  buildIfStale();
  const upstreams = [];
  const children = [];
  for (let i = 1; i <= instances; i++) {
    const child = spawn(process.execPath, ["server.mjs"], {
      // Links in e-mails and redirects name the proxy, the origin browsers use.
      env: { ...process.env, NODE_ENV: "production", PORT: String(port + i), PUBLIC_URL: process.env.PUBLIC_URL || `http://127.0.0.1:${port}` },
      stdio: ["ignore", "inherit", "inherit"],
    });
    child.on("exit", (code, signal) => {
      if (!stopping) {
        console.error(`instance ${i} stopped (${signal ?? code})`);
        process.exit(1);
      }
    });
    children.push(child);
    upstreams.push(`http://127.0.0.1:${port + i}`);
  }
  // Every instance answers before the proxy opens, so the first test request finds them all.
  for (const upstream of upstreams) {
    for (let attempt = 0; ; attempt++) {
      if (
        await fetch(`${upstream}/`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      if (attempt > 600) throw new Error(`${upstream} did not start`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const proxy = await startRoundRobinProxy({ port, upstreams });
  console.log(`${instances} instances behind http://127.0.0.1:${port}`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await proxy.close();
    for (const child of children) child.kill("SIGTERM");
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
