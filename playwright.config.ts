import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM_ARGS, chromiumPath } from "./scripts/e2e-browser.mjs";
import { E2E_PORT, e2ePort } from "./tests/e2e/ports";

const PORT = E2E_PORT;
/**
 * The suite runs against one instance on SQLite by default. The PostgreSQL stage of .ci/run
 * sets E2E_DATABASE_URL (a throwaway database: it is emptied) and E2E_INSTANCES=2: two
 * instances behind a round-robin proxy on PORT (tests/e2e/instances.mjs).
 */
const DATABASE_URL = process.env.E2E_DATABASE_URL || undefined;
const INSTANCES = Number(process.env.E2E_INSTANCES || 1);
// Servers the specs start themselves use SQLite files of their own, never a DATABASE_URL the
// shell happens to hold (the tests write to, and empty, the databases they use).
process.env.DATABASE_URL = "";
// The test run's own SMTP and OAuth servers (tests/e2e/global-setup.ts), next to the app's port.
const SMTP_PORT = Number(process.env.E2E_SMTP_PORT ?? e2ePort("smtp"));
const OAUTH_PORT = Number(process.env.E2E_OAUTH_PORT ?? e2ePort("oauth"));
export const E2E_DATA_DIR = "test-results/e2e-data";

// Debian's Chromium headless shell, or CHROMIUM_PATH (Playwright cannot download browsers here).
const chromium = { executablePath: chromiumPath(), args: CHROMIUM_ARGS };

const desktop = { ...devices["Desktop Chrome"], viewport: { width: 1280, height: 860 }, launchOptions: chromium };
const phone = { ...devices["Pixel 7"], launchOptions: chromium };

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: true,
  // The JSON report is where the minutes go: `node scripts/e2e-durations.mjs` sums it per spec.
  // E2E_REPORT names another file (the PostgreSQL stage of .ci/run keeps the main run's report).
  reporter: [["list"], ["json", { outputFile: process.env.E2E_REPORT || "test-results/e2e-report.json" }]],
  // Tests assert results, never speed: a machine busy with other work (stress-ng beside the
  // suite) takes two to three times as long as an idle one, which must not fail a test.
  timeout: 90_000,
  globalSetup: "./tests/e2e/global-setup.ts",
  // A failed test keeps its trace: actions, DOM snapshots, network, console. Not the screencast:
  // recording it made Chromium encode frames through every test, passed or not (funnels and
  // plans specs: 95–97 s with it, 63–73 s without, same machine, interleaved).
  use: { baseURL: `http://127.0.0.1:${PORT}`, trace: { mode: "retain-on-failure", screenshots: false } },
  // Every test runs on desktop with JavaScript. The other projects run only what differs in
  // them, by tag (tests/README.md): `@no-js` for forms that must work without scripts, `@phone`
  // for layout at phone width (phone-layout.spec.ts lays out every page there); phone-no-js runs
  // only `@phone-no-js`, the few pages whose phone chrome must work without scripts. A test
  // without a tag is about something a browser's width or scripts do not change (data, servers).
  projects: [
    { name: "desktop", use: desktop },
    { name: "phone", use: phone, grep: /@phone\b/ },
    { name: "desktop-no-js", use: { ...desktop, javaScriptEnabled: false }, grep: /@no-js\b/ },
    { name: "phone-no-js", use: { ...phone, javaScriptEnabled: false }, grep: /@phone-no-js\b/ },
  ],
  webServer: {
    // The production build (npm test builds first), on a fresh data folder and database.
    command: "node tests/e2e/instances.mjs",
    url: `http://127.0.0.1:${PORT}/`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: String(PORT),
      HOST: "127.0.0.1",
      DATA_DIR: E2E_DATA_DIR,
      APP_ENV: "local",
      SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
      GOOGLE_CLIENT_ID: "glow-e2e-client",
      GOOGLE_CLIENT_SECRET: "glow-e2e-secret",
      GOOGLE_ISSUER: `http://127.0.0.1:${OAUTH_PORT}`,
      TEST_CLOCK: "1",
      TRUST_PROXY: "1",
      // Every test browser shares 127.0.0.1; the limit itself is unit-tested.
      REQUEST_LIMIT_PER_MINUTE: "100000",
      ADMIN_EMAILS: "admin@glowcoach.test,owner-claim@glowcoach.test",
      E2E_INSTANCES: String(INSTANCES),
      DATABASE_URL: DATABASE_URL ?? "",
    },
  },
});
