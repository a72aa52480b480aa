/**
 * The unit suite shares modules between files (vitest.config.ts). A file that sets the
 * environment before importing the app, replaces an app module or resets the module registry
 * must run in the fresh project instead: in the shared one it would be handed modules
 * already loaded with other settings, and pass or fail by the order files happen to run in.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import unitSuite, { FRESH_MODULE_FILES, POSTGRES_FILES } from "../../vitest.config";

const SETS_ENVIRONMENT = /process\.env\.[A-Z_]+\s*=[^=]|Object\.assign\(process\.env\b/;
const REPLACES_MODULES = /vi\.(mock|doMock|resetModules|stubEnv)\(/;
/** Setting the environment is safe in the shared pass only with the app's settings parsed again (reloadEnv). */
const needsFreshModules = (text: string) => REPLACES_MODULES.test(text) || (SETS_ENVIRONMENT.test(text) && !/\breloadEnv\(\)/.test(text));

describe("the unit suite's two projects", () => {
  it("give the fresh files a new thread each and let the shared ones share worker processes", () => {
    // vitest isolates by pool (the root's poolOptions), not by a project's own `isolate`.
    const projects = Object.fromEntries((unitSuite.test?.projects as { test: { name: string; pool: string } }[]).map((p) => [p.test.name, p.test.pool]));
    expect(projects).toEqual({ shared: "forks", fresh: "threads" });
    expect(unitSuite.test?.poolOptions).toMatchObject({ forks: { isolate: false }, threads: { isolate: true } });
  });

  it("run payments-fulfilment with shared modules on SQLite: it loads a second instance on PostgreSQL only", () => {
    const text = fs.readFileSync("tests/unit/payments-fulfilment.test.ts", "utf8");
    expect(text.match(/await secondInstance\(\)/g)).toEqual(["await secondInstance()"]);
    expect(text).toContain("if (onPostgres) other = await secondInstance();");
  });

  it("list every file that sets the environment or replaces modules among the fresh-modules files", () => {
    const files = fs
      .readdirSync("tests/unit")
      .filter((name) => name.endsWith(".test.ts"))
      .map((name) => path.posix.join("tests/unit", name));
    const needFresh = files.filter((file) => needsFreshModules(fs.readFileSync(file, "utf8")));
    expect(needFresh.filter((file) => !FRESH_MODULE_FILES.includes(file))).toEqual([]);
  });
});

/** App modules that write their own SQL or transactions (the Prisma client module itself aside: every test seeds with it). */
function modulesWithOwnSql(): string[] {
  return fs
    .readdirSync("app", { recursive: true, encoding: "utf8" })
    .filter((file) => /\.tsx?$/.test(file) && !file.startsWith("generated") && file !== path.join("utils", "db.server.ts"))
    .filter((file) => /from "~\/utils\/sql\.server"|\$transaction|\$queryRaw|\$executeRaw/.test(fs.readFileSync(path.join("app", file), "utf8")))
    .map(
      (file) =>
        `~/${file
          .split(path.sep)
          .join("/")
          .replace(/\.tsx?$/, "")}`,
    )
    .concat("~/utils/sql.server");
}

describe("the PostgreSQL stage's unit files", () => {
  it("list every file that tests a module with SQL of its own, and only files that exist", () => {
    const modules = modulesWithOwnSql();
    expect(modules).toContain("~/members/completions.server");
    const files = fs
      .readdirSync("tests/unit")
      .filter((name) => name.endsWith(".test.ts"))
      .map((name) => path.posix.join("tests/unit", name));
    const testsSql = files.filter((file) => {
      const text = fs.readFileSync(file, "utf8");
      return modules.some((module) => text.includes(`from "${module}"`) || text.includes(`import("${module}")`));
    });
    expect(testsSql.filter((file) => !POSTGRES_FILES.includes(file))).toEqual([]);
    expect(POSTGRES_FILES.filter((file) => !files.includes(file))).toEqual([]);
  });
});
