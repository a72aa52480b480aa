// Desktop and phone screenshots of the members' area for review:
//   node scripts/screenshots-members.mjs [out-dir]
// Starts the production build on a fresh data folder, creates a subscribed member with a
// three-day streak straight in its database, and shoots home, the player, a tutorial
// step, /completion and the profile.
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { createCookie } from "@remix-run/node";
import { launchBrowser } from "./screenshot-browser.mjs";

const root = path.resolve(import.meta.dirname, "..");
process.chdir(root);
const out = process.argv[2] ?? "test-results/screenshots-members";
const PORT = Number(process.env.SHOTS_PORT ?? 3390);
const base = `http://127.0.0.1:${PORT}`;
fs.mkdirSync(out, { recursive: true });

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "glow-shots-"));
const server = spawn(process.execPath, ["scripts/start.mjs"], { env: { ...process.env, PORT: String(PORT), HOST: "127.0.0.1", DATA_DIR: dataDir, APP_ENV: "local" }, stdio: ["ignore", "ignore", "inherit"] });
process.on("exit", () => server.kill("SIGTERM"));
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${base}/`)).ok) break;
  } catch {}
  if (i > 200) throw new Error("server did not start");
  await new Promise((r) => setTimeout(r, 250));
}

const stored = (d) => d.toISOString().replace("Z", "+00:00");
const db = new Database(path.join(dataDir, "glow-coach.db"));
const userId = crypto.randomUUID();
const sessionId = crypto.randomBytes(24).toString("base64url");
const now = new Date();
db.prepare(`INSERT INTO "User" ("id","email","role","timeZone","createdAt","emailVerifiedAt") VALUES (?,?,?,?,?,?)`).run(userId, "olivia.bennett@example.com", "user", "UTC", stored(now), stored(now));
db.prepare(`INSERT INTO "Session" ("id","userId","expiresAt","createdAt") VALUES (?,?,?,?)`).run(sessionId, userId, stored(new Date(now.getTime() + 864e5)), stored(now));
db.prepare(`INSERT INTO "Subscription" ("id","userId","tier","status","planName","priceMinor","currency","startedAt","currentPeriodEnd","cancelAtPeriodEnd","stateAt","createdAt","updatedAt") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)`).run(
  crypto.randomUUID(), userId, "annual", "active", "Annual Plan", 5900, "usd", stored(new Date(now.getTime() - 20 * 864e5)), stored(new Date(now.getTime() + 345 * 864e5)), 0, stored(now), stored(now), stored(now));
for (let back = 1; back <= 3; back++) {
  const date = new Date(now.getTime() - back * 864e5).toISOString().slice(0, 10);
  db.prepare(`INSERT INTO "PlanCompletion" ("id","userId","planId","date","createdAt") VALUES (?,?,?,?,?)`).run(crypto.randomUUID(), userId, "clear-healthy-skin", date, stored(now));
}
const today = now.toISOString().slice(0, 10);
for (const step of [1, 2]) db.prepare(`INSERT INTO "PlanStepCompletion" ("userId","planId","date","step","createdAt") VALUES (?,?,?,?,?)`).run(userId, "clear-healthy-skin", today, step, stored(now));
db.close();
const { SESSION_SECRET } = JSON.parse(fs.readFileSync(path.join(dataDir, "dev-secrets.json"), "utf8"));
const cookie = (await createCookie("gc_session", { secrets: [SESSION_SECRET] }).serialize(sessionId)).split(";")[0].split("=").slice(1).join("=");

const browser = await launchBrowser();
for (const [device, viewport] of Object.entries({ desktop: { width: 1280, height: 860 }, phone: { width: 412, height: 915 } })) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: device === "phone" ? 2 : 1, isMobile: device === "phone", timezoneId: "UTC" });
  await context.addCookies([{ name: "gc_session", value: cookie, url: base }]);
  const page = await context.newPage();
  const shot = async (name, url) => {
    await page.goto(`${base}${url}`);
    await page.waitForLoadState("networkidle");
    await page.screenshot({ path: path.join(out, `${name}-${device}.png`), fullPage: true, animations: "disabled" });
  };
  await shot("home", "/home");
  await shot("plan-player", "/plan/clear-healthy-skin?step=3");
  await shot("tutorial-step", "/path4");
  await shot("completion", "/completion");
  await shot("profile", "/profile");
  await context.close();
}
await browser.close();
server.kill("SIGTERM");
fs.rmSync(dataDir, { recursive: true, force: true });
console.log(`Screenshots in ${out}`);
