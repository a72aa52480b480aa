// Desktop and phone screenshots of the members' area for review:
//   node scripts/screenshots-members.mjs [out-dir]
// Starts the production build on a fresh data folder, creates a member for each routine plan
// (with quiz answers and a three-day streak) straight in its database, and shoots each plan's
// home, player, tutorial pages and /completion, a profile with two plans (reminder on) and one with
// the reminder off, a home with a streak freeze used yesterday, and the signed-out home.
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { createCookie } from "@remix-run/node";
import { launchBrowser } from "./screenshot-browser.mjs";
import { grantPlan } from "./seed-entitlement.mjs";

const root = path.resolve(import.meta.dirname, "..");
process.chdir(root);
const out = process.argv[2] ?? "test-results/screenshots-members";
const PORT = Number(process.env.SHOTS_PORT ?? 3390);
const base = `http://127.0.0.1:${PORT}`;
fs.mkdirSync(out, { recursive: true });

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "glow-shots-"));
const server = spawn(process.execPath, ["scripts/start.mjs"], {
  env: { ...process.env, PORT: String(PORT), HOST: "127.0.0.1", DATA_DIR: dataDir, APP_ENV: "local" },
  stdio: ["ignore", "ignore", "inherit"],
});
process.on("exit", () => server.kill("SIGTERM"));
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${base}/`)).ok) break;
  } catch {
    // Not listening yet: try again.
  }
  if (i > 200) throw new Error("server did not start");
  await new Promise((r) => setTimeout(r, 250));
}

const stored = (d) => d.toISOString().replace("Z", "+00:00");
const db = new Database(path.join(dataDir, "glow-coach.db"));
const now = new Date();
const today = now.toISOString().slice(0, 10);
const { SESSION_SECRET } = JSON.parse(fs.readFileSync(path.join(dataDir, "dev-secrets.json"), "utf8"));

/** A member who bought `plans` (the first followed), answered its quiz, with a three-day streak and two steps done today. */
async function member(email, plans, answers, { doneDaysBack = [1, 2, 3], reminderHour = null } = {}) {
  const userId = crypto.randomUUID();
  const sessionId = crypto.randomBytes(24).toString("base64url");
  db.prepare(`INSERT INTO "User" ("id","email","role","timeZone","createdAt","activePlanId","emailVerifiedAt") VALUES (?,?,?,?,?,?,?)`).run(
    userId,
    email,
    "user",
    "UTC",
    stored(now),
    plans[0],
    stored(now),
  );
  db.prepare(`INSERT INTO "Session" ("id","userId","expiresAt","createdAt") VALUES (?,?,?,?)`).run(
    sessionId,
    userId,
    stored(new Date(now.getTime() + 864e5)),
    stored(now),
  );
  for (const plan of plans) grantPlan(db, userId, plan, { at: new Date(now.getTime() - 20 * 864e5) });
  for (const [funnel, values] of Object.entries(answers)) {
    db.prepare(`INSERT INTO "MemberAnswers" ("userId","funnelId","answers","answeredAt","updatedAt") VALUES (?,?,?,?,?)`).run(
      userId,
      funnel,
      JSON.stringify(values),
      stored(now),
      stored(now),
    );
  }
  if (reminderHour !== null) db.prepare(`UPDATE "User" SET "reminderOn" = 1, "reminderHour" = ? WHERE "id" = ?`).run(reminderHour, userId);
  for (const back of doneDaysBack) {
    const date = new Date(now.getTime() - back * 864e5).toISOString().slice(0, 10);
    db.prepare(`INSERT INTO "PlanCompletion" ("id","userId","planId","date","createdAt") VALUES (?,?,?,?,?)`).run(
      crypto.randomUUID(),
      userId,
      plans[0],
      date,
      stored(now),
    );
  }
  for (const step of [1, 2])
    db.prepare(`INSERT INTO "PlanStepCompletion" ("userId","planId","date","step","createdAt") VALUES (?,?,?,?,?)`).run(
      userId,
      plans[0],
      today,
      step,
      stored(now),
    );
  return (await createCookie("gc_session", { secrets: [SESSION_SECRET] }).serialize(sessionId)).split(";")[0].split("=").slice(1).join("=");
}

// One member per plan, each with answers its rules use; the skincare member also owns the crease plan (the picker).
const members = {
  "clear-healthy-skin": await member(
    "olivia.bennett@example.com",
    ["clear-healthy-skin", "crease-free"],
    { skin: { skinType: "oily", mainConcern: ["acne"] } },
    { reminderHour: 7 },
  ),
  "makeup-prep": await member(
    "maya.chen@example.com",
    ["makeup-prep"],
    { makeup: { skinType: "dry", biggestFrustration: "patchy" } },
    {
      // Fourteen days in a row earned two freezes; yesterday was missed and used one.
      doneDaysBack: Array.from({ length: 14 }, (_, i) => i + 2),
    },
  ),
  "crease-free": await member("hannah.weber@example.com", ["crease-free"], {
    "crease-crisis": { foundationCreasing: "lunchtime", creasingLocation: "under-eyes" },
  }),
  "no-more-cakey": await member("priya.nair@example.com", ["no-more-cakey"], {
    "cakey-makeup": { skinType: "oily-combination", biggestFrustration: "fades-quickly" },
  }),
};
db.close();

const browser = await launchBrowser();
for (const [device, viewport] of Object.entries({ desktop: { width: 1280, height: 860 }, phone: { width: 412, height: 915 } })) {
  const guest = await browser.newContext({ viewport, deviceScaleFactor: device === "phone" ? 2 : 1, isMobile: device === "phone", timezoneId: "UTC" });
  const guestPage = await guest.newPage();
  await guestPage.goto(`${base}/home`);
  await guestPage.screenshot({ path: path.join(out, `home-signed-out-${device}.png`), fullPage: true, animations: "disabled" });
  await guest.close();
  for (const [plan, cookie] of Object.entries(members)) {
    const context = await browser.newContext({ viewport, deviceScaleFactor: device === "phone" ? 2 : 1, isMobile: device === "phone", timezoneId: "UTC" });
    await context.addCookies([{ name: "gc_session", value: cookie, url: base }]);
    const page = await context.newPage();
    const shot = async (name, url) => {
      await page.goto(`${base}${url}`);
      await page.waitForLoadState("networkidle");
      await page.screenshot({ path: path.join(out, `${plan}-${name}-${device}.png`), fullPage: true, animations: "disabled" });
    };
    await shot("home", "/home");
    await shot("player", `/plan/${plan}?step=${plan === "crease-free" ? 4 : 1}`);
    await shot("tutorial", "/path1");
    await shot("tutorial-4", "/path4");
    await shot("completion", "/completion");
    if (plan === "clear-healthy-skin") await shot("profile", "/profile");
    if (plan === "makeup-prep") await shot("profile-reminder-off", "/profile");
    await context.close();
  }
}
await browser.close();
server.kill("SIGTERM");
fs.rmSync(dataDir, { recursive: true, force: true });
console.log(`Screenshots in ${out}`);
