/**
 * Helpers for the members' area specs: members created straight in the e2e database (a
 * user, a signed-in session and, if wanted, a subscription), so each test starts from a
 * known state without spending the sign-in e-mail rate limit. The real e-mail sign-in is
 * signIn() in accounts.ts.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { createCookie } from "@remix-run/node";
import { expect, type BrowserContext, type Page } from "@playwright/test";
import { uniqueEmail } from "./accounts";
import { E2E_DB } from "./support";

const E2E_DATA_DIR = path.dirname(E2E_DB);

function open() {
  const db = new Database(E2E_DB, { fileMustExist: true, timeout: 10_000 });
  db.pragma("journal_mode = WAL");
  return db;
}

/** DateTime as the app's Prisma adapter stores it in SQLite. */
const stored = (date: Date) => date.toISOString().replace("Z", "+00:00");


export type Tier = "monthly" | "annual" | "single_payment";

const PLANS: Record<Tier, { planName: string; priceMinor: number }> = {
  monthly: { planName: "Monthly Plan", priceMinor: 999 },
  annual: { planName: "Annual Plan", priceMinor: 5900 },
  single_payment: { planName: "Lifetime Plan", priceMinor: 2999 },
};

/** Writes a Subscription row the way payments will (one per user). */
export function seedSubscription(userId: string, tier: Tier, { startedAt = new Date("2026-01-05T10:00:00Z") } = {}) {
  const db = open();
  try {
    const now = new Date();
    const periodEnd = tier === "single_payment" ? null : new Date(now.getTime() + (tier === "monthly" ? 30 : 365) * 86_400_000);
    db.prepare(
      `INSERT INTO "Subscription" ("id","userId","tier","status","planName","priceMinor","currency","startedAt","currentPeriodEnd","cancelAtPeriodEnd","stateAt","createdAt","updatedAt")
       VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)`,
    ).run(
      crypto.randomUUID(),
      userId,
      tier,
      "active",
      PLANS[tier].planName,
      PLANS[tier].priceMinor,
      "usd",
      stored(startedAt),
      periodEnd ? stored(periodEnd) : null,
      0,
      stored(now),
      stored(now),
      stored(now),
    );
    return { periodEnd };
  } finally {
    db.close();
  }
}

/** A verified member with a full session in `context` (the signed gc_session cookie). */
export async function signedInMember(context: BrowserContext, baseURL: string, { subscription, role = "user" }: { subscription?: Tier; role?: "user" | "admin" } = {}) {
  const email = uniqueEmail("member");
  const userId = crypto.randomUUID();
  const sessionId = crypto.randomBytes(24).toString("base64url");
  const db = open();
  try {
    const now = new Date();
    db.prepare(`INSERT INTO "User" ("id","email","role","timeZone","createdAt","emailVerifiedAt") VALUES (?,?,?,?,?,?)`).run(userId, email, role, "UTC", stored(now), stored(now));
    db.prepare(`INSERT INTO "Session" ("id","userId","expiresAt","createdAt") VALUES (?,?,?,?)`).run(sessionId, userId, stored(new Date(now.getTime() + 30 * 86_400_000)), stored(now));
  } finally {
    db.close();
  }
  if (subscription) seedSubscription(userId, subscription);
  // The server generated its dev secret in the e2e data folder when it started.
  const { SESSION_SECRET } = JSON.parse(fs.readFileSync(path.join(E2E_DATA_DIR, "dev-secrets.json"), "utf8"));
  const value = (await createCookie("gc_session", { secrets: [SESSION_SECRET] }).serialize(sessionId)).split(";")[0].split("=").slice(1).join("=");
  await context.addCookies([{ name: "gc_session", value, url: baseURL, httpOnly: true, sameSite: "Lax" }]);
  return { email, userId };
}

export function userIdOf(email: string): string {
  const db = open();
  try {
    const row = db.prepare(`SELECT id FROM "User" WHERE email = ?`).get(email) as { id: string } | undefined;
    if (!row) throw new Error(`no user ${email}`);
    return row.id;
  } finally {
    db.close();
  }
}

export function completionsOf(userId: string): { planId: string; date: string }[] {
  const db = open();
  try {
    return db.prepare(`SELECT planId, date FROM "PlanCompletion" WHERE userId = ? ORDER BY date`).all(userId) as never;
  } finally {
    db.close();
  }
}

export function storedTimeZone(userId: string): string {
  const db = open();
  try {
    return (db.prepare(`SELECT timeZone FROM "User" WHERE id = ?`).get(userId) as { timeZone: string }).timeZone;
  } finally {
    db.close();
  }
}

/** Today's date in `timeZone`, as the app computes it. */
export function todayIn(timeZone: string): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());
}

export async function expectStreak(page: Page, days: number) {
  await expect(page.getByTestId("streak")).toHaveText(new RegExp(`Current Streak: ${days} ${days === 1 ? "day" : "days"}$`));
}
