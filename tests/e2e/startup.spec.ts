import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";

/** Starts the production server with the given environment and returns how it ended. */
function startServer(env: Record<string, string>) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "glow-startup-"));
  const result = spawnSync(process.execPath, ["server.mjs"], {
    env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", DATA_DIR: dataDir, PORT: "3299", ...env },
    encoding: "utf8",
    timeout: 20_000,
  });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

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
});
