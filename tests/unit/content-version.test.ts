/**
 * One content version for every instance: a publish that reaches one instance (the Sanity
 * webhook) clears the caches of every other one when it next checks. Two instances are two
 * copies of the app's modules in this process, sharing the test database.
 */
import { beforeAll, describe, expect, it, vi } from "vitest";

type Instance = {
  version: typeof import("~/content/content-version.server");
  content: typeof import("~/content/content.server");
  pages: typeof import("~/funnels/page-cache.server");
};

async function loadInstance(): Promise<Instance> {
  vi.resetModules();
  return {
    version: await import("~/content/content-version.server"),
    content: await import("~/content/content.server"),
    pages: await import("~/funnels/page-cache.server"),
  };
}

const cachedPage = (instance: Instance) =>
  instance.pages.rememberPage("/quiz/3", instance.pages.markReusable({} as never), Buffer.from("<html>cached</html>"), "nonce", null);

let a: Instance;
let b: Instance;
beforeAll(async () => {
  a = await loadInstance();
  b = await loadInstance();
  vi.spyOn(console, "log").mockImplementation(() => {});
  // Each instance learns the version its caches belong to.
  await a.version.checkContentVersion();
  await b.version.checkContentVersion();
});

describe("content version", () => {
  it("a publish on one instance clears the other's content and page caches at its next check", async () => {
    cachedPage(b);
    expect(b.pages.cachedPageCount()).toBe(1);
    const generation = b.content.contentGeneration();
    const before = await a.version.storedContentVersion();

    await a.version.publishContentChange(new Date());
    expect(await a.version.storedContentVersion()).toBe(before + 1);
    // Instance B has not looked yet: its caches still hold the old content.
    expect(b.pages.cachedPageCount()).toBe(1);

    expect(await b.version.checkContentVersion()).toBe(true);
    expect(b.pages.cachedPageCount()).toBe(0);
    expect(b.content.contentGeneration()).toBe(generation + 1);
  });

  it("clears the publishing instance's own caches at once, and not again at its next check", async () => {
    cachedPage(a);
    const generation = a.content.contentGeneration();
    await a.version.publishContentChange(new Date());
    expect(a.pages.cachedPageCount()).toBe(0);
    expect(a.content.contentGeneration()).toBe(generation + 1);
    cachedPage(a);
    expect(await a.version.checkContentVersion()).toBe(false);
    expect(a.pages.cachedPageCount()).toBe(1);
  });

  it("leaves caches alone while nothing was published", async () => {
    await b.version.checkContentVersion();
    cachedPage(b);
    const generation = b.content.contentGeneration();
    expect(await b.version.checkContentVersion()).toBe(false);
    expect(b.pages.cachedPageCount()).toBe(1);
    expect(b.content.contentGeneration()).toBe(generation);
  });

  it("publishes sent at once to several instances each count: none is lost", async () => {
    const before = await a.version.storedContentVersion();
    await Promise.all([a.version.publishContentChange(new Date()), b.version.publishContentChange(new Date()), a.version.publishContentChange(new Date())]);
    expect(await a.version.storedContentVersion()).toBe(before + 3);
  });
});
