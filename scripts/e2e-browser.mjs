// The browser tests run in Debian's Chromium headless shell (Playwright cannot download its own
// browsers on these machines). It is the same Blink and V8 as the `chromium` package without
// the browser's window machinery, the build Playwright itself runs headless tests in; on these
// 2-core machines it takes about a third less CPU per test than full `chromium --headless`
// (ADR 36); the full browser runs the one spec the shell cannot (below). Run before the e2e
// suite (`npm run test:e2e`): with no browser, it installs the packages when it can (root with apt-get), otherwise it stops with one line saying how to get
// one, instead of every browser test failing on its own.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { pathToFileURL } from "node:url";

export const DEBIAN_CHROMIUM = "/usr/bin/chromium-headless-shell";
// Both come from these packages: the shell for every spec, the full browser for the Stripe one.
const DEBIAN_PACKAGES = ["chromium-headless-shell", "chromium"];

/**
 * Debian's full Chromium, for the one spec the headless shell cannot run: the shell does not let
 * Playwright intercept a redirect to another site (the server's 303 to Stripe's hosted pages,
 * which the Stripe-mode tests stand in for; it fails with ERR_NAME_NOT_RESOLVED instead).
 */
export const DEBIAN_FULL_CHROMIUM = "/usr/bin/chromium";

/** The switches every test browser starts with (playwright.config.ts). */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

/** The full browser: CHROMIUM_PATH when set (one browser for everything), else Debian's chromium. */
export function fullChromiumPath(env = process.env) {
  return env.CHROMIUM_PATH || DEBIAN_FULL_CHROMIUM;
}

/**
 * The browser the e2e suite launches: CHROMIUM_PATH, else Debian's headless shell.
 * @param {Record<string, string | undefined>} [env]
 */
export function chromiumPath(env = process.env) {
  return env.CHROMIUM_PATH || DEBIAN_CHROMIUM;
}

function isExecutable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function hasAptGet() {
  try {
    execFileSync("apt-get", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/**
 * What to do about the browser: use it, install Debian's chromium, or stop with a message.
 * Pure, so every case is tested; `main` below supplies the facts.
 */
export function browserPlan({ configured, exists, isRoot, aptGet }) {
  if (exists) return { action: "use" };
  if (configured) {
    return {
      action: "stop",
      message: `CHROMIUM_PATH=${configured} is not an executable file: point it at a Chromium or Chrome binary, or unset it to use Debian's headless Chromium (${DEBIAN_CHROMIUM}).`,
    };
  }
  if (isRoot && aptGet) return { action: "install" };
  return {
    action: "stop",
    message: `The browser tests need Chromium at ${DEBIAN_CHROMIUM} and ${DEBIAN_FULL_CHROMIUM}: install them with \`sudo apt-get install ${DEBIAN_PACKAGES.join(" ")}\` (Debian/Ubuntu), or set CHROMIUM_PATH to a Chromium or Chrome binary.`,
  };
}

function main() {
  const configured = process.env.CHROMIUM_PATH || undefined;
  const browsers = [chromiumPath(), fullChromiumPath()];
  const plan = browserPlan({ configured, exists: browsers.every(isExecutable), isRoot: process.getuid?.() === 0, aptGet: !configured && hasAptGet() });
  if (plan.action === "use") return;
  if (plan.action === "stop") {
    console.error(plan.message);
    process.exit(1);
  }
  console.log(`Installing Debian's Chromium for the browser tests (apt-get install ${DEBIAN_PACKAGES.join(" ")})…`);
  const quiet = { env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" }, stdio: ["ignore", "ignore", "inherit"] };
  try {
    execFileSync("apt-get", ["update", "-qq"], quiet);
    execFileSync("apt-get", ["install", "-y", "-qq", ...DEBIAN_PACKAGES], quiet);
  } catch {
    // apt-get printed why.
  }
  const missing = browsers.filter((file) => !isExecutable(file));
  if (missing.length) {
    console.error(
      `apt-get could not install ${DEBIAN_PACKAGES.join(" ")} (${missing.join(" and ")} still missing): install them by hand, or set CHROMIUM_PATH to a Chromium or Chrome binary.`,
    );
    process.exit(1);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) main();
