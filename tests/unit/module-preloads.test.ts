import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { lowPriorityModulePreloads } from "~/utils/module-preloads.server";

const page =
  '<!DOCTYPE html><html><head><title>Crème — “Glow”</title></head><body><p>a < b</p>' +
  '<link rel="modulepreload" href="/assets/entry.client-a.js"/><link rel="modulepreload" href="/assets/components-b.js"/>' +
  '<script type="module" async="">import "/assets/entry.client-a.js";</script></body></html>';
const expected = page.replaceAll('<link rel="modulepreload"', '<link rel="modulepreload" fetchpriority="low"');

async function through(chunks: Buffer[]): Promise<string> {
  const out: Buffer[] = [];
  for await (const chunk of Readable.from(chunks).pipe(lowPriorityModulePreloads())) out.push(chunk as Buffer);
  return Buffer.concat(out).toString("utf8");
}

describe("module preloads at low priority", () => {
  it("rewrites every preload link and nothing else", async () => {
    expect(await through([Buffer.from(page)])).toBe(expected);
  });

  it("gives the same page however the stream is cut, even inside a tag or a multi-byte character", async () => {
    const bytes = Buffer.from(page);
    for (let at = 1; at < bytes.length; at++) {
      expect(await through([bytes.subarray(0, at), bytes.subarray(at)])).toBe(expected);
    }
    const oneByteChunks = [...bytes].map((byte) => Buffer.from([byte]));
    expect(await through(oneByteChunks)).toBe(expected);
  });
});
