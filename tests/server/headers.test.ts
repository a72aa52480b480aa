/**
 * What every response carries (nonce CSP, no framing, nosniff, `Cache-Control: private,
 * no-store`, gzipped scripts), and pages answered from memory (ADR 26): per-person pages and
 * funnel pages kept after a render are that render but for the nonce, never another person's,
 * private and uncached. Request-level: one server for the file, no browser. That the CSP lets
 * our scripts run in a browser is security-headers.spec.ts; a stored player page in a browser
 * is stored-pages.spec.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startAppServer, type AppServer } from "./app-server";
import { SERVER_PORTS } from "./ports";
import { killLeftovers } from "./processes";
import { signInMember, Visitor, type Answer } from "./visitor";

let server: AppServer;
const visitor = () => new Visitor(server.origin);

beforeAll(async () => {
  server = await startAppServer({ name: "headers", port: SERVER_PORTS.headers });
});
afterAll(async () => {
  await server?.stop();
  killLeftovers();
});

describe("security headers", () => {
  test("pages carry a nonce CSP, framing and sniffing are off, and every script carries the response's nonce", async () => {
    const person = visitor();
    for (const path of ["/", "/quiz", "/quiz/1", "/login", "/home"]) {
      // Twice: the second /quiz/1 may come from the page cache, which must send a matching policy.
      for (let i = 0; i < 2; i++) {
        const response = await person.get(path);
        const csp = String(response.headers["content-security-policy"]);
        expect(csp, path).toContain("frame-ancestors 'none'");
        expect(csp, path).toContain("object-src 'none'");
        const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
        expect(nonce, path).toBeTruthy();
        expect(response.headers["x-content-type-options"]).toBe("nosniff");
        expect(response.headers["x-frame-options"]).toBe("DENY");
        expect(response.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
        // Every script element in the HTML as sent carries this response's nonce.
        const scripts = response.text.match(/<script\b[^>]*>/g) ?? [];
        expect(scripts.length, path).toBeGreaterThan(0);
        for (const tag of scripts) expect(tag, `${path}: ${tag}`).toContain(`nonce="${nonce}"`);
      }
    }
  });

  test("static files get the same headers", async () => {
    const response = await visitor().get("/favicon.svg");
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers["x-frame-options"]).toBe("DENY");
  });

  test("scripts are sent as gzipped at build time to a browser that takes gzip, and as they are to one that doesn't", async () => {
    const person = visitor();
    const src = /\/assets\/site-chrome-[\w-]+\.js/.exec((await person.get("/quiz")).text)?.[0];
    expect(src, "the page's shared script").toBeTruthy();
    const gzipped = await person.get(src!, { headers: { "Accept-Encoding": "gzip" } });
    expect(gzipped.headers["content-encoding"]).toBe("gzip");
    expect(gzipped.headers["content-type"]).toMatch(/^application\/javascript/);
    expect(gzipped.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const plain = await person.get(src!, { headers: { "Accept-Encoding": "identity" } });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    // The visitor decodes the gzipped answer: both are the same script.
    expect(gzipped.body.equals(plain.body)).toBe(true);
  });

  test("a page served again from the page cache carries a fresh nonce each time", async () => {
    const person = visitor();
    await person.get("/quiz/1"); // a visitor cookie, and the page rendered once into the cache
    const nonces: string[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await person.get("/quiz/1");
      const nonce = /'nonce-([^']+)'/.exec(String(response.headers["content-security-policy"]))?.[1];
      expect(nonce).toBeTruthy();
      for (const tag of response.text.match(/<script\b[^>]*>/g) ?? []) expect(tag).toContain(`nonce="${nonce}"`);
      nonces.push(nonce!);
    }
    expect(new Set(nonces).size).toBe(nonces.length);
  });

  test("every document, member and admin pages included, answers Cache-Control: private, no-store", async () => {
    const person = visitor();
    const anonymous = [
      "/",
      "/quiz",
      "/quiz/1",
      "/login",
      "/registration",
      "/email-instructions",
      "/partnerships",
      "/privacy-policy",
      "/subscribe",
      "/magic?token=x&id=y",
      "/no-such-page",
    ];
    for (const path of anonymous) {
      const response = await person.get(path, { maxRedirects: 0 });
      expect(response.headers["cache-control"], path).toBe("private, no-store");
    }
    await signInMember(person, server, { role: "admin", subscription: "monthly" });
    const members = [
      "/home",
      "/plan/clear-healthy-skin",
      "/profile",
      "/path1",
      "/path2",
      "/path3",
      "/path4",
      "/path5",
      "/path6",
      "/completion",
      "/admin",
      "/billing/test-portal",
    ];
    for (const path of members) {
      const response = await person.get(path, { maxRedirects: 0 });
      expect(response.status, path).toBe(200);
      expect(response.headers["cache-control"], path).toBe("private, no-store");
    }
  });
});

const STORED = "stored-page";

/** Requests `path` until a render (full path) is followed by the same page from memory. */
async function renderedThenStored(person: Visitor, path: string): Promise<{ fresh: Answer; stored: Answer }> {
  let previous: Answer | null = null;
  for (let i = 0; i < 5; i++) {
    const response = await person.get(path, { maxRedirects: 0 });
    expect(response.status).toBe(200);
    if (response.headers["server-timing"] === STORED) {
      if (!previous || previous.headers["server-timing"] === STORED) throw new Error("no render just before");
      return { fresh: previous, stored: response };
    }
    previous = response;
  }
  throw new Error(`${path} was never answered from memory`);
}

const nonceOf = (html: string) => /nonce="([^"]+)"/.exec(html)![1];
/** The page with its slots blanked: the nonce, and an offer's countdown (a second may pass between two views). */
const withoutSlots = (html: string) =>
  html
    .replaceAll(nonceOf(html), "NONCE")
    .replace(/PT\d+S/g, "PT0S")
    .replace(/(data-countdown="true">)\d+:\d\d</g, "$10:00<");

describe("per-person pages answered from memory", () => {
  for (const path of ["/home", "/profile", "/plan/clear-healthy-skin", "/subscribe"]) {
    test(`${path} is the page a render gives, with its own nonce, private and uncached`, async () => {
      const member = visitor();
      await signInMember(member, server, { subscription: "monthly" });
      // The visitor cookie first (a first visit is always rendered: it sets it).
      await member.get("/");
      const { fresh, stored } = await renderedThenStored(member, path);
      expect(nonceOf(stored.text)).not.toBe(nonceOf(fresh.text));
      expect(stored.text).not.toContain(nonceOf(fresh.text));
      expect(withoutSlots(stored.text)).toBe(withoutSlots(fresh.text));
      for (const headers of [fresh.headers, stored.headers]) {
        expect(headers["cache-control"]).toBe("private, no-store");
        expect(headers["set-cookie"]).toBeUndefined();
        expect(headers["x-frame-options"]).toBe("DENY");
      }
      expect(stored.headers["content-security-policy"]).toBe(
        String(fresh.headers["content-security-policy"]).replace(nonceOf(fresh.text), nonceOf(stored.text)),
      );
    });
  }
});

/** Every response has its own CSP nonce; apart from it, a page served again is the same page. */
async function pageText(person: Visitor, path: string, headers?: Record<string, string>): Promise<string> {
  return (await person.get(path, { headers })).text.replace(/nonce="[^"]+"/g, 'nonce="…"');
}

async function answer(person: Visitor, answers: [string, string][]) {
  await person.get("/quiz");
  expect((await person.post("/quiz", { form: {}, maxRedirects: 0 })).status).toBe(303);
  for (const [path, body] of answers)
    expect((await person.post(path, { form: Object.fromEntries(new URLSearchParams(body)), maxRedirects: 0 })).status).toBe(303);
}

describe("rendered funnel pages served again from memory", () => {
  test("are the same as a fresh render but for the nonce, and never show one visitor's answers to another", async () => {
    const ann = visitor();
    const bea = visitor();
    // Ann has answered step 3; Bea has not.
    await answer(ann, [
      ["/quiz/1", "skinType=dry"],
      ["/quiz/2", "mainConcern=acne"],
      ["/quiz/3", "concernDuration=over-a-year"],
    ]);
    await answer(bea, [
      ["/quiz/1", "skinType=dry"],
      ["/quiz/2", "mainConcern=acne"],
    ]);

    const beaFirst = await pageText(bea, "/quiz/3");
    const beaAgain = await pageText(bea, "/quiz/3");
    expect(beaAgain).toBe(beaFirst);
    expect(beaFirst).not.toMatch(/checked="" value="over-a-year"/);

    for (let i = 0; i < 2; i++) {
      const annPage = await pageText(ann, "/quiz/3");
      expect(annPage).toMatch(/checked="" value="over-a-year"/);
    }
    expect(await pageText(bea, "/quiz/3")).toBe(beaFirst);

    // Same page with gzip, as browsers ask for it.
    const gzipped = await bea.get("/quiz/3", { headers: { "Accept-Encoding": "gzip" } });
    expect(gzipped.headers["cache-control"]).toBe("private, no-store");
    expect(gzipped.text.replace(/nonce="[^"]+"/g, 'nonce="…"')).toBe(beaFirst);
  });

  test("still give a new visitor their visitor cookie", async () => {
    const first = visitor();
    await answer(first, [["/quiz/1", "skinType=oily"]]);
    await first.get("/quiz/2");
    const funnelCookie = first.cookies.get("gc_funnel_skin");
    expect(funnelCookie).toBeTruthy();
    // Same answers cookie, but no visitor cookie: the page must come with a new gc_vid.
    const stranger = visitor();
    const response = await stranger.get("/quiz/2", { headers: { Cookie: `gc_funnel_skin=${funnelCookie}` } });
    expect(response.status).toBe(200);
    expect(response.setCookies.join("\n")).toContain("gc_vid=");
  });
});
