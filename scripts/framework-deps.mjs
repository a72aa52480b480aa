// `npm run deps:framework`: the framework packages this checkout installs, the patches applied to
// them, and where to look for advisories. Remix 2 is end of life (no security releases) and
// `npm audit` may be out of reach, so this is how a newcomer checks them (ADR 30).
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");

/** The packages that make up the framework, with why each is watched. */
export const FRAMEWORK_PACKAGES = {
  "@remix-run/dev": "build (Vite plugin), dev server",
  "@remix-run/express": "Express adapter",
  "@remix-run/node": "server runtime for Node",
  "@remix-run/react": "browser runtime: hydration, single-fetch decoding",
  "@remix-run/server-runtime": "request handling, single-fetch encoding",
  "@remix-run/router": "route matching and data loading (server and browser)",
  "react-router": "React bindings under Remix (v6)",
  "react-router-dom": "React bindings under Remix (v6)",
  "turbo-stream": "the loader-data wire format (encode on the server, decode in the browser)",
  vite: "build tool",
};

/** Every installed version of each framework package, read from package-lock.json. */
export function installedVersions(lock = JSON.parse(fs.readFileSync(path.join(root, "package-lock.json"), "utf8"))) {
  const versions = new Map(Object.keys(FRAMEWORK_PACKAGES).map((name) => [name, new Set()]));
  for (const [where, entry] of Object.entries(lock.packages ?? {})) {
    const name = where.slice(where.lastIndexOf("node_modules/") + "node_modules/".length);
    if (where.includes("node_modules/") && versions.has(name) && entry.version) versions.get(name).add(entry.version);
  }
  return versions;
}

/** The patch files (patch-package, applied by `npm install`) for a package. */
export function patchesFor(name, dir = path.join(root, "patches")) {
  const prefix = `${name.replace("/", "+")}+`;
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((file) => file.startsWith(prefix)) : [];
}

function main() {
  const versions = installedVersions();
  console.log("Framework packages (Remix 2 is end of life: no security releases; see docs/decisions/0030-staying-on-remix-2.md)\n");
  for (const [name, why] of Object.entries(FRAMEWORK_PACKAGES)) {
    const patches = patchesFor(name);
    console.log(`  ${name.padEnd(27)} ${[...versions.get(name)].join(", ").padEnd(16)} ${why}`);
    for (const patch of patches) console.log(`  ${"".padEnd(27)} ${"".padEnd(16)} patched: patches/${patch}`);
  }
  console.log(
    "\nAdvisories: https://github.com/advisories?query=ecosystem%3Anpm+<package> (GitHub's database, what npm audit reads),\n" +
      "https://osv.dev/list?ecosystem=npm&q=<package>, and https://github.com/remix-run/react-router/security/advisories\n" +
      "(React Router's advisories name the Remix 2 packages they affect). A fix for an affected version is a patch in\n" +
      "patches/ with a test that feeds the malicious input (tests/unit/turbo-stream-patch.test.ts is the model).",
  );
}

if (process.argv[1] === import.meta.filename) main();
