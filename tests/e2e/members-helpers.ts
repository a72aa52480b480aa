/**
 * Helpers for the members' area specs: members created straight in the e2e database (a
 * user, a signed-in session and, if wanted, a subscription), so each test starts from a
 * known state without spending the sign-in e-mail rate limit. The real e-mail sign-in is
 * signIn() in accounts.ts.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { createCookie } from "@remix-run/node";
import { expect, type BrowserContext, type Page } from "@playwright/test";
import { uniqueEmail } from "./accounts";
import { E2E_DB, rows, run } from "./test-db";

const E2E_DATA_DIR = path.dirname(E2E_DB);


export type Tier = "monthly" | "annual" | "single_payment";

const PLANS: Record<Tier, { planName: string; priceMinor: number }> = {
  monthly: { planName: "Monthly Plan", priceMinor: 999 },
  annual: { planName: "Annual Plan", priceMinor: 5900 },
  single_payment: { planName: "Lifetime Plan", priceMinor: 2999 },
};

/** Writes a Subscription row the way payments will (one per user). */
export async function seedSubscription(userId: string, tier: Tier, { startedAt = new Date("2026-01-05T10:00:00Z") } = {}) {
  const now = new Date();
  const periodEnd = tier === "single_payment" ? null : new Date(now.getTime() + (tier === "monthly" ? 30 : 365) * 86_400_000);
  await run(
    `INSERT INTO "Subscription" ("id","userId","tier","status","planName","priceMinor","currency","startedAt","currentPeriodEnd","cancelAtPeriodEnd","stateAt","createdAt","updatedAt")
     VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)`,
    crypto.randomUUID(),
    userId,
    tier,
    "active",
    PLANS[tier].planName,
    PLANS[tier].priceMinor,
    "usd",
    startedAt,
    periodEnd,
    false,
    now,
    now,
    now,
  );
  return { periodEnd };
}

/** A verified member with a full session in `context` (the signed gc_session cookie). */
export async function signedInMember(context: BrowserContext, baseURL: string, { subscription, role = "user" }: { subscription?: Tier; role?: "user" | "admin" } = {}) {
  const email = uniqueEmail("member");
  const userId = crypto.randomUUID();
  const sessionId = crypto.randomBytes(24).toString("base64url");
  const now = new Date();
  await run(`INSERT INTO "User" ("id","email","role","timeZone","createdAt","emailVerifiedAt") VALUES (?,?,?,?,?,?)`, userId, email, role, "UTC", now, now);
  await run(`INSERT INTO "Session" ("id","userId","expiresAt","createdAt") VALUES (?,?,?,?)`, sessionId, userId, new Date(now.getTime() + 30 * 86_400_000), now);
  if (subscription) await seedSubscription(userId, subscription);
  // The server generated its dev secret in the e2e data folder when it started.
  const { SESSION_SECRET } = JSON.parse(fs.readFileSync(path.join(E2E_DATA_DIR, "dev-secrets.json"), "utf8"));
  const value = (await createCookie("gc_session", { secrets: [SESSION_SECRET] }).serialize(sessionId)).split(";")[0].split("=").slice(1).join("=");
  await context.addCookies([{ name: "gc_session", value, url: baseURL, httpOnly: true, sameSite: "Lax" }]);
  return { email, userId };
}

export async function userIdOf(email: string): Promise<string> {
  const [row] = await rows<{ id: string }>(`SELECT "id" FROM "User" WHERE "email" = ?`, email);
  if (!row) throw new Error(`no user ${email}`);
  return row.id;
}

export function completionsOf(userId: string): Promise<{ planId: string; date: string }[]> {
  return rows(`SELECT "planId", "date" FROM "PlanCompletion" WHERE "userId" = ? ORDER BY "date"`, userId);
}

export async function storedTimeZone(userId: string): Promise<string> {
  const [row] = await rows<{ timeZone: string }>(`SELECT "timeZone" FROM "User" WHERE "id" = ?`, userId);
  return row.timeZone;
}

/** Today's date in `timeZone`, as the app computes it. */
export function todayIn(timeZone: string): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());
}

export async function expectStreak(page: Page, days: number) {
  await expect(page.getByTestId("streak")).toHaveText(new RegExp(`Current Streak: ${days} ${days === 1 ? "day" : "days"}$`));
}
