import fs from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { FRAMEWORK_PACKAGES, installedVersions, patchesFor } from "../../scripts/framework-deps.mjs";

const require = createRequire(import.meta.url);

describe("the framework packages (npm run deps:framework, ADR 30)", () => {
  it("finds each package's installed versions in package-lock.json", () => {
    const versions = installedVersions();
    expect([...versions.keys()]).toEqual(Object.keys(FRAMEWORK_PACKAGES));
    expect([...versions.get("turbo-stream")!]).toEqual(["2.4.1"]);
    expect(patchesFor("turbo-stream")).toEqual(["turbo-stream+2.4.1.patch"]);
  });

  it("has every patch in patches/ matching the installed version of its package", () => {
    // patch-package only warns when a patch no longer fits: an upgrade would silently drop a fix.
    for (const file of fs.readdirSync(new URL("../../patches", import.meta.url))) {
      const [, scopedName, version] = /^(.+)\+(\d+\.\d+\.\d+)\.patch$/.exec(file) ?? [];
      const name = scopedName.replace("+", "/");
      const installed = (require(`${name}/package.json`) as { version: string }).version;
      expect(`${name}@${installed}`).toBe(`${name}@${version}`);
    }
  });
});
