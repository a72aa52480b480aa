/**
 * The browser check before the e2e suite: without Chromium, `npm run test:e2e` installs
 * Debian's headless Chromium when it can, and otherwise stops at once with one line saying how to
 * get a browser (instead of running every browser test into "executable doesn't exist").
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { browserPlan, chromiumPath, DEBIAN_CHROMIUM } from "../../scripts/e2e-browser.mjs";

describe("the e2e browser", () => {
  it("is CHROMIUM_PATH, else Debian's headless shell", () => {
    expect(chromiumPath({})).toBe(DEBIAN_CHROMIUM);
    expect(chromiumPath({ CHROMIUM_PATH: "" })).toBe(DEBIAN_CHROMIUM);
    expect(chromiumPath({ CHROMIUM_PATH: "/opt/chrome/chrome" })).toBe("/opt/chrome/chrome");
  });

  it("is used when present, installed by root with apt-get, and otherwise explained in one line", () => {
    expect(browserPlan({ configured: undefined, exists: true, isRoot: false, aptGet: false })).toEqual({ action: "use" });
    expect(browserPlan({ configured: undefined, exists: false, isRoot: true, aptGet: true })).toEqual({ action: "install" });
    for (const facts of [
      { isRoot: false, aptGet: true },
      { isRoot: true, aptGet: false },
    ]) {
      const plan = browserPlan({ configured: undefined, exists: false, ...facts });
      expect(plan.action).toBe("stop");
      expect(plan.message).toContain("apt-get install chromium-headless-shell chromium");
      expect(plan.message).toContain("CHROMIUM_PATH");
      expect(plan.message).not.toContain("\n");
    }
    // A browser the person chose is never replaced by an install.
    const chosen = browserPlan({ configured: "/opt/missing/chrome", exists: false, isRoot: true, aptGet: true });
    expect(chosen.action).toBe("stop");
    expect(chosen.message).toContain("CHROMIUM_PATH=/opt/missing/chrome is not an executable file");
  });

  it("npm run test:e2e without the browser stops at once with one line, running no test", () => {
    const started = Date.now();
    const run = spawnSync("npm", ["run", "--silent", "test:e2e"], {
      env: { ...process.env, CHROMIUM_PATH: "/nonexistent/chromium" },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(Date.now() - started).toBeLessThan(15_000);
    const lines = `${run.stdout}${run.stderr}`.split("\n").filter((line) => line.trim() && !line.startsWith("npm warn"));
    expect(lines).toEqual([expect.stringContaining("CHROMIUM_PATH=/nonexistent/chromium is not an executable file")]);
  });
});
