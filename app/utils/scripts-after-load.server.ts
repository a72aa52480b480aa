import { StringDecoder } from "node:string_decoder";
import { Transform } from "node:stream";

/**
 * The page's HTML stream with Remix's scripts parked until the page has loaded and painted.
 *
 * Every page is complete, usable HTML before any JavaScript runs (forms first), so the
 * ≈ 90 KB of React and Remix only add polish. Started by the parser, they share a phone's
 * slow connection with the document, the heading font and the images, and hold back the
 * largest paint (Lighthouse, mobile: 1.9–2.1 s; with the scripts after load: ≈ 0.9–1.0 s).
 * Remix renders its `<link rel="modulepreload">` tags and the module script that hydrates
 * the page itself, with no option to defer them, hence a rewrite of its exact markup:
 *
 * - each preload becomes `<link rel="gc-modulepreload">`, a rel browsers ignore;
 * - the module script becomes an inert `<script type="text/gc-parked-module">`, preceded by
 *   a small loader (same nonce) that on `load`, one frame later, turns the preloads back on
 *   and swaps the inert script for a live module script with the same text and nonce, in
 *   the same place, so the document React hydrates is the one Remix rendered.
 *
 * If Remix changes this markup the rewrite stops matching and pages load their scripts
 * the ordinary way; tests/unit/scripts-after-load.test.ts pins the rewrite.
 */
export function scriptsAfterLoad(): Transform {
  const decoder = new StringDecoder("utf8");
  // The end of the previous chunk when it stops inside a tag.
  let carried = "";
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const text = carried + decoder.write(chunk);
      const lastOpen = text.lastIndexOf("<");
      const cut = lastOpen > text.lastIndexOf(">") ? lastOpen : text.length;
      carried = text.slice(cut);
      done(null, Buffer.from(parkScripts(text.slice(0, cut))));
    },
    flush(done) {
      done(null, Buffer.from(parkScripts(carried + decoder.end())));
    },
  });
}

const PRELOAD = '<link rel="modulepreload"';
const PARKED_PRELOAD = '<link rel="gc-modulepreload"';
const MODULE_SCRIPT = /<script nonce="([^"]*)" type="module" async="">/g;
const PARKED_MODULE_TYPE = "text/gc-parked-module";

// Classic script, run as it is parsed; it only waits. `requestAnimationFrame` then
// `setTimeout` lets the frame after `load` paint before the first script request.
const LOADER = `(function(){var nonce=document.currentScript.nonce;function start(){
document.querySelectorAll('link[rel="gc-modulepreload"]').forEach(function(link){link.rel="modulepreload"});
var parked=document.querySelector('script[type="${PARKED_MODULE_TYPE}"]');if(!parked)return;
var live=document.createElement("script");live.type="module";live.nonce=nonce;live.textContent=parked.textContent;parked.replaceWith(live)}
addEventListener("load",function(){requestAnimationFrame(function(){setTimeout(start,0)})})})()`.replaceAll("\n", "");

/** Complete tags only: the stream never hands a tag over in two pieces. */
function parkScripts(html: string): string {
  return html
    .replaceAll(PRELOAD, PARKED_PRELOAD)
    .replace(MODULE_SCRIPT, (_tag, nonce: string) => `<script nonce="${nonce}">${LOADER}</script><script nonce="${nonce}" type="${PARKED_MODULE_TYPE}">`);
}
