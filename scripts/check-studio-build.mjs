// Builds the Studio (studio/dist) with canary secrets in the environment, then checks that
// none of them is in any file of the build: the Studio is a public bundle, and previews
// use a secret the Studio makes at run time (@sanity/preview-url-secret), never one it is
// built with. The canaries include the variables an older Studio was built with
// (SANITY_STUDIO_PREVIEW_SECRET = the app's SANITY_PREVIEW_SECRET).
//   node scripts/check-studio-build.mjs            build, then check
//   node scripts/check-studio-build.mjs --no-build check an existing build
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const DIST = "studio/dist";
const CANARIES = {
  SANITY_API_TOKEN: "skCanaryStudioToken4d2e8f1a9b3c",
  SANITY_WEBHOOK_SECRET: "canary-webhook-secret-5e7a1c3d",
  SESSION_SECRET: "canary-session-secret-studio-8b6d4f2a0c1e3g5h",
  SANITY_PREVIEW_SECRET: "canary-preview-secret-7c9e1a3b5d",
  SANITY_STUDIO_PREVIEW_SECRET: "canary-studio-preview-secret-2f4a6c8e",
};

/** What the Studio is meant to be built with (the app's public origin): it must be found, or the scan proves nothing. */
const PUBLIC = { SANITY_STUDIO_PREVIEW_URL: "https://preview-canary.glowcoach.test" };

if (!process.argv.includes("--no-build")) {
  execFileSync("npm", ["run", "studio:build"], { stdio: "inherit", env: { ...process.env, ...CANARIES, ...PUBLIC } });
}

function* files(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else yield full;
  }
}

const problems = [];
let scanned = 0;
let publicFound = false;
for (const file of files(DIST)) {
  const text = fs.readFileSync(file, "latin1");
  scanned++;
  for (const [name, value] of Object.entries(CANARIES)) if (text.includes(value)) problems.push(`${file} contains ${name}`);
  publicFound ||= text.includes(PUBLIC.SANITY_STUDIO_PREVIEW_URL);
}
if (!scanned) problems.push(`${DIST} is empty: build the Studio first`);
else if (!publicFound && !process.argv.includes("--no-build"))
  problems.push(`SANITY_STUDIO_PREVIEW_URL is not in the build either: the scan cannot see what the build embeds`);
console.log(`Scanned ${scanned} files in ${DIST} for ${Object.keys(CANARIES).length} canary secrets.`);
if (problems.length) {
  for (const problem of problems) console.error(problem);
  process.exit(1);
}
console.log("No secret in the Studio build.");
