// Gives a member a paid plan straight in the database, as a test purchase would record it (an
// Entitlement and its first EntitlementState). For benchmarks, screenshots and tests that start
// from members who already bought: better-sqlite3 `db`, the member's id, the routine plan.
import crypto from "node:crypto";

const stored = (date) => date.toISOString().replace("Z", "+00:00");

/** What each routine plan is sold as (content/offers.ndjson), for the rows to read like a purchase. */
const SOLD = {
  "clear-healthy-skin": { offerId: "skincare", tier: "annual", planId: "annual", planName: "Annual Plan", priceMinor: 5900 },
  "makeup-prep": { offerId: "makeup-prep", tier: "single_payment", planId: "lifetime", planName: "Makeup Prep Plan", priceMinor: 4900 },
  "crease-free": { offerId: "crease-free", tier: "single_payment", planId: "lifetime", planName: "Crease-Free Makeup Routine", priceMinor: 2999 },
  "no-more-cakey": { offerId: "cakey-makeup", tier: "single_payment", planId: "lifetime", planName: "No-More-Cakey Makeup Plan", priceMinor: 2999 },
};

export const ENTITLEMENT_INSERT = `INSERT INTO "Entitlement" ("id","userId","offerId","routinePlanId","stripeCheckoutSessionId","createdAt") VALUES (?,?,?,?,?,?)`;
export const STATE_INSERT = `INSERT INTO "EntitlementState" ("entitlementId","tier","planId","planName","priceMinor","currency","status","startedAt","currentPeriodEnd","cancelAtPeriodEnd","at","reason","recordedAt") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)`;

/**
 * The two rows a test purchase of `routinePlanId` records, as values for ENTITLEMENT_INSERT and
 * STATE_INSERT (dates as Date, the flag as false): for callers on either database.
 */
export function planRows(userId, routinePlanId = "clear-healthy-skin", { at = new Date() } = {}) {
  const sold = SOLD[routinePlanId];
  if (!sold) throw new Error(`no plan ${routinePlanId}`);
  const id = crypto.randomUUID();
  const end = sold.tier === "annual" ? new Date(at.getTime() + 365 * 86_400_000) : null;
  return {
    id,
    entitlement: [id, userId, sold.offerId, routinePlanId, `cs_local_seed_${id}`, at],
    state: [id, sold.tier, sold.planId, sold.planName, sold.priceMinor, "usd", "active", at, end, false, at, "purchase", at],
  };
}

/** grantPlan on a better-sqlite3 database (SQLite stores dates as text, flags as 0/1). */
export function grantPlan(db, userId, routinePlanId = "clear-healthy-skin", { at = new Date() } = {}) {
  const rows = planRows(userId, routinePlanId, { at });
  const sqlite = (values) => values.map((v) => (v instanceof Date ? stored(v) : typeof v === "boolean" ? Number(v) : v));
  db.prepare(ENTITLEMENT_INSERT).run(...sqlite(rows.entitlement));
  db.prepare(STATE_INSERT).run(...sqlite(rows.state));
  return rows.id;
}
