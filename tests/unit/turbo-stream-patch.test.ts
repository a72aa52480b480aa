import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import * as esmBuild from "turbo-stream";

// CVE-2026-34077 (turbo-stream < 3, fixed upstream only in the rewritten 3.x) and the same flaw in
// Remix's own error plugin: a data stream could name ANY global constructor for an error record
// (`new window[name](message)`: Function, WebSocket, Worker…). Beside it, an object key
// "__proto__" replaced the decoded object's prototype instead of staying a key.
// patches/turbo-stream+2.4.1.patch and patches/@remix-run+react+2.17.5.patch (applied by
// `npm install`, see ADR 30) close both; these tests feed the malicious streams.
const require = createRequire(import.meta.url);
const cjsBuild = require("turbo-stream") as typeof esmBuild;
// The encoder the server runs for `.data` responses and the page's inline stream, and the decoder
// the browser runs on them (framework internals: test-only imports, see ADR 30).
const { encodeViaTurboStream } = require("@remix-run/server-runtime/dist/single-fetch.js") as {
  encodeViaTurboStream: (data: unknown, signal: AbortSignal, timeout: number | undefined, mode: string) => ReadableStream<Uint8Array>;
};
const { decodeViaTurboStream } = require("@remix-run/react/dist/single-fetch.js") as {
  decodeViaTurboStream: (body: ReadableStream<Uint8Array>, global: object) => Promise<{ value: unknown; done: Promise<unknown> }>;
};

const streamOf = (text: string) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(text));
      controller.close();
    },
  });

/** What the browser makes of a response body, through Remix's decoder (with its plugins). */
const decodeAsBrowser = async (body: ReadableStream<Uint8Array>) => (await decodeViaTurboStream(body, globalThis)).value;

describe.each([
  ["ESM build (the browser bundle's)", esmBuild],
  ["CommonJS build", cjsBuild],
])("turbo-stream 2.4.1 decode, %s", (_name, turbo) => {
  const decode = async (text: string) => (await turbo.decode(streamOf(text))).value;

  it("never calls a global that is not an error type for an error record", async () => {
    const decoded = await decode('[["E","globalThis.pwned = 1","Function"]]\n');
    expect(typeof decoded).not.toBe("function");
    expect(decoded).toBeInstanceOf(Error);
    expect((decoded as Error).message).toBe("globalThis.pwned = 1");
    for (const name of ["WebSocket", "Worker", "EventSource", "Object", "constructor", "__proto__"]) {
      expect(Object.getPrototypeOf(await decode(`[["E","x",${JSON.stringify(name)}]]\n`))).toBe(Error.prototype);
    }
  });

  it("keeps the standard error types", async () => {
    const decoded = await decode('[["E","bad input","TypeError"]]\n');
    expect(decoded).toBeInstanceOf(TypeError);
    expect((decoded as Error).message).toBe("bad input");
  });

  it('keeps a "__proto__" key as a key: the decoded object keeps its own prototype', async () => {
    // { "__proto__": { "isAdmin": true } }, as an honest encoder writes an object parsed from JSON.
    const decoded = (await decode('[{"_1":2},"__proto__",{"_3":4},"isAdmin",true]\n')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype);
    expect(decoded.isAdmin).toBeUndefined();
    expect(Object.keys(decoded)).toEqual(["__proto__"]);
    expect(Object.getOwnPropertyDescriptor(decoded, "__proto__")?.value).toEqual({ isAdmin: true });
  });

  it("refuses references that are not value indexes (they reached Array.prototype)", async () => {
    await expect(decode('[{"_1":"__proto__"},"a"]\n')).rejects.toThrow(SyntaxError);
    await expect(decode('[["Z","constructor"]]\n')).rejects.toThrow(SyntaxError);
    await expect(decode('[["P","__proto__"]]\n')).rejects.toThrow(SyntaxError);
  });

  it("still decodes what the encoder writes (dates, maps, sets, promises, repeated values)", async () => {
    const shared = { text: "same" };
    const input = { at: new Date(0), map: new Map([["k", 1]]), set: new Set(["s"]), a: shared, b: shared, later: Promise.resolve("done") };
    const { value, done } = await turbo.decode(turbo.encode(input));
    const decoded = value as typeof input;
    expect(decoded.at.getTime()).toBe(0);
    expect(decoded.map.get("k")).toBe(1);
    expect(decoded.set.has("s")).toBe(true);
    expect(decoded.a).toBe(decoded.b);
    expect(await decoded.later).toBe("done");
    await done;
  });
});

describe("Remix single fetch: server encoder to browser decoder", () => {
  it("never calls a global named by a SanitizedError record", async () => {
    const decoded = await decodeAsBrowser(streamOf('[["SanitizedError",1,2,3],"Function","globalThis.pwned = 1","at x"]\n'));
    expect(typeof decoded).not.toBe("function");
    expect(decoded).toBeInstanceOf(Error);
    expect((decoded as Error).message).toBe("globalThis.pwned = 1");
  });

  it("brings a thrown RangeError back as a RangeError", async () => {
    const body = encodeViaTurboStream({ error: new RangeError("too far") }, new AbortController().signal, undefined, "development");
    const decoded = (await decodeAsBrowser(body)) as { error: Error };
    expect(decoded.error).toBeInstanceOf(RangeError);
    expect(decoded.error.message).toBe("too far");
  });

  it('carries loader data whose keys came from someone\'s input ("__proto__") as plain data', async () => {
    // A record keyed by text from outside (JSON from a cookie, a row, a form) as a loader returns it.
    const answers = JSON.parse('{"skin":"dry","__proto__":{"skin":"oily","isAdmin":true}}') as Record<string, unknown>;
    const body = encodeViaTurboStream({ answers }, new AbortController().signal, undefined, "production");
    const decoded = (await decodeAsBrowser(body)) as { answers: Record<string, unknown> };
    expect(Object.getPrototypeOf(decoded.answers)).toBe(Object.prototype);
    expect(decoded.answers.isAdmin).toBeUndefined();
    expect(Object.keys(decoded.answers)).toEqual(["skin", "__proto__"]);
    expect(JSON.stringify(decoded.answers)).toBe(JSON.stringify(answers));
  });
});
