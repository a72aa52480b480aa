/**
 * Per-person pages answered from memory before Express and Remix (serveStoredPage): a stored
 * page is what a fresh render gives, with only its slots (nonce, countdown) differing, and it
 * is answered only to the same request while nothing it shows changed: the member's data
 * (database triggers), the content (a publish), the member's day, the visitor's experiment
 * variant, the session. The full path here is the real one minus Remix's rendering: the real
 * load context, the real loaders (which opt in), and entry.server's keep rule (pageToKeep,
 * keepPage); the page's HTML is the loader data with the nonce and the countdown placed as
 * the real page places them. tests/server/headers.test.ts checks the real pipeline.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { ResolvedExperiment } from "~/content-model/experiment";

// The experiments the content holds, as each test sets them (a spy: the modules are shared with other files).
const content = { experiments: [] as ResolvedExperiment[] };
const contentModule = await import("~/content/content.server");
const experimentsInContent = vi.spyOn(contentModule, "getExperiments").mockImplementation(async () => content.experiments);
afterAll(() => experimentsInContent.mockRestore());

const { serveStoredPage, pageToKeep, keepPage, forgetPersonalPages, STORED_PAGE_TIMING } = await import("~/render/stored-pages.server");
const { currentPageRecord } = await import("~/utils/page-record.server");
const { getLoadContext } = await import("~/load-context.server");
const { documentHeaders } = await import("~/security/headers.server");
const { countdownDuration, durationSeconds, formatCountdown } = await import("~/billing/catalogue");
const { publishContentChange } = await import("~/content/content-version.server");
const { startSession } = await import("~/auth/session.server");
const { toSessionUser } = await import("~/auth/users.server");
const { visitorIdOf } = await import("~/analytics/visitor.server");
const { flushEvents } = await import("~/analytics/event-batch.server");
const { db } = await import("~/utils/db.server");
const { grantPlan } = await import("./helpers");
const { recordCompletion } = await import("~/members/completions.server");
const home = await import("~/routes/home");
const profile = await import("~/routes/profile");
const { offerRouteLoader } = await import("~/payments/offer-route.server");

type Loader = (args: never) => Promise<unknown>;
/** The loaders of the pages these tests open (an offer's is the one every offer address uses). */
const LOADERS: Record<string, Loader> = {
  "/home": home.loader as Loader,
  "/profile": profile.loader as Loader,
  "/subscribe": ((args: LoaderFunctionArgs) => offerRouteLoader(args, "/subscribe")) as Loader,
  "/sales": ((args: LoaderFunctionArgs) => offerRouteLoader(args, "/sales")) as Loader,
};

/** How many times the full path rendered a page (the rest came from memory). */
let renders = 0;

/** The page's HTML: its data in a script, and the countdown where the offer page shows it. */
function page(loaderData: Record<string, unknown>, nonce: string): string {
  const countdown = typeof loaderData.countdown === "string" ? loaderData.countdown : null;
  const seconds = durationSeconds(countdown);
  const clock =
    countdown && seconds !== null ? `<p>Offer ends in <time dateTime="${countdown}" data-countdown="true">${formatCountdown(seconds)}</time></p>` : "";
  return `<!DOCTYPE html><html><head><style nonce="${nonce}">p{}</style></head><body>${clock}<script nonce="${nonce}">window.__data=${JSON.stringify(loaderData)}</script></body></html>`;
}

/** Express and Remix for the pages above, as entry.server keeps what they render. */
async function fullPath(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  renders++;
  const url = new URL(req.url ?? "/", "http://localhost");
  const request = new Request(url, { headers: req.headers.cookie ? { Cookie: req.headers.cookie } : {} });
  const context = await getLoadContext(req, res);
  let result: unknown;
  try {
    result = await LOADERS[decodeURIComponent(url.pathname)]({ request, params: {}, context } as never);
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    res.writeHead(thrown.status, { Location: thrown.headers.get("Location") ?? "" });
    return void res.end();
  }
  const wrapped = result && typeof result === "object" && "init" in result && "data" in result;
  const loaderData = (wrapped ? (result as { data: Record<string, unknown> }).data : result) as Record<string, unknown>;
  const responseHeaders = new Headers(wrapped ? ((result as { init: ResponseInit | null }).init?.headers ?? undefined) : undefined);
  const nonce = context.cspNonce;
  const html = page(loaderData, nonce);
  const keep = pageToKeep({ record: currentPageRecord(), request, status: 200, responseHeaders, storable: true });
  if (keep) keepPage(keep, { html: Buffer.from(html), nonce });
  for (const [name, value] of Object.entries(documentHeaders(nonce))) responseHeaders.set(name, value);
  const headers: Record<string, string | string[]> = Object.fromEntries(responseHeaders);
  const setCookies = [res.getHeader("Set-Cookie") ?? [], responseHeaders.getSetCookie()].flat().map(String);
  if (setCookies.length) headers["Set-Cookie"] = setCookies;
  res.writeHead(200, headers);
  res.end(html);
}

let server: http.Server;
let origin: string;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    void serveStoredPage(req, res, () => {
      fullPath(req, res).catch((error) => {
        res.writeHead(500);
        res.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  content.experiments = [];
  renders = 0;
  forgetPersonalPages();
  vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-06-10T12:00:00Z") });
});
afterEach(() => vi.useRealTimers());

/** A browser: its cookies, kept from every answer. */
class Browser {
  cookies = new Map<string, string>();
  constructor(cookies: string[] = []) {
    this.take(cookies);
  }
  take(setCookies: string[]) {
    for (const cookie of setCookies) {
      const [pair] = cookie.split(";");
      const at = pair.indexOf("=");
      this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
  }
  cookieHeader() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
  async get(path: string) {
    const cookie = this.cookieHeader();
    const before = renders;
    const response = await fetch(`${origin}${path}`, { headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" });
    this.take(response.headers.getSetCookie());
    const body = await response.text();
    const stored = response.headers.get("Server-Timing") === STORED_PAGE_TIMING;
    // A page comes either from memory or from the full path, never both.
    expect(stored).toBe(renders === before);
    return { status: response.status, headers: response.headers, body, stored, nonce: /nonce="([^"]+)"/.exec(body)?.[1] };
  }
}

async function member(name: string) {
  const user = toSessionUser(await db.user.create({ data: { email: `${name}-${crypto.randomUUID()}@glowcoach.test`, emailVerifiedAt: new Date(), name } }));
  await grantPlan(user.id, "clear-healthy-skin");
  return { user, browser: new Browser([await startSession(user.id, "full")]) };
}

/** A page seen until it is kept and then answered from memory. */
async function storedPage(browser: Browser, path: string) {
  for (let i = 0; i < 4; i++) {
    const seen = await browser.get(path);
    if (seen.stored) return seen;
  }
  throw new Error(`${path} was never answered from memory`);
}

const withoutNonce = (body: string, nonce: string | undefined) => body.replaceAll(nonce ?? "\u0000", "NONCE");

describe("a stored page", () => {
  it("is byte for byte the page a fresh render gives, with a fresh nonce, and the full path's headers", async () => {
    const { browser } = await member("Ana");
    const stored = await storedPage(browser, "/home");
    expect(stored.body).toContain('"signedIn":true');
    forgetPersonalPages();
    const fresh = await browser.get("/home");
    expect(fresh.stored).toBe(false);
    expect(stored.nonce).not.toBe(fresh.nonce);
    expect(stored.body).not.toContain(fresh.nonce);
    expect(withoutNonce(stored.body, stored.nonce)).toBe(withoutNonce(fresh.body, fresh.nonce));
    for (const name of ["Cache-Control", "Content-Type"]) expect(stored.headers.get(name)).toBe(fresh.headers.get(name));
    expect(stored.headers.get("Cache-Control")).toBe("private, no-store");
    expect(stored.headers.get("Content-Security-Policy")).toBe(fresh.headers.get("Content-Security-Policy")!.replace(fresh.nonce!, stored.nonce!));
    expect(stored.headers.get("Set-Cookie")).toBeNull();
  });

  it("of an offer counts down like a fresh render, and counts each view", async () => {
    const visitor = new Browser();
    const first = await visitor.get("/subscribe");
    const shown = durationSeconds(/dateTime="(PT\d+S)"/.exec(first.body)![1])!;
    expect(shown).toBeGreaterThan(60);
    await storedPage(visitor, "/subscribe");
    vi.setSystemTime(Date.now() + 7000);
    await flushEvents();
    const viewsBefore = await db.analyticsEvent.count({ where: { name: "offer_viewed" } });
    const stored = await visitor.get("/subscribe");
    expect(stored.stored).toBe(true);
    await flushEvents();
    expect(await db.analyticsEvent.count({ where: { name: "offer_viewed" } })).toBe(viewsBefore + 1);
    forgetPersonalPages();
    const fresh = await visitor.get("/subscribe");
    expect(fresh.stored).toBe(false);
    expect(withoutNonce(stored.body, stored.nonce)).toBe(withoutNonce(fresh.body, fresh.nonce));
    expect(stored.body).toContain(`dateTime="${countdownDuration(shown - 7)}"`);
    expect(stored.body).toContain(`>${formatCountdown(shown - 7)}</time>`);
  });
});

describe("a stored page is not answered", () => {
  it("after the member's data changed (a database trigger moves their version)", async () => {
    const { user, browser } = await member("Bea");
    await storedPage(browser, "/profile");
    await grantPlan(user.id, "crease-free");
    const after = await browser.get("/profile");
    expect(after.stored).toBe(false);
    expect(after.body).toContain("Crease-Free Makeup");
    await db.user.update({ where: { id: user.id }, data: { name: "Beatrice" } });
    expect((await browser.get("/profile")).stored).toBe(false);
  });

  it("after the member finished another plan's routine: /home of the followed plan shows the person's streak", async () => {
    const { user, browser } = await member("Gia");
    await grantPlan(user.id, "crease-free");
    await db.user.update({ where: { id: user.id }, data: { activePlanId: "crease-free" } });
    const before = await storedPage(browser, "/home");
    expect(before.body).toContain('"name":"Crease-Free Makeup"');
    expect(before.body).toContain('"currentStreak":0');
    // The plan not followed: one completion of a member moves their whole version, whichever plan.
    await recordCompletion(user.id, "clear-healthy-skin", "2026-06-10", new Date(), 0);
    const after = await browser.get("/home");
    expect(after.stored).toBe(false);
    expect(after.body).toContain('"name":"Crease-Free Makeup"');
    expect(after.body).toContain('"currentStreak":1');
  });

  it("after a content publish", async () => {
    const { browser } = await member("Cleo");
    await storedPage(browser, "/home");
    await publishContentChange(new Date());
    expect((await browser.get("/home")).stored).toBe(false);
    expect((await browser.get("/home")).stored).toBe(true);
  });

  it("on the member's next day", async () => {
    const { browser } = await member("Dana");
    await storedPage(browser, "/home");
    vi.setSystemTime(new Date("2026-06-10T23:59:58Z"));
    expect((await browser.get("/home")).stored).toBe(true);
    vi.setSystemTime(new Date("2026-06-11T00:00:01Z"));
    expect((await browser.get("/home")).stored).toBe(false);
  });

  it("to anyone else: another member, the same browser signed out, or a forged session cookie", async () => {
    const ana = await member("Ana");
    const eve = await member("Eve");
    const anaPage = await storedPage(ana.browser, "/profile");
    expect(anaPage.body).toContain(`"email":"${ana.user.email}"`);
    const evePage = await eve.browser.get("/profile");
    expect(evePage.stored).toBe(false);
    expect(evePage.body).toContain(`"email":"${eve.user.email}"`);
    expect(evePage.body).not.toContain(ana.user.email);
    // Ana's other cookies with a session cookie that is not signed by us: rendered, signed out.
    const forged = new Browser();
    forged.cookies = new Map(ana.browser.cookies);
    forged.cookies.set("gc_session", "forged.value");
    const forgedPage = await forged.get("/profile");
    expect(forgedPage.stored).toBe(false);
    expect(forgedPage.status).toBe(302);
    // Signed out elsewhere (the session row gone): the same cookies are sent to sign in.
    await db.session.deleteMany({ where: { userId: ana.user.id } });
    const signedOut = await ana.browser.get("/profile");
    expect(signedOut.stored).toBe(false);
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("Location")).toMatch(/^\/login/);
  });

  it("under another spelling of its path than the router's (/h%6Fme): rendered every time, no copy kept per spelling", async () => {
    const { browser } = await member("Gia");
    await storedPage(browser, "/home");
    for (let i = 0; i < 3; i++) {
      const spelled = await browser.get("/h%6Fme");
      expect(spelled.stored).toBe(false);
      expect(spelled.status).toBe(200);
    }
    expect((await browser.get("/home")).stored).toBe(true);
  });

  it("to a first visit (it sets the visitor cookie), or with a preview of drafts", async () => {
    // No cookies at all: every request renders (and sets a visitor cookie).
    for (let i = 0; i < 3; i++) {
      const first = await new Browser().get("/home");
      expect(first.stored).toBe(false);
      expect(first.headers.getSetCookie().some((cookie) => cookie.startsWith("gc_vid="))).toBe(true);
    }
    const { browser } = await member("Fay");
    await storedPage(browser, "/home");
    browser.cookies.set("gc_preview", "x");
    expect((await browser.get("/home")).stored).toBe(false);
  });

  it("across experiment variants: each visitor gets their own variant's page, until the experiment stops", async () => {
    const experiment: ResolvedExperiment = {
      _id: "experiment-stored-price",
      _type: "experiment",
      experimentId: `stored-price-${crypto.randomUUID().slice(0, 8)}`,
      name: "Crease-free price",
      status: "running",
      kind: "offer",
      offer: "crease-free",
      variants: [
        { key: "control", name: "$29.99", weight: 50 },
        { key: "lower", name: "$24.99", weight: 50, offer: { plans: [{ id: "lifetime", priceMinor: 2499 }] } },
      ],
    };
    content.experiments = [experiment];
    await publishContentChange(new Date());
    const visitors: Record<string, Browser> = {};
    for (const key of ["control", "lower"]) {
      for (;;) {
        const visitor = new Browser();
        await visitor.get("/sales");
        const visitorId = await visitorIdOf(visitor.cookieHeader());
        const mine = await db.experimentAssignment.findFirst({ where: { experimentId: experiment.experimentId, visitorId: visitorId! } });
        if (mine?.variant === key) {
          visitors[key] = visitor;
          break;
        }
      }
    }
    const control = await storedPage(visitors.control, "/sales");
    const lower = await storedPage(visitors.lower, "/sales");
    expect(control.body).toContain(`"variant":"${experiment.experimentId}:control"`);
    expect(lower.body).toContain(`"variant":"${experiment.experimentId}:lower"`);
    expect(lower.body).toContain('"price":"$24.99"');
    expect(control.body).toContain('"price":"$29.99"');
    // Stopped: a publish, and everyone sees the offer as written.
    content.experiments = [{ ...experiment, status: "stopped" }];
    await publishContentChange(new Date());
    const after = await visitors.lower.get("/sales");
    expect(after.stored).toBe(false);
    expect(after.body).toContain('"variant":null');
    expect(after.body).toContain('"price":"$29.99"');
  });
});
