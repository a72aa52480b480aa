// Builds the app with canary secrets in the environment, then checks the browser build:
//  1. no secret (session secret, Stripe key and webhook secret, Sanity token, SMTP password)
//     appears in any file under build/client;
//  2. each route's JavaScript (entry + root + route modules and their imports, as the
//     Remix manifest lists them, gzip as the server sends it) is within its budget; a route
//     that loads a chunk only for some of its pages (the content route's offer page) is
//     measured with and without it.
//   node scripts/check-client-build.mjs            build, then check
//   node scripts/check-client-build.mjs --no-build check an existing build (budgets only
//                                                   prove something; canaries need the build)
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const CLIENT = "build/client";
const CANARIES = {
  SESSION_SECRET: "canary-session-secret-3f9a7c1e5b2d4f6a8c0e",
  STRIPE_SECRET_KEY: "sk_test_canaryStripeKey7d1e9b3f5a",
  STRIPE_WEBHOOK_SECRET: "whsec_canaryWebhookSecret2c4e6a8",
  SANITY_API_TOKEN: "skCanarySanityToken9b8a7c6d5e4f",
  SMTP_URL: "smtp://mailer:canarySmtpPassword5e6f@127.0.0.1:2525",
  GOOGLE_CLIENT_SECRET: "canary-google-client-secret-1a2b",
};
const SECRET_VALUES = [...Object.values(CANARIES).filter((v) => !v.startsWith("smtp:")), "canarySmtpPassword5e6f"];

/** KB of gzip per page type; a route not listed gets the default. */
const BUDGET_KB = { funnelStep: 90, offer: 100, default: 100 };
/** The content route: quiz steps without the offer page's chunk, offer pages with it. */
const CONTENT_ROUTE = "routes/$funnel.($step)";
const OFFER_CHUNK = /^\/assets\/offer-page-[\w-]+\.js$/;

if (!process.argv.includes("--no-build")) {
  execFileSync("npx", ["remix", "vite:build"], { stdio: "inherit", env: { ...process.env, ...CANARIES, GOOGLE_CLIENT_ID: "canary-client-id" } });
}

const problems = [];

// 1. Secrets.
function* files(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else yield full;
  }
}
let scanned = 0;
for (const file of files(CLIENT)) {
  const text = fs.readFileSync(file, "latin1");
  scanned++;
  for (const secret of SECRET_VALUES) if (text.includes(secret)) problems.push(`${file} contains a secret (${secret.slice(0, 12)}…)`);
}

// 2. Budgets.
const manifestFile = fs.readdirSync(path.join(CLIENT, "assets")).find((name) => /^manifest-.*\.js$/.test(name));
if (!manifestFile) throw new Error("no Remix manifest in build/client/assets: build first");
const manifestText = fs.readFileSync(path.join(CLIENT, "assets", manifestFile), "utf8");
const manifest = JSON.parse(manifestText.replace(/^window\.__remixManifest=/, "").replace(/;\s*$/, ""));
/** The bytes the server sends a browser that takes gzip: the build's own .gz copy (server.mjs), else gzip as compression() makes it. */
const gzipSize = (file) => {
  const gz = path.join(CLIENT, `${file}.gz`);
  return fs.existsSync(gz) ? fs.statSync(gz).size : zlib.gzipSync(fs.readFileSync(path.join(CLIENT, file))).length;
};

function routeChain(id) {
  const chain = [];
  for (let route = manifest.routes[id]; route; route = manifest.routes[route.parentId]) chain.unshift(route);
  return chain;
}

/** Chunks a module loads with import("./x.js"), as build paths ("/assets/x.js"). */
const dynamicImports = (file) => [...fs.readFileSync(path.join(CLIENT, file), "utf8").matchAll(/import\("\.\/([^"]+\.js)"\)/g)].map((m) => `/assets/${m[1]}`);
/** A chunk and every chunk it imports statically (from"./x.js", import"./x.js"). */
function withStaticImports(file, into = new Set()) {
  if (into.has(file)) return into;
  into.add(file);
  for (const m of fs.readFileSync(path.join(CLIENT, file), "utf8").matchAll(/(?:from|import)"\.\/([^"]+\.js)"/g)) withStaticImports(`/assets/${m[1]}`, into);
  return into;
}

const rows = [];
function measure(id, modules, kind) {
  const kb = [...modules].reduce((sum, file) => sum + gzipSize(file), 0) / 1024;
  rows.push({ id, kb, budget: BUDGET_KB[kind] });
  if (kb > BUDGET_KB[kind]) problems.push(`${id}: ${kb.toFixed(1)} KB gzip of JavaScript, budget ${BUDGET_KB[kind]} KB`);
}
for (const id of Object.keys(manifest.routes)) {
  if (id === "root" || !manifest.routes[id].module) continue;
  const modules = new Set([manifest.entry.module, ...manifest.entry.imports, `/assets/${manifestFile}`]);
  for (const route of routeChain(id)) for (const file of [route.module, ...(route.imports ?? [])]) modules.add(file);
  measure(id, modules, id === CONTENT_ROUTE ? "funnelStep" : "default");
  const route = manifest.routes[id];
  for (const chunk of new Set([route.module, ...(route.imports ?? [])].flatMap(dynamicImports))) {
    const page = new Set([...modules, ...withStaticImports(chunk)]);
    const offer = id === CONTENT_ROUTE && OFFER_CHUNK.test(chunk);
    measure(`${id} + ${offer ? "offer page" : path.basename(chunk)}`, page, offer ? "offer" : "default");
  }
}
if (!rows.some((row) => row.id === `${CONTENT_ROUTE} + offer page`))
  problems.push(`${CONTENT_ROUTE}: no offer-page chunk found: the offer page is no longer measured`);

rows.sort((a, b) => b.kb - a.kb);
console.log(`Scanned ${scanned} files in ${CLIENT} for ${SECRET_VALUES.length} canary secrets.`);
console.log("JavaScript per route (gzip):");
for (const { id, kb, budget } of rows) console.log(`  ${kb.toFixed(2).padStart(6)} KB / ${budget} KB  ${id}`);
if (problems.length) {
  console.error(`\n${problems.join("\n")}`);
  process.exit(1);
}
console.log("Client build OK: no secrets, every route within its JavaScript budget.");
