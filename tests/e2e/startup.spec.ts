import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "@playwright/test";
import { nodeVersionProblem } from "../../scripts/runtime-check.mjs";

// +29: the ports after it belong to the Sanity spec's servers.
const PORT = Number(process.env.E2E_PORT ?? 3210) + 29;

/** A production configuration that starts; tests take one setting away or add one. */
const PRODUCTION = {
  APP_ENV: "production",
  SESSION_SECRET: "s".repeat(40),
  PUBLIC_URL: `http://127.0.0.1:${PORT}`,
  STRIPE_SECRET_KEY: "sk_live_startupcheck",
  STRIPE_WEBHOOK_SECRET: "whsec_startupcheck",
  SMTP_URL: "smtp://127.0.0.1:1",
};

/** Starts the production server (or `script`) with the given environment and returns how it ended. */
function startServer(env: Record<string, string | undefined>, script = "server.mjs") {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "glow-startup-"));
  const result = spawnSync(process.execPath, [script], {
    env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", DATA_DIR: dataDir, PORT: String(PORT), ...env },
    encoding: "utf8",
    // A server that does start would run until killed: that is the failure this catches.
    timeout: 20_000,
  });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

/** Loads better-sqlite3 as if it had been built for another Node.js (see the fixture). */
const OTHER_NODE_BINARY = `--import=${pathToFileURL(path.resolve("tests/e2e/fixtures/native-module-for-another-node.mjs")).href}`;

test.describe("start-up configuration", () => {
  // One port for every server these tests start: one at a time.
  test.describe.configure({ mode: "serial" });

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
    const result = spawnSync("/usr/bin/node", ["scripts/start.mjs"], {
      env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", DATA_DIR: dataDir, PORT: String(PORT) },
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(`${result.stdout}${result.stderr}`).toContain(
      `Glow Coach runs on Node.js 22 (22.12 or newer), 24 or 26 (24 recommended, see .nvmrc); this is Node.js ${version}.`,
    );
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

  test.describe("production refuses to run open", () => {
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
      test(name, () => {
        const { code, output } = startServer(env);
        expect(code, output).toBe(1);
        expect(output).toContain(message);
      });
    }
  });

  test("local mode refuses to listen beyond this machine", () => {
    const { code, output } = startServer({ APP_ENV: "local", HOST: "0.0.0.0" });
    expect(code, output).toBe(1);
    expect(output).toContain("HOST: local mode listens on this machine only");
  });

  test("PAYMENTS=off starts without Stripe and hides the buy buttons", async ({ request }) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "glow-payments-off-"));
    const server = spawn(process.execPath, ["scripts/start.mjs"], {
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
    });
    let output = "";
    server.stdout.on("data", (chunk) => (output += chunk));
    server.stderr.on("data", (chunk) => (output += chunk));
    try {
      await expect.poll(() => output, { timeout: 60_000 }).toContain("is listening on");
      const base = `http://127.0.0.1:${PORT}`;
      const offer = await request.get(`${base}/subscribe`);
      expect(offer.status()).toBe(200);
      const html = await offer.text();
      expect(html).not.toContain('name="intent" value="checkout"');
      expect(html).toContain("not on sale right now");
      const bought = await request.post(`${base}/subscribe`, { form: { intent: "checkout", planId: "monthly" }, maxRedirects: 0 });
      expect(bought.status()).toBe(409);
      expect((await request.get(`${base}/checkout/test/cs_local_abcdefghijkl`)).status()).toBe(404);
    } finally {
      server.kill("SIGTERM");
    }
  });
});
