import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { newNonce } from "~/security/headers.server";
import { PageSlots } from "~/render/page-slots.server";

const page = (nonce: string) =>
  Buffer.from(
    `<!doctype html><html><head><style nonce="${nonce}">body{color:#2e2227}</style><script nonce="${nonce}">var z=1</script></head>` +
      `<body>${"<p>Glow ✨ Coach</p>".repeat(500)}<script nonce="${nonce}">start()</script></body></html>`,
  );

describe("a stored page gets a fresh nonce per response", () => {
  it("fills every place the nonce was, in plain and gzip form", () => {
    const rendered = newNonce();
    const slots = PageSlots.fromPage(page(rendered), rendered);
    expect(slots.slots).toBe(3);
    for (let i = 0; i < 5; i++) {
      const fresh = newNonce();
      expect(slots.html(fresh).equals(page(fresh))).toBe(true);
      // gunzip checks the CRC and length in the trailer too.
      expect(zlib.gunzipSync(slots.gzip(fresh)).equals(page(fresh))).toBe(true);
      expect(slots.html(fresh).toString()).not.toContain(rendered);
    }
  });

  it("works for a page without a nonce, and compresses well", () => {
    const html = Buffer.from("<p>no scripts</p>".repeat(1000));
    const slots = PageSlots.fromPage(html, newNonce());
    expect(slots.slots).toBe(0);
    const gzip = slots.gzip(newNonce());
    expect(zlib.gunzipSync(gzip).equals(html)).toBe(true);
    expect(gzip.length).toBeLessThan(html.length / 20);
  });
});

describe("newNonce", () => {
  it("gives 16 random bytes each time, never the same twice, across refills of its pool", () => {
    const nonces = Array.from({ length: 1_000 }, () => newNonce());
    expect(new Set(nonces).size).toBe(nonces.length);
    for (const nonce of nonces) expect(Buffer.from(nonce, "base64")).toHaveLength(16);
  });
});
