/**
 * Seeding for the landing / brands / analytics / admin specs: first-party events,
 * subscriptions and completions written straight into the e2e database.
 */
import crypto from "node:crypto";
import { seedEntitlement } from "./members-helpers";
import { rows, run } from "./test-db";

export const DAY_MS = 86_400_000;

export type SeedEvent = { visitorId: string; name: string; funnel?: string; step?: string; props?: Record<string, unknown>; userId?: string; at: Date };

export async function seedEvents(events: SeedEvent[]) {
  for (const e of events) {
    await run(
      `INSERT INTO "AnalyticsEvent" ("id","visitorId","name","funnel","step","props","userId","createdAt") VALUES (?,?,?,?,?,?,?,?)`,
      crypto.randomUUID(),
      e.visitorId,
      e.name,
      e.funnel ?? null,
      e.step ?? null,
      JSON.stringify(e.props ?? {}),
      e.userId ?? null,
      e.at,
    );
  }
}

export async function seedUser(email: string, role = "user"): Promise<string> {
  const id = crypto.randomUUID();
  await run(
    `INSERT INTO "User" ("id","email","role","timeZone","createdAt","emailVerifiedAt") VALUES (?,?,?,?,?,?)`,
    id,
    email,
    role,
    "UTC",
    new Date(),
    new Date(),
  );
  return id;
}

export async function seedSubscriptionAt(userId: string, tier: "monthly" | "annual" | "single_payment", periodEnd: Date | null, status = "active") {
  await seedEntitlement(userId, {
    tier,
    periodEnd,
    status,
    startedAt: new Date(),
    routinePlanId: tier === "single_payment" ? "crease-free" : "clear-healthy-skin",
  });
}

export async function seedCompletion(userId: string, date: string) {
  await run(
    `INSERT INTO "PlanCompletion" ("id","userId","planId","date","createdAt") VALUES (?,?,?,?,?)`,
    crypto.randomUUID(),
    userId,
    "clear-healthy-skin",
    date,
    new Date(),
  );
}

/** Keeps a session valid at a far test-clock time. */
export async function extendSessions(userId: string, until: Date) {
  await run(`UPDATE "Session" SET "expiresAt" = ? WHERE "userId" = ?`, until, userId);
}

export async function roleOf(userId: string): Promise<string> {
  const [row] = await rows<{ role: string }>(`SELECT "role" FROM "User" WHERE "id" = ?`, userId);
  return row.role;
}

export async function visitorRow(id: string): Promise<Record<string, unknown> | undefined> {
  return (await rows(`SELECT * FROM "Visitor" WHERE "id" = ?`, id))[0];
}

export async function visitorByCampaign(campaign: string): Promise<Record<string, unknown> | undefined> {
  return (await rows(`SELECT * FROM "Visitor" WHERE "utmCampaign" = ?`, campaign))[0];
}

export async function seedVisitor(id: string, landing: { utmSource?: string; referrer?: string; landingPath?: string }) {
  await run(
    `INSERT INTO "Visitor" ("id","landingPath","referrer","utmSource","firstSeenAt") VALUES (?,?,?,?,?)`,
    id,
    landing.landingPath ?? "/",
    landing.referrer ?? null,
    landing.utmSource ?? null,
    new Date(),
  );
}
