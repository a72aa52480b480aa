/**
 * Health checks for a load balancer or process manager, answered by the HTTP server before
 * anything else (no rate limit, no request log, no cookies):
 *   GET /healthz  liveness: the process answers. 200 while it runs.
 *   GET /readyz   readiness: the database answers a query, every migration of its
 *                 migrations folder is applied, and content (funnels, site settings) is
 *                 loaded. 200 when all hold, else 503 naming the check that failed; the
 *                 reason goes to the log, not to whoever asked.
 */
import fs from "node:fs";
import path from "node:path";
import type { IncomingMessage, ServerResponse } from "node:http";
import { getFunnels, getSiteSettings } from "~/content/content.server";
import { staticSecurityHeaders } from "~/security/headers.server";
import { db, provider } from "~/utils/db.server";
import { logger } from "~/utils/logger.server";
import { query, queryRowsWithin, statement } from "~/utils/sql.server";

export type CheckName = "database" | "migrations" | "content";
/** `checks`: "ok" or "failed" per check (public); `problems`: why, for the log. */
export type Readiness = { ready: boolean; checks: Record<CheckName, "ok" | "failed">; problems: Partial<Record<CheckName, string>> };

/** A check that has not answered by then counts as failed: a probe must not hang. */
const CHECK_TIMEOUT_MS = 3_000;

/**
 * The migrations this code needs: the folders of the database's migrations folder,
 * prisma/migrations or prisma/postgresql/migrations (the app runs from the repository root).
 */
export function requiredMigrations(dir = path.resolve(provider === "postgresql" ? "prisma/postgresql/migrations" : "prisma/migrations")): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(dir, entry.name, "migration.sql")))
    .map((entry) => entry.name)
    .sort();
}

function withTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

const answerOne = statement(() => query.selectNoFrom((eb) => eb.lit(1).as("up")));
const appliedMigrations = statement(() =>
  query.selectFrom("_prisma_migrations").select("migration_name").where("finished_at", "is not", null).where("rolled_back_at", "is", null),
);

/** Each check resolves to null when it holds, or says what is wrong. */
async function checkDatabase(): Promise<string | null> {
  await queryRowsWithin(db, answerOne);
  return null;
}

async function checkMigrations(required: string[]): Promise<string | null> {
  // Prisma's own table, on SQLite and PostgreSQL alike; missing until the first migration.
  const rows = await queryRowsWithin(db, appliedMigrations).catch((error: Error) => {
    if (error.message.includes("_prisma_migrations")) return [];
    throw error;
  });
  const applied = new Set(rows.map((row) => row.migration_name));
  const pending = required.filter((name) => !applied.has(name));
  return pending.length === 0 ? null : `${pending.length} not applied: ${pending.join(", ")} (run npm run db:migrate)`;
}

async function checkContent(): Promise<string | null> {
  const [funnels] = await Promise.all([getFunnels(), getSiteSettings()]);
  return funnels.size > 0 ? null : "no funnels loaded";
}

async function problemOf(check: () => Promise<string | null>): Promise<string | null> {
  try {
    return await withTimeout(check());
  } catch (error) {
    return error instanceof Error ? error.message.split("\n")[0].slice(0, 300) : String(error);
  }
}

export async function checkReadiness(required = requiredMigrations()): Promise<Readiness> {
  const [database, migrations, content] = await Promise.all([problemOf(checkDatabase), problemOf(() => checkMigrations(required)), problemOf(checkContent)]);
  const found = { database, migrations, content };
  const checks = {} as Readiness["checks"];
  const problems: Readiness["problems"] = {};
  for (const [name, problem] of Object.entries(found) as [CheckName, string | null][]) {
    checks[name] = problem === null ? "ok" : "failed";
    if (problem !== null) problems[name] = problem;
  }
  return { ready: Object.keys(problems).length === 0, checks, problems };
}

let lastReady: boolean | undefined;

/** Logs when readiness changes, not on every probe. */
function noteReadiness(readiness: Readiness): void {
  if (readiness.ready === lastReady) return;
  lastReady = readiness.ready;
  if (readiness.ready) logger.info("[health] ready");
  else logger.error({ problems: readiness.problems }, "[health] not ready");
}

/** Checks once and logs the outcome: the server calls it when it starts. */
export async function reportReadiness(): Promise<Readiness> {
  const readiness = await checkReadiness();
  noteReadiness(readiness);
  return readiness;
}

function answer(res: ServerResponse, status: number, body: unknown, head: boolean): void {
  res.writeHead(status, { ...staticSecurityHeaders(), "Content-Type": "application/json", "Cache-Control": "no-store" });
  res.end(head ? undefined : JSON.stringify(body));
}

/**
 * Answers GET/HEAD /healthz and /readyz and returns true; returns false for any other
 * request, which then goes through the app as usual.
 */
export function serveHealthCheck(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  const path = (req.url ?? "").split("?")[0];
  const head = req.method === "HEAD";
  if (path === "/healthz") {
    answer(res, 200, { status: "ok" }, head);
    return true;
  }
  if (path !== "/readyz") return false;
  checkReadiness().then(
    (readiness) => {
      noteReadiness(readiness);
      answer(res, readiness.ready ? 200 : 503, { status: readiness.ready ? "ready" : "not ready", checks: readiness.checks }, head);
    },
    (error) => {
      logger.error({ err: error }, "[health] the readiness check failed");
      answer(res, 503, { status: "not ready" }, head);
    },
  );
  return true;
}
