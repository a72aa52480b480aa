// The browser tests run in Debian's Chromium headless shell (Playwright cannot download its own
// browsers on these machines). It is the same Blink and V8 as the `chromium` package without
// the browser's window machinery, the build Playwright itself runs headless tests in; on these
// 2-core machines it takes about a third less CPU per test than full `chromium --headless`
// (ADR 36). Run before the e2e suite (`npm run test:e2e`): with no browser, it installs the
// package when it can (root with apt-get), otherwise it stops with one line saying how to get
// one, instead of every browser test failing on its own.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { pathToFileURL } from "node:url";

export const DEBIAN_CHROMIUM = "/usr/bin/chromium-headless-shell";
const DEBIAN_PACKAGE = "chromium-headless-shell";

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
    message: `The browser tests need Chromium at ${DEBIAN_CHROMIUM}: install it with \`sudo apt-get install ${DEBIAN_PACKAGE}\` (Debian/Ubuntu), or set CHROMIUM_PATH to a Chromium or Chrome binary.`,
  };
}

function main() {
  const configured = process.env.CHROMIUM_PATH || undefined;
  const browser = chromiumPath();
  const plan = browserPlan({ configured, exists: isExecutable(browser), isRoot: process.getuid?.() === 0, aptGet: !configured && hasAptGet() });
  if (plan.action === "use") return;
  if (plan.action === "stop") {
    console.error(plan.message);
    process.exit(1);
  }
  console.log(`Installing Debian's headless Chromium for the browser tests (apt-get install ${DEBIAN_PACKAGE})…`);
  const quiet = { env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" }, stdio: ["ignore", "ignore", "inherit"] };
  try {
    execFileSync("apt-get", ["update", "-qq"], quiet);
    execFileSync("apt-get", ["install", "-y", "-qq", DEBIAN_PACKAGE], quiet);
  } catch {
    // apt-get printed why.
  }
  if (!isExecutable(DEBIAN_CHROMIUM)) {
    console.error(
      `apt-get could not install ${DEBIAN_PACKAGE} (${DEBIAN_CHROMIUM} is still missing): install it by hand, or set CHROMIUM_PATH to a Chromium or Chrome binary.`,
    );
    process.exit(1);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) main();
