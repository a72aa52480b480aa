import type { EntryContext } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { renderKey, storedRender, storeRender } from "~/render/stored-renders.server";
import { newNonce } from "~/security/headers.server";
import { unchanging } from "~/utils/unchanging.server";

/** The parts of Remix's entry context the key reads. */
function context(loaderData: Record<string, unknown>, extra: { actionData?: unknown; errors?: unknown } = {}): EntryContext {
  return {
    staticHandlerContext: {
      loaderData,
      actionData: extra.actionData ?? null,
      errors: extra.errors ?? null,
      matches: Object.keys(loaderData).map((id) => ({ route: { id } })),
    },
  } as unknown as EntryContext;
}

const get = (path: string) => new Request(`http://localhost${path}`);
const member = (name: string, streak: number) => ({
  root: { user: { email: `${name}@example.com` }, toast: null },
  "routes/home": { signedIn: true, name, streak },
});

describe("renderKey", () => {
  it("is the same for the same URL and loader data, and differs when any of it differs", () => {
    const key = renderKey(get("/home"), 200, context(member("ana", 3)), false);
    expect(key).toBeDefined();
    expect(renderKey(get("/home"), 200, context(member("ana", 3)), false)).toBe(key);
    // Another member, another streak, another URL or another content version: another page.
    expect(renderKey(get("/home"), 200, context(member("bea", 3)), false)).not.toBe(key);
    expect(renderKey(get("/home"), 200, context(member("ana", 4)), false)).not.toBe(key);
    expect(renderKey(get("/home?x=1"), 200, context(member("ana", 3)), false)).not.toBe(key);
  });

  it("names a value marked unchanging (a funnel's plan) by its identity, without serializing it on every render", () => {
    let reads = 0;
    const plan = unchanging({
      id: "skin",
      get steps() {
        reads++;
        return [{ id: "1", type: "question" }];
      },
    });
    const quizStep = (view: Record<string, unknown>) => context({ root: { user: null, toast: null }, "routes/$funnel.($step)": view });
    const key = renderKey(get("/quiz/3?render=1"), 200, quizStep({ step: "3", plan }), false);
    expect(reads).toBe(0);
    expect(renderKey(get("/quiz/3?render=1"), 200, quizStep({ step: "3", plan }), false)).toBe(key);
    // Another step, or another plan (a new funnel version), is another page.
    expect(renderKey(get("/quiz/3?render=1"), 200, quizStep({ step: "4", plan }), false)).not.toBe(key);
    expect(renderKey(get("/quiz/3?render=1"), 200, quizStep({ step: "3", plan: unchanging({ id: "skin", steps: [] }) }), false)).not.toBe(key);
    // A plain copy of the same data is serialized, and is not mistaken for the plan itself.
    expect(renderKey(get("/quiz/3?render=1"), 200, quizStep({ step: "3", plan: { id: "skin", steps: [{ id: "1", type: "question" }] } }), false)).not.toBe(key);
  });

  it("stores no form answer, error, non-GET, non-200 or deferred render", () => {
    expect(renderKey(get("/home"), 200, context(member("ana", 3), { actionData: { "routes/home": { error: "x" } } }), false)).toBeUndefined();
    expect(renderKey(get("/home"), 200, context(member("ana", 3), { errors: { "routes/home": new Error("x") } }), false)).toBeUndefined();
    expect(renderKey(new Request("http://localhost/home", { method: "POST" }), 200, context(member("ana", 3)), false)).toBeUndefined();
    expect(renderKey(get("/home"), 404, context(member("ana", 3)), false)).toBeUndefined();
    expect(renderKey(get("/home"), 200, context({ root: {}, "routes/home": { later: Promise.resolve(1) } }), false)).toBeUndefined();
  });
});

describe("storedRender", () => {
  it("gives the stored bytes back with a fresh nonce in every slot, never the stored one", () => {
    const key = renderKey(get("/profile"), 200, context(member("cleo", 1)), false)!;
    const rendered = newNonce();
    const html = `<html><script nonce="${rendered}">a</script><p>Cleo</p><script nonce="${rendered}">b</script></html>`;
    expect(storedRender(key)).toBeUndefined();
    storeRender(key, Buffer.from(html), rendered);
    const fresh = newNonce();
    const served = storedRender(key)!.html(fresh).toString("utf8");
    expect(served).toBe(html.replaceAll(rendered, fresh));
    expect(served).not.toContain(rendered);
  });
});
