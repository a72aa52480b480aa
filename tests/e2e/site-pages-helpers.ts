/**
 * Seeding for the landing / brands / analytics / admin specs: first-party events,
 * subscriptions and completions written straight into the e2e database.
 */
import crypto from "node:crypto";
import Database from "better-sqlite3";
import { seedEntitlement } from "./members-helpers";
import { E2E_DB } from "./support";

export const DAY_MS = 86_400_000;
const stored = (date: Date) => date.toISOString().replace("Z", "+00:00");

function open() {
  const db = new Database(E2E_DB, { fileMustExist: true, timeout: 10_000 });
  db.pragma("journal_mode = WAL");
  return db;
}

export type SeedEvent = { visitorId: string; name: string; funnel?: string; step?: string; props?: Record<string, unknown>; userId?: string; at: Date };

export function seedEvents(events: SeedEvent[]) {
  const db = open();
  try {
    const insert = db.prepare(`INSERT INTO "AnalyticsEvent" ("id","visitorId","name","funnel","step","props","userId","createdAt") VALUES (?,?,?,?,?,?,?,?)`);
    db.transaction(() => {
      for (const e of events) insert.run(crypto.randomUUID(), e.visitorId, e.name, e.funnel ?? null, e.step ?? null, JSON.stringify(e.props ?? {}), e.userId ?? null, stored(e.at));
    })();
  } finally {
    db.close();
  }
}

export function seedUser(email: string, role = "user"): string {
  const id = crypto.randomUUID();
  const db = open();
  try {
    db.prepare(`INSERT INTO "User" ("id","email","role","timeZone","createdAt","emailVerifiedAt") VALUES (?,?,?,?,?,?)`).run(id, email, role, "UTC", stored(new Date()), stored(new Date()));
  } finally {
    db.close();
  }
  return id;
}

export function seedSubscriptionAt(userId: string, tier: "monthly" | "annual" | "single_payment", periodEnd: Date | null, status = "active") {
  seedEntitlement(userId, { tier, periodEnd, status, startedAt: new Date(), routinePlanId: tier === "single_payment" ? "crease-free" : "clear-healthy-skin" });
}

export function seedCompletion(userId: string, date: string) {
  const db = open();
  try {
    db.prepare(`INSERT INTO "PlanCompletion" ("id","userId","planId","date","createdAt") VALUES (?,?,?,?,?)`).run(crypto.randomUUID(), userId, "clear-healthy-skin", date, stored(new Date()));
  } finally {
    db.close();
  }
}

/** Keeps a session valid at a far test-clock time. */
export function extendSessions(userId: string, until: Date) {
  const db = open();
  try {
    db.prepare(`UPDATE "Session" SET "expiresAt" = ? WHERE "userId" = ?`).run(stored(until), userId);
  } finally {
    db.close();
  }
}

export function roleOf(userId: string): string {
  const db = open();
  try {
    return (db.prepare(`SELECT role FROM "User" WHERE id = ?`).get(userId) as { role: string }).role;
  } finally {
    db.close();
  }
}

export function visitorRow(id: string): Record<string, unknown> | undefined {
  const db = open();
  try {
    return db.prepare(`SELECT * FROM "Visitor" WHERE id = ?`).get(id) as Record<string, unknown> | undefined;
  } finally {
    db.close();
  }
}

export function visitorByCampaign(campaign: string): Record<string, unknown> | undefined {
  const db = open();
  try {
    return db.prepare(`SELECT * FROM "Visitor" WHERE utmCampaign = ?`).get(campaign) as Record<string, unknown> | undefined;
  } finally {
    db.close();
  }
}

export function seedVisitor(id: string, landing: { utmSource?: string; referrer?: string; landingPath?: string }) {
  const db = open();
  try {
    db.prepare(`INSERT INTO "Visitor" ("id","landingPath","referrer","utmSource","firstSeenAt") VALUES (?,?,?,?,?)`).run(
      id,
      landing.landingPath ?? "/",
      landing.referrer ?? null,
      landing.utmSource ?? null,
      stored(new Date()),
    );
  } finally {
    db.close();
  }
}
