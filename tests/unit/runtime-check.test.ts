import { describe, expect, it } from "vitest";
import { nodeVersionProblem, runtimeProblem } from "../../scripts/runtime-check.mjs";

describe("the runtime check", () => {
  it("accepts Node 22.12 and newer, and names the versions needed otherwise", () => {
    for (const supported of ["v22.12.0", "v22.23.3", "v24.0.0", "v24.21.0", "v26.1.0"]) expect(nodeVersionProblem(supported)).toBeNull();
    for (const old of ["v20.20.2", "v22.11.0", "v18.0.0"]) {
      expect(nodeVersionProblem(old)).toContain(`Glow Coach needs Node.js 22.12 or newer (24 recommended, see .nvmrc); this is Node.js ${old}.`);
    }
  });

  it("passes on the Node.js running the tests, whose better-sqlite3 loads", () => {
    expect(runtimeProblem()).toBeNull();
  });
});
