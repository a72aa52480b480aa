import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "@playwright/test";
import { nodeVersionProblem } from "../../scripts/runtime-check.mjs";

/** Starts the production server (or `script`) with the given environment and returns how it ended. */
function startServer(env: Record<string, string>, script = "server.mjs") {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "glow-startup-"));
  const result = spawnSync(process.execPath, [script], {
    env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", DATA_DIR: dataDir, PORT: String(Number(process.env.E2E_PORT ?? 3210) + 29), ...env },
    encoding: "utf8",
    timeout: 20_000,
  });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

/** Loads better-sqlite3 as if it had been built for another Node.js (see the fixture). */
const OTHER_NODE_BINARY = `--import=${pathToFileURL(path.resolve("tests/e2e/fixtures/native-module-for-another-node.mjs")).href}`;

test.describe("start-up configuration", () => {
  test.beforeEach(({}, testInfo) => {
    test.skip(testInfo.project.name !== "desktop", "runs the server binary, not a browser: once is enough");
  });

  test("production without a session secret stops with a message naming it", () => {
    const { code, output } = startServer({ PUBLIC_URL: "https://glowcoach.app" });
    expect(code).toBe(1);
    expect(output).toContain("SESSION_SECRET: required in production");
    expect(output).not.toContain("    at "); // a message, not a stack trace
  });

  test("a malformed value stops start-up, naming the variable", () => {
    const { code, output } = startServer({ APP_ENV: "local", PORT: "not-a-port" });
    expect(code).toBe(1);
    expect(output).toContain("PORT");
  });

  test("an unsupported Node.js stops npm start with a message naming the versions needed, instead of crashing", () => {
    // These machines ship an older Node.js as /usr/bin/node; elsewhere there may be none.
    const system = spawnSync("/usr/bin/node", ["-p", "process.version"], { encoding: "utf8" });
    const version = system.stdout?.trim();
    test.skip(!version || nodeVersionProblem(version) === null, "no unsupported Node.js at /usr/bin/node");
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "glow-startup-"));
    const result = spawnSync("/usr/bin/node", ["scripts/start.mjs"], { env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", DATA_DIR: dataDir, PORT: String(Number(process.env.E2E_PORT ?? 3210) + 29) }, encoding: "utf8", timeout: 20_000 });
    expect(result.status).toBe(1);
    expect(`${result.stdout}${result.stderr}`).toContain(`Glow Coach needs Node.js 22.12 or newer (24 recommended, see .nvmrc); this is Node.js ${version}.`);
  });

  for (const [command, script] of [
    ["npm start", "scripts/start.mjs"],
    ["npm run serve", "server.mjs"],
  ]) {
    test(`${command} with a database driver built for another Node.js stops, naming npm rebuild, and serves nothing`, () => {
      const { code, output } = startServer({ APP_ENV: "local", NODE_OPTIONS: OTHER_NODE_BINARY }, script);
      expect(code).toBe(1);
      expect(output).toContain(`better-sqlite3 cannot be loaded by this Node.js (${process.version})`);
      expect(output).toContain("Fix: run `npm rebuild` with this Node.js");
      expect(output).not.toMatch(/listening on|is ready at/);
      expect(output).not.toContain("    at "); // a message, not a stack trace
    });
  }
});
