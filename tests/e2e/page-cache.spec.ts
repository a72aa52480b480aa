import { expect, test, type APIRequestContext } from "@playwright/test";

const form = { headers: { "Content-Type": "application/x-www-form-urlencoded" }, maxRedirects: 0 };

/** Every response has its own CSP nonce; apart from it, a page served again is the same page. */
async function pageText(request: APIRequestContext, path: string, headers?: Record<string, string>): Promise<string> {
  return (await (await request.get(path, { headers })).text()).replace(/nonce="[^"]+"/g, 'nonce="…"');
}

async function answer(request: APIRequestContext, answers: [string, string][]) {
  await request.get("/quiz");
  expect((await request.post("/quiz", { ...form, data: "" })).status()).toBe(303);
  for (const [path, body] of answers) expect((await request.post(path, { ...form, data: body })).status()).toBe(303);
}

test.describe("rendered funnel pages served again from memory", () => {
  test("are the same as a fresh render but for the nonce, and never show one visitor's answers to another", async ({ playwright, baseURL }) => {
    const ann = await playwright.request.newContext({ baseURL });
    const bea = await playwright.request.newContext({ baseURL });
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
    expect(gzipped.headers()["cache-control"]).toBe("private, no-store");
    expect((await gzipped.text()).replace(/nonce="[^"]+"/g, 'nonce="…"')).toBe(beaFirst);
    await ann.dispose();
    await bea.dispose();
  });

  test("still give a new visitor their visitor cookie", async ({ playwright, baseURL }) => {
    const first = await playwright.request.newContext({ baseURL });
    await answer(first, [["/quiz/1", "skinType=oily"]]);
    await first.get("/quiz/2");
    const state = await first.storageState();
    const funnelCookie = state.cookies.find((c) => c.name === "gc_funnel_skin")!;
    // Same answers cookie, but no visitor cookie: the page must come with a new gc_vid.
    const response = await first.get("/quiz/2", { headers: { Cookie: `gc_funnel_skin=${funnelCookie.value}` } });
    expect(response.status()).toBe(200);
    expect(response.headers()["set-cookie"]).toContain("gc_vid=");
    await first.dispose();
  });
});
