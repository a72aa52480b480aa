/**
 * A page that may be answered from memory declares what it is rendered from (pageMayBeStored,
 * beside its loader); the stored copy follows exactly those inputs (stored-pages.server.ts). So
 * a render must read no table its declaration does not name: these tests run each such page's
 * data work as the full path does (load context, root loader, the page's own loader) with every
 * database statement watched, and compare. A loader that starts reading another table fails
 * here, and such a render is not kept (it would be served stale when that table changes).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { newPageRecord, runRecorded, undeclaredReads, pageMayBeStored, type PageRecord } from "~/utils/page-record.server";
import { pageToKeep } from "~/render/stored-pages.server";
import { getLoadContext } from "~/load-context.server";
import { identifyVisitor } from "~/analytics/visitor.server";
import { startSession } from "~/auth/session.server";
import { recordCompletion } from "~/members/completions.server";
import { db } from "~/utils/db.server";
import * as root from "~/root";
import * as home from "~/routes/home";
import * as player from "~/routes/plan.$id";
import * as profile from "~/routes/profile";
import * as contentRoute from "~/routes/$funnel.($step)";
import { grantPlan } from "./helpers";

type Loader = (args: never) => Promise<unknown>;

/** The full path's data work for `path`, as one recorded request: what the page record saw. */
async function render(path: string, cookie: string, loader: Loader, params: Record<string, string> = {}): Promise<{ record: PageRecord; status: number }> {
  const record = newPageRecord({ key: path, generation: 0, member: null });
  const status = await runRecorded(record, async () => {
    const req = { method: "GET", url: path, headers: { cookie, host: "localhost" }, socket: { remoteAddress: "127.0.0.1" } } as unknown as IncomingMessage;
    const res = { appendHeader: () => undefined } as unknown as ServerResponse;
    const context = await getLoadContext(req, res);
    const request = new Request(new URL(path, "http://localhost"), { headers: { Cookie: cookie } });
    const args = { request, params, context } as never;
    try {
      await Promise.all([(root.loader as Loader)(args), loader(args)]);
      return 200;
    } catch (thrown) {
      if (thrown instanceof Response) return thrown.status;
      throw thrown;
    }
  });
  return { record, status };
}

function kept(record: PageRecord, path: string): boolean {
  return pageToKeep({ record, request: new Request(new URL(path, "http://localhost")), status: 200, responseHeaders: new Headers(), storable: true }) !== null;
}

async function memberCookie(name: string): Promise<string> {
  const user = await db.user.create({ data: { email: `${name}-${crypto.randomUUID()}@glowcoach.test`, emailVerifiedAt: new Date(), name } });
  await grantPlan(user.id, "clear-healthy-skin");
  await recordCompletion(user.id, "clear-healthy-skin", new Date().toISOString().slice(0, 10), new Date(), 0);
  const session = (await startSession(user.id, "full")).split(";")[0];
  const visitor = (await identifyVisitor(null)).setCookie!.split(";")[0];
  return `${session}; ${visitor}; gc_tz=Europe%2FBerlin`;
}

describe("a page kept in memory reads only what it declares", () => {
  const pages: [string, Loader, Record<string, string>][] = [
    ["/home", home.loader as Loader, {}],
    ["/plan/clear-healthy-skin", player.loader as Loader, { id: "clear-healthy-skin" }],
    ["/profile", profile.loader as Loader, {}],
    ["/subscribe", contentRoute.loader as Loader, { funnel: "subscribe" }],
  ];
  for (const [path, loader, params] of pages) {
    it(`${path} for a signed-in member`, async () => {
      const cookie = await memberCookie("Reads");
      await render(path, cookie, loader, params); // first view: assignments, views written
      const { record, status } = await render(path, cookie, loader, params);
      expect(status).toBe(200);
      expect(record.declared).not.toBeNull();
      expect([...record.tablesRead].length).toBeGreaterThan(0);
      expect(undeclaredReads(record)).toEqual([]);
      expect(kept(record, path)).toBe(true);
    });
  }

  it("/subscribe for a visitor", async () => {
    const cookie = (await identifyVisitor(null)).setCookie!.split(";")[0];
    const loader = contentRoute.loader as Loader;
    await render("/subscribe", cookie, loader, { funnel: "subscribe" });
    const { record } = await render("/subscribe", cookie, loader, { funnel: "subscribe" });
    expect(undeclaredReads(record)).toEqual([]);
    expect(kept(record, "/subscribe")).toBe(true);
  });
});

describe("a render that reads a table its declaration does not name", () => {
  it("is not kept, and the table is named", async () => {
    const cookie = await memberCookie("Undeclared");
    // /home's loader, and one read more: a table /home does not declare.
    const readsMore: Loader = async (args: never) => {
      const page = await (home.loader as Loader)(args);
      await db.adConversion.count();
      return page;
    };
    await render("/home", cookie, home.loader as Loader); // first view: what it writes
    const { record, status } = await render("/home", cookie, readsMore);
    expect(status).toBe(200);
    expect(record.sideEffects).toEqual([]);
    expect(undeclaredReads(record)).toEqual(["AdConversion"]);
    expect(kept(record, "/home")).toBe(false);
  });

  it("is not kept when it reads the clock without declaring it", async () => {
    const cookie = await memberCookie("Clock");
    const noClock: Loader = async (args: never) => {
      const page = await (home.loader as Loader)(args);
      pageMayBeStored([
        "url",
        "cookies",
        "content",
        "member:User",
        "member:Session",
        "member:Entitlement",
        "member:EntitlementState",
        "member:MemberAnswers",
        "member:PlanCompletion",
        "member:PlanStepCompletion",
      ]);
      return page;
    };
    await render("/home", cookie, home.loader as Loader);
    const { record } = await render("/home", cookie, noClock);
    expect(record.sideEffects).toEqual([]);
    expect(undeclaredReads(record)).toEqual([]);
    expect(kept(record, "/home")).toBe(false);
  });
});
