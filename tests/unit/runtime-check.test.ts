import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { SUPPORTED_NODE, nodeVersionProblem, runtimeProblem, satisfiesCaretRanges } from "../../scripts/runtime-check.mjs";

const ciScript = fs.readFileSync(new URL("../../.ci/run", import.meta.url), "utf8");
/** The exact Node.js versions CI installs and tests on (NODE_22=22.23.3 …). */
const ciVersions = [...ciScript.matchAll(/^NODE_(\d+)=(\d+\.\d+\.\d+)$/gm)].map(([, line, version]) => ({ line: Number(line), version }));

describe("the runtime check", () => {
  it("supports the LTS lines package.json declares: 22.12+, 24 and 26 (ADR 30)", () => {
    expect(SUPPORTED_NODE).toBe("^22.12.0 || ^24.0.0 || ^26.0.0");
    for (const supported of ["v22.12.0", "v22.23.3", "v24.0.0", "v24.21.0", "v26.0.0", "v26.10.0"]) expect(nodeVersionProblem(supported)).toBeNull();
  });

  it("refuses older, odd-numbered and not yet released lines, naming the versions needed", () => {
    for (const refused of ["v18.0.0", "v20.20.2", "v22.11.0", "v23.11.0", "v25.2.0", "v27.0.0"]) {
      expect(nodeVersionProblem(refused)).toContain(
        `Glow Coach runs on Node.js 22 (22.12 or newer), 24 or 26 (24 recommended, see .nvmrc); this is Node.js ${refused}.`,
      );
    }
  });

  it("reads engines as npm does (caret ranges) and refuses a range it cannot read", () => {
    expect(satisfiesCaretRanges("v22.12.1", "^22.12.0")).toBe(true);
    expect(satisfiesCaretRanges("v22.11.9", "^22.12.0")).toBe(false);
    expect(satisfiesCaretRanges("v24.0.0", "^22.12.0")).toBe(false);
    expect(() => satisfiesCaretRanges("v24.0.0", ">=22")).toThrow(/caret ranges/);
  });

  it("is what CI tests: one exact version per declared line, and .nvmrc's among them", () => {
    const declaredLines = SUPPORTED_NODE.split("||").map((range: string) => Number(range.trim().slice(1).split(".")[0]));
    expect(ciVersions.map((each) => each.line)).toEqual(declaredLines);
    for (const { line, version } of ciVersions) {
      expect(version.startsWith(`${line}.`)).toBe(true);
      expect(nodeVersionProblem(`v${version}`)).toBeNull();
      // Each line's unit run in .ci/run uses that line's Node.
      expect(ciScript).toContain(`$NODE_${line}_BIN`);
    }
    const nvmrc = fs.readFileSync(new URL("../../.nvmrc", import.meta.url), "utf8").trim();
    expect(declaredLines).toContain(Number(nvmrc));
  });

  it("passes on the Node.js running the tests, whose better-sqlite3 loads", () => {
    expect(runtimeProblem()).toBeNull();
  });
});
