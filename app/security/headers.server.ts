/**
 * Security headers. Every response gets the static ones (app/server.ts); HTML pages also get
 * a Content-Security-Policy whose nonce allows exactly the inline scripts we render
 * (Remix's hydration data, the time-zone snippet) and nothing injected.
 */
import crypto from "node:crypto";
import { previewFramedBy } from "~/content/preview.server";
import { env } from "~/utils/env.server";

/**
 * Random bytes for nonces, drawn from the system's CSPRNG 4 KB at a time: one call per 256
 * nonces instead of one each (a call costs far more than the 16 bytes it returns). Every
 * nonce takes its own 16 bytes, never reused.
 */
const NONCE_BYTES = 16;
const pool = Buffer.alloc(NONCE_BYTES * 256);
let poolOffset = pool.length;

export function newNonce(): string {
  if (poolOffset === pool.length) {
    crypto.randomFillSync(pool);
    poolOffset = 0;
  }
  const nonce = pool.toString("base64", poolOffset, poolOffset + NONCE_BYTES);
  poolOffset += NONCE_BYTES;
  return nonce;
}

function origin(url: string): string {
  return new URL(url).origin;
}

/** Where forms may lead: our pages, and the checkout/portal/sign-in pages we redirect to. */
function formTargets(): string[] {
  const targets = ["'self'", "https://checkout.stripe.com", "https://billing.stripe.com"];
  if (env.google) targets.push(origin(env.google.issuer), "https://accounts.google.com");
  const stripe = env.stripe;
  // Tests point Stripe at a local fake whose checkout pages live on that host.
  if (stripe?.host) targets.push(`${stripe.protocol ?? "https"}://${stripe.host}${stripe.port ? `:${stripe.port}` : ""}`);
  return targets;
}

/**
 * Where images, videos and captions may load from: our own files, and files uploaded to
 * Sanity (its asset CDN) when content comes from Sanity. Tests point Sanity and its CDN at a
 * local fake that also serves the files.
 */
function cmsFileSources(): string[] {
  if (!env.sanity) return [];
  const sources = new Set(["https://cdn.sanity.io", origin(env.sanity.cdnUrl)]);
  if (env.sanity.apiHost) sources.add(origin(env.sanity.apiHost));
  return [...sources];
}

/** Hosts Meta's pixel loads from and reports to, allowed only when META_PIXEL_ID is set. */
type ThirdParty = { script: string[]; img: string[]; connect: string[] };
function thirdParties(): ThirdParty[] {
  return env.metaPixelId
    ? [{ script: ["https://connect.facebook.net"], img: ["https://www.facebook.com"], connect: ["https://www.facebook.com", "https://connect.facebook.net"] }]
    : [];
}

export function contentSecurityPolicy(nonce: string): string {
  const extra = (kind: keyof ThirdParty) => thirdParties().flatMap((party) => party[kind]);
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    "script-src": ["'self'", `'nonce-${nonce}'`, ...extra("script")],
    // React's style attributes (progress bars, illustrations) are inline styles.
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", ...cmsFileSources(), ...extra("img")],
    "font-src": ["'self'"],
    "media-src": ["'self'", ...cmsFileSources()],
    "connect-src": ["'self'", ...extra("connect")],
    "frame-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": formTargets(),
    // Only the Studio's preview pane may show a page in a frame, and only pages it previews.
    "frame-ancestors": previewFramedBy() ? ["'self'", previewFramedBy()!] : ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(" ")}`)
    .join("; ");
}

/**
 * The one header policy for every HTML document, set in one place: entry.server.tsx applies
 * it to every page Remix renders, the page cache to every page it serves again.
 *
 * No document is stored by any cache (`private, no-store`): each carries a nonce that must
 * not be seen twice, and many carry someone's account (the member menu, a routine, the admin
 * dashboard, a sign-in state). Route modules set no Cache-Control of their own.
 */
export function documentHeaders(nonce: string): Record<string, string> {
  return {
    "Content-Type": "text/html; charset=utf-8",
    "Cache-Control": "private, no-store",
    // Not under `npm run dev`: Vite's hot-reload scripts carry no nonce.
    ...(env.nodeEnv === "development" ? {} : { "Content-Security-Policy": contentSecurityPolicy(nonce) }),
  };
}

/** Remix's data requests (`.data`, `?_data=`) answer with the same loaders' data: never stored either. */
export const DATA_CACHE_CONTROL = "private, no-store";

/** Headers for every response, pages and files alike. */
export function staticSecurityHeaders(): Record<string, string> {
  const headers: Record<string, string> = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
  };
  if (env.isProduction && env.publicUrl.startsWith("https:")) headers["Strict-Transport-Security"] = "max-age=31536000; includeSubDomains";
  return headers;
}
