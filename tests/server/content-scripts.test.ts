/**
 * `npm run content:push` and `content:pull` as a marketer runs them: the command (scripts/content.ts,
 * through tsx) in a process of its own, against a local Sanity API (tests/unit/fake-sanity.ts).
 * What the commands do with the content (a round trip byte for byte, a second push writing
 * nothing, pictures and videos) is proven in-process by tests/unit/content-sync.test.ts; here,
 * the command's own wiring: its variables, its exit codes and what it prints.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { readEmbeddedDataset } from "~/content/embedded-dataset.server";
import { startFakeSanity } from "../unit/fake-sanity";

const run = promisify(execFile);
const tsx = path.resolve("node_modules/.bin/tsx");
const script = path.resolve("scripts/content.ts");

/** A copy of the content files only, so the commands can pull into it. */
const root = fs.mkdtempSync(path.join(os.tmpdir(), "glow-content-scripts-"));
fs.cpSync("content", path.join(root, "content"), { recursive: true });
fs.cpSync("funnels", path.join(root, "funnels"), { recursive: true });
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe("npm run content:push and content:pull", () => {
  it("refuse to run without the Sanity variables, naming them", async () => {
    const env = { ...process.env, SANITY_PROJECT_ID: "", SANITY_API_TOKEN: "" };
    const failure = await run(tsx, [script, "push"], { env, cwd: root }).catch((e) => e);
    expect(failure.code).toBe(2);
    expect(failure.stderr).toMatch(/SANITY_PROJECT_ID: is required/);
    expect(failure.stderr).toMatch(/SANITY_API_TOKEN: is required/);
  });

  it("work end to end against the API, and say so when the API refuses the token", async () => {
    const sanity = await startFakeSanity();
    try {
      const env = {
        ...process.env,
        SANITY_PROJECT_ID: sanity.projectId,
        SANITY_DATASET: sanity.dataset,
        SANITY_API_TOKEN: sanity.token,
        SANITY_API_HOST: sanity.url,
      };
      const count = readEmbeddedDataset().length;
      const push = await run(tsx, [script, "push"], { env, cwd: root });
      expect(push.stdout).toContain(`content:push to fakeproject/production: ${count} written, 0 unchanged`);
      const pull = await run(tsx, [script, "pull"], { env, cwd: root });
      expect(pull.stdout).toContain("content:pull from fakeproject/production: 0 files updated, 0 removed");
      // A wrong token is refused by the API, and the script says so instead of pretending.
      const refused = await run(tsx, [script, "push"], { env: { ...env, SANITY_API_TOKEN: "wrong" }, cwd: root }).catch((e) => e);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("content:push failed: Unauthorized - Session not found");
    } finally {
      await sanity.close();
    }
  });
});
