import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { scriptsAfterLoad } from "~/utils/scripts-after-load.server";

// The markup Remix 2 renders for a page's scripts (see <Scripts> in @remix-run/react).
const page =
  "<!DOCTYPE html><html><head><title>Crème — “Glow”</title></head><body><p>a < b</p>" +
  '<link rel="modulepreload" href="/assets/entry.client-a.js"/><link rel="modulepreload" href="/assets/components-b.js"/>' +
  '<script nonce="n0nce==">window.__remixContext = {};</script>' +
  '<script nonce="n0nce==" type="module" async="">import "/assets/manifest-c.js";\nimport("/assets/entry.client-a.js");</script>' +
  '<link rel="stylesheet" href="/x.css"/></body></html>';

async function through(chunks: Buffer[]): Promise<string> {
  const out: Buffer[] = [];
  for await (const chunk of Readable.from(chunks).pipe(scriptsAfterLoad())) out.push(chunk as Buffer);
  return Buffer.concat(out).toString("utf8");
}

describe("scripts after load", () => {
  it("parks every preload and the module script, keeping everything else", async () => {
    const html = await through([Buffer.from(page)]);
    expect(html).not.toContain('<link rel="modulepreload"');
    expect(html).toContain('<link rel="gc-modulepreload" href="/assets/entry.client-a.js"/><link rel="gc-modulepreload" href="/assets/components-b.js"/>');
    expect(html).not.toContain('type="module" async');
    expect(html).toContain(
      '<script nonce="n0nce==" type="text/gc-parked-module">import "/assets/manifest-c.js";\nimport("/assets/entry.client-a.js");</script>',
    );
    // The loader carries the page's nonce (the CSP allows nothing else) and waits for load.
    expect(html).toMatch(
      /<script nonce="n0nce==">\(function\(\)\{[^<]*addEventListener\("load"[^<]*<\/script><script nonce="n0nce==" type="text\/gc-parked-module">/,
    );
    // Nothing else changed: removing the loader and restoring the names gives the page back.
    const restored = html
      .replace(/<script nonce="n0nce==">\(function[^<]*<\/script>/, "")
      .replaceAll('rel="gc-modulepreload"', 'rel="modulepreload"')
      .replace('type="text/gc-parked-module"', 'type="module" async=""');
    expect(restored).toBe(page);
  });

  it("gives the same page however the stream is cut, even inside a tag or a multi-byte character", async () => {
    const expected = await through([Buffer.from(page)]);
    const bytes = Buffer.from(page);
    for (let at = 1; at < bytes.length; at++) {
      expect(await through([bytes.subarray(0, at), bytes.subarray(at)])).toBe(expected);
    }
    const oneByteChunks = [...bytes].map((byte) => Buffer.from([byte]));
    expect(await through(oneByteChunks)).toBe(expected);
  });

  it("leaves a page without scripts alone", async () => {
    const plain = "<!DOCTYPE html><html><body><p>1 < 2 and 3 > 2</p></body></html>";
    expect(await through([Buffer.from(plain)])).toBe(plain);
  });
});
