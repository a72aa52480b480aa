import { StringDecoder } from "node:string_decoder";
import { Transform } from "node:stream";

const PRELOAD = '<link rel="modulepreload"';
const LOW_PRIORITY_PRELOAD = '<link rel="modulepreload" fetchpriority="low"';

/**
 * The page's HTML stream with Remix's module preloads fetched at low priority.
 *
 * Every page is complete, usable HTML before any JavaScript runs (forms first), so the
 * scripts only add polish. At their default high priority they share a phone's slow
 * connection with the document and the heading font and hold back the first paint
 * (Lighthouse, mobile: largest paint 1.9 s instead of ≈ 1 s). Remix renders these links
 * itself without a way to pass fetchpriority, hence the rewrite of its exact markup.
 */
export function lowPriorityModulePreloads(): Transform {
  const decoder = new StringDecoder("utf8");
  // The end of the previous chunk, in case a preload tag is split across two chunks.
  let carried = "";
  const rewrite = (text: string) => text.replaceAll(PRELOAD, LOW_PRIORITY_PRELOAD);
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const text = carried + decoder.write(chunk);
      const lastTag = text.lastIndexOf("<");
      const cut = lastTag !== -1 && lastTag > text.length - PRELOAD.length ? lastTag : text.length;
      carried = text.slice(cut);
      done(null, Buffer.from(rewrite(text.slice(0, cut))));
    },
    flush(done) {
      done(null, Buffer.from(rewrite(carried + decoder.end())));
    },
  });
}
