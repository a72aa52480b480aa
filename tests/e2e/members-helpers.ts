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
import { databaseOf, E2E_DB, rows } from "./test-db";

const E2E_DATA_DIR = path.dirname(E2E_DB);

export type Tier = "monthly" | "annual" | "single_payment";

/** Each routine plan, the offer that sells it and that offer's plans (content/offers.ndjson). */
export const PRODUCTS = {
  "clear-healthy-skin": { offerId: "skincare", plans: { monthly: ["monthly", "Monthly Plan", 999], annual: ["annual", "Annual Plan", 5900] } },
  "makeup-prep": { offerId: "makeup-prep", plans: { single_payment: ["lifetime", "Makeup Prep Plan", 4900] } },
  "crease-free": { offerId: "crease-free", plans: { single_payment: ["lifetime", "Crease-Free Makeup Routine", 2999] } },
  "no-more-cakey": { offerId: "cakey-makeup", plans: { single_payment: ["lifetime", "No-More-Cakey Makeup Plan", 2999] } },
} as const;
export type RoutinePlanId = keyof typeof PRODUCTS;

/**
 * Writes an entitlement and its first state the way a purchase does. `periodEnd` null: lifetime;
 * undefined: one period from now. The skincare plan's tiers are monthly and annual; the others
 * are lifetime purchases.
 */
export async function seedEntitlement(
  userId: string,
  {
    tier = "annual",
    routinePlanId = "clear-healthy-skin",
    status = "active",
    periodEnd,
    startedAt = new Date("2026-01-05T10:00:00Z"),
    dataDir,
  }: { tier?: Tier; routinePlanId?: RoutinePlanId; status?: string; periodEnd?: Date | null; startedAt?: Date; dataDir?: string } = {},
) {
  const product = PRODUCTS[routinePlanId];
  const [planId, planName, priceMinor] = (product.plans as Record<string, readonly [string, string, number]>)[tier] ?? [tier, `${tier} plan`, 999];
  const { run } = databaseOf(dataDir);
  const now = new Date();
  const end = periodEnd !== undefined ? periodEnd : tier === "single_payment" ? null : new Date(now.getTime() + (tier === "monthly" ? 30 : 365) * 86_400_000);
  const id = crypto.randomUUID();
  await run(
    `INSERT INTO "Entitlement" ("id","userId","offerId","routinePlanId","stripeCheckoutSessionId","createdAt") VALUES (?,?,?,?,?,?)`,
    id,
    userId,
    product.offerId,
    routinePlanId,
    `cs_local_seed_${id}`,
    startedAt,
  );
  await run(
    `INSERT INTO "EntitlementState" ("entitlementId","tier","planId","planName","priceMinor","currency","status","startedAt","currentPeriodEnd","cancelAtPeriodEnd","at","reason","recordedAt")
     VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)`,
    id,
    tier,
    planId,
    planName,
    priceMinor,
    "usd",
    status,
    startedAt,
    end,
    false,
    startedAt,
    "purchase",
    now,
  );
  return { entitlementId: id, periodEnd: end };
}

/** A skincare subscription (or lifetime purchase) for the default plan, as before plans per product. */
export function seedSubscription(userId: string, tier: Tier, { startedAt = new Date("2026-01-05T10:00:00Z") } = {}) {
  return seedEntitlement(userId, { tier, startedAt, routinePlanId: tier === "single_payment" ? "crease-free" : "clear-healthy-skin" });
}

/** The member's entitlements with their current state, newest purchase first (as entitlements.server reads them). */
export type StoredEntitlement = {
  id: string;
  offerId: string;
  routinePlanId: string;
  tier: string;
  planId: string;
  status: string;
  priceMinor: number;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  /** How many states its history has. */
  states: number;
};

export function entitlementsOf(userId: string, dataDir?: string): Promise<StoredEntitlement[]> {
  return databaseOf(dataDir).rows<StoredEntitlement>(
    `SELECT e."id", e."offerId", e."routinePlanId", s."tier", s."planId", s."status", s."priceMinor", s."currentPeriodEnd", s."cancelAtPeriodEnd",
            (SELECT COUNT(*) FROM "EntitlementState" c WHERE c."entitlementId" = e."id") AS "states"
     FROM "Entitlement" e JOIN "EntitlementState" s ON s."entitlementId" = e."id"
     WHERE e."userId" = ? AND NOT EXISTS (SELECT 1 FROM "EntitlementState" n WHERE n."entitlementId" = s."entitlementId" AND (n."at" > s."at" OR (n."at" = s."at" AND n."id" > s."id")))
     ORDER BY e."createdAt" DESC`,
    userId,
  );
}

/**
 * A verified member and a session of theirs, written straight into the database in `dataDir`
 * (the suite's own by default), with a subscription when asked. Returns the session's signed
 * gc_session cookie value, signed with `sessionSecret` (default: the dev secret the server
 * generated in its data folder when it started).
 */
export async function seedMember({
  email,
  subscription,
  role = "user",
  dataDir,
  sessionSecret,
}: {
  email: string;
  subscription?: Tier;
  role?: "user" | "admin";
  dataDir?: string;
  sessionSecret?: string;
}) {
  const userId = crypto.randomUUID();
  const sessionId = crypto.randomBytes(24).toString("base64url");
  const now = new Date();
  const { run } = databaseOf(dataDir);
  await run(`INSERT INTO "User" ("id","email","role","timeZone","createdAt","emailVerifiedAt") VALUES (?,?,?,?,?,?)`, userId, email, role, "UTC", now, now);
  await run(
    `INSERT INTO "Session" ("id","userId","expiresAt","createdAt") VALUES (?,?,?,?)`,
    sessionId,
    userId,
    new Date(now.getTime() + 30 * 86_400_000),
    now,
  );
  if (subscription)
    await seedEntitlement(userId, { tier: subscription, dataDir, routinePlanId: subscription === "single_payment" ? "crease-free" : "clear-healthy-skin" });
  const secret = sessionSecret ?? JSON.parse(fs.readFileSync(path.join(dataDir ?? E2E_DATA_DIR, "dev-secrets.json"), "utf8")).SESSION_SECRET;
  const cookie = (await createCookie("gc_session", { secrets: [secret] }).serialize(sessionId)).split(";")[0].split("=").slice(1).join("=");
  return { userId, cookie };
}

/** A verified member with a full session in `context` (the signed gc_session cookie). */
export async function signedInMember(
  context: BrowserContext,
  baseURL: string,
  { subscription, role = "user", dataDir }: { subscription?: Tier; role?: "user" | "admin"; dataDir?: string } = {},
) {
  const email = uniqueEmail("member");
  const { userId, cookie } = await seedMember({ email, subscription, role, dataDir });
  await context.addCookies([{ name: "gc_session", value: cookie, url: baseURL, httpOnly: true, sameSite: "Lax" }]);
  return { email, userId };
}

export async function userIdOf(email: string, dataDir?: string): Promise<string> {
  const [row] = await databaseOf(dataDir).rows<{ id: string }>(`SELECT "id" FROM "User" WHERE "email" = ?`, email);
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
