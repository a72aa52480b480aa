import { execFile, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, test } from "vitest";
import { nodeVersionProblem } from "../../scripts/runtime-check.mjs";
import { SERVER_PORTS } from "./ports";
import { killLeftovers, tracked } from "./processes";

const PORT = SERVER_PORTS.startup;

/** A production configuration that starts; tests take one setting away or add one. */
const PRODUCTION = {
  APP_ENV: "production",
  SESSION_SECRET: "s".repeat(40),
  PUBLIC_URL: `http://127.0.0.1:${PORT}`,
  STRIPE_SECRET_KEY: "sk_live_startupcheck",
  STRIPE_WEBHOOK_SECRET: "whsec_startupcheck",
  SMTP_URL: "smtp://127.0.0.1:1",
};

/**
 * Runs `node script` with the given environment and an empty data folder; answers how it ended
 * (code null: still running after 20 s, so killed). Not spawnSync: a test worker blocked for
 * minutes on a busy machine misses its own messages to vitest and the run fails with an error.
 */
function runNode(node: string, script: string, env: Record<string, string | undefined>): Promise<{ code: number | null; output: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "glow-startup-"));
  const child = tracked(
    spawn(node, [script], {
      env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", DATA_DIR: dataDir, PORT: String(PORT), ...env },
      stdio: ["ignore", "pipe", "pipe"],
    }),
  );
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  // A server that does start would run until killed: that is the failure this catches.
  const killer = setTimeout(() => child.kill("SIGKILL"), 20_000);
  return new Promise((resolve) =>
    child.once("close", (code) => {
      clearTimeout(killer);
      resolve({ code, output });
    }),
  );
}

/** Starts the production server (or `script`) with the given environment and returns how it ended. */
function startServer(env: Record<string, string | undefined>, script = "server.mjs") {
  return runNode(process.execPath, script, env);
}

/** Loads better-sqlite3 as if it had been built for another Node.js (see the fixture). */
const OTHER_NODE_BINARY = `--import=${pathToFileURL(path.resolve("tests/server/fixtures/native-module-for-another-node.mjs")).href}`;

// These machines ship an older Node.js as /usr/bin/node; elsewhere there may be none.
const SYSTEM_NODE = spawnSync("/usr/bin/node", ["-p", "process.version"], { encoding: "utf8" }).stdout?.trim();

// One port for every server these tests start: one at a time (a file's tests run in order).
describe("start-up configuration", () => {
  afterEach(killLeftovers);

  test("production without a session secret stops with a message naming it", async () => {
    const { code, output } = await startServer({ PUBLIC_URL: "https://glowcoach.app" });
    expect(code).toBe(1);
    expect(output).toContain("SESSION_SECRET: required in production");
    expect(output).not.toContain("    at "); // a message, not a stack trace
  });

  test("a malformed value stops start-up, naming the variable", async () => {
    const { code, output } = await startServer({ APP_ENV: "local", PORT: "not-a-port" });
    expect(code).toBe(1);
    expect(output).toContain("PORT");
  });

  // Skipped where /usr/bin/node is missing or supported.
  test.skipIf(!SYSTEM_NODE || nodeVersionProblem(SYSTEM_NODE) === null)(
    "an unsupported Node.js stops npm start with a message naming the versions needed, instead of crashing",
    async () => {
      const version = SYSTEM_NODE;
      const result = await runNode("/usr/bin/node", "scripts/start.mjs", {});
      expect(result.code).toBe(1);
      expect(result.output).toContain(`Glow Coach runs on Node.js 22 (22.12 or newer), 24 or 26 (24 recommended, see .nvmrc); this is Node.js ${version}.`);
    },
  );

  for (const [command, script] of [
    ["npm start", "scripts/start.mjs"],
    ["npm run serve", "server.mjs"],
  ]) {
    test(`${command} with a database driver built for another Node.js stops, naming npm rebuild, and serves nothing`, async () => {
      const { code, output } = await startServer({ APP_ENV: "local", NODE_OPTIONS: OTHER_NODE_BINARY }, script);
      expect(code).toBe(1);
      expect(output).toContain(`better-sqlite3 cannot be loaded by this Node.js (${process.version})`);
      expect(output).toContain("Fix: run `npm rebuild` with this Node.js");
      expect(output).not.toMatch(/listening on|is ready at/);
      expect(output).not.toContain("    at "); // a message, not a stack trace
    });
  }

  describe("production refuses to run open", () => {
    for (const [name, env, message] of [
      [
        "no Stripe key (the test checkout would hand out plans)",
        { ...PRODUCTION, STRIPE_SECRET_KEY: undefined, STRIPE_WEBHOOK_SECRET: undefined },
        "STRIPE_SECRET_KEY: required in production",
      ],
      ["no webhook secret", { ...PRODUCTION, STRIPE_WEBHOOK_SECRET: undefined }, "STRIPE_WEBHOOK_SECRET: required in production"],
      ["no SMTP_URL (sign-in links would go to the log)", { ...PRODUCTION, SMTP_URL: undefined }, "SMTP_URL: required in production"],
      ["the dev mailbox switched on", { ...PRODUCTION, MAILBOX_UI: "1" }, "MAILBOX_UI: not allowed in production"],
      ["a Stripe API override", { ...PRODUCTION, STRIPE_API_PORT: "12111" }, "STRIPE_API_PORT: only for tests"],
    ] as const) {
      test(name, async () => {
        const { code, output } = await startServer(env);
        expect(code, output).toBe(1);
        expect(output).toContain(message);
      });
    }
  });

  test("local mode refuses to listen beyond this machine", async () => {
    const { code, output } = await startServer({ APP_ENV: "local", HOST: "0.0.0.0" });
    expect(code, output).toBe(1);
    expect(output).toContain("HOST: local mode listens on this machine only");
  });

  test("PAYMENTS=off starts without Stripe and hides the buy buttons", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "glow-payments-off-"));
    const server = tracked(
      spawn(process.execPath, ["scripts/start.mjs"], {
        env: {
          ...process.env,
          ...PRODUCTION,
          STRIPE_SECRET_KEY: "",
          STRIPE_WEBHOOK_SECRET: "",
          PAYMENTS: "off",
          PORT: String(PORT),
          HOST: "127.0.0.1",
          DATA_DIR: dataDir,
          TEST_CLOCK: "",
          ADMIN_EMAILS: "",
        },
        stdio: ["ignore", "pipe", "pipe"],
      }),
    );
    let output = "";
    server.stdout.on("data", (chunk) => (output += chunk));
    server.stderr.on("data", (chunk) => (output += chunk));
    try {
      await expect.poll(() => output, { timeout: 60_000 }).toContain("is listening on");
      const base = `http://127.0.0.1:${PORT}`;
      const offer = await fetch(`${base}/subscribe`);
      expect(offer.status).toBe(200);
      const html = await offer.text();
      expect(html).not.toContain('name="intent" value="checkout"');
      expect(html).toContain("not on sale right now");
      const form = new URLSearchParams({ intent: "checkout", planId: "monthly" });
      const bought = await fetch(`${base}/subscribe`, { method: "POST", body: form, redirect: "manual" });
      expect(bought.status).toBe(409);
      expect((await fetch(`${base}/checkout/test/cs_local_abcdefghijkl`)).status).toBe(404);
    } finally {
      server.kill("SIGTERM");
    }
  });
});

describe("start-up on a fresh data folder", () => {
  test("gives processes starting at once one and the same generated session secret", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "glow-secret-"));
    // Each process loads the module, then sleeps until the same instant to read its secret (a
    // timer, not a busy loop: six spinning processes would take the cores the others need).
    const startAt = Date.now() + 3000;
    const script = `import("./app/utils/env.server.ts").then((m) => setTimeout(() => console.log(m.parseEnv({ DATA_DIR: ${JSON.stringify(dataDir)} }).sessionSecret), ${startAt} - Date.now()))`;
    const read = () =>
      new Promise<string>((resolve, reject) =>
        execFile(process.execPath, ["--import", "tsx", "-e", script], (error, stdout) => (error ? reject(error) : resolve(stdout.trim()))),
      );
    const secrets = await Promise.all(Array.from({ length: 6 }, read));
    expect(new Set(secrets).size).toBe(1);
    expect(secrets[0]).toMatch(/^[0-9a-f]{64}$/);
  });
});
