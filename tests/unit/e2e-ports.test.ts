/**
 * Every server the browser suite starts listens on ports of its own (tests/e2e/ports.ts). Two
 * specs on one port, run at once by two workers, each find the other's server answering their
 * start check: instances.spec.ts once started its second instance before the first had
 * migrated (missing tables), because experiments.spec.ts's server answered on the first's port.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { E2E_PORT_RANGES } from "../e2e/ports";

describe("the browser suite's ports", () => {
  it("give every server a range of its own, below the server suite's (50 above E2E_PORT)", () => {
    const taken = new Map<number, string>();
    const shared: string[] = [];
    for (const [name, { offset, count }] of Object.entries(E2E_PORT_RANGES)) {
      for (let port = offset; port < offset + count; port++) {
        if (taken.has(port)) shared.push(`+${port}: ${taken.get(port)} and ${name}`);
        taken.set(port, name);
      }
    }
    expect(shared).toEqual([]);
    expect(Math.max(...taken.keys())).toBeLessThan(50);
  });

  it("are taken from that one table: no spec or helper adds its own offset to E2E_PORT", () => {
    const own = fs
      .readdirSync("tests/e2e")
      .filter((name) => /\.(ts|mjs)$/.test(name) && name !== "ports.ts")
      .map((name) => path.posix.join("tests/e2e", name))
      .concat("playwright.config.ts")
      .filter((file) => /E2E_PORT\s*\?\?/.test(fs.readFileSync(file, "utf8")));
    expect(own).toEqual([]);
  });
});
