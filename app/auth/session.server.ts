/**
 * Signed-in sessions: a row per browser in the database, referenced by the signed,
 * HttpOnly gc_session cookie. 30-day rolling expiry; signing out deletes the row.
 */
import { signedCookie } from "~/utils/cookies.server";
import { randomSecret } from "./crypto.server";
import { toSessionUser, type SessionUser } from "./users.server";
import { now } from "~/utils/clock.server";
import { db } from "~/utils/db.server";
import { queryRows, sql } from "~/utils/sql.server";

const SESSION_DAYS = 30;
const DAY = 24 * 60 * 60 * 1000;

export const sessionCookie = signedCookie("gc_session", SESSION_DAYS * 24 * 60 * 60);

export async function createUserSession(userId: string): Promise<string> {
  const id = randomSecret();
  await db.session.create({ data: { id, userId, expiresAt: new Date(now().getTime() + SESSION_DAYS * DAY) } });
  return sessionCookie.serialize(id);
}

export type CurrentSession = { sessionId: string; user: SessionUser; setCookie?: string };

/** Per request: the same Request is asked by the root and the route loaders. */
const memo = new WeakMap<Request, Promise<CurrentSession | null>>();

/**
 * The signed-in user, or null. A session used more than a day after it was last
 * extended gets another 30 days (and a fresh cookie in `setCookie`).
 */
export function currentSession(request: Request): Promise<CurrentSession | null> {
  let pending = memo.get(request);
  if (!pending) {
    pending = readSession(request.headers.get("Cookie"));
    memo.set(request, pending);
  }
  return pending;
}

type SessionRow = { expiresAt: Date; id: string; email: string; name: string | null; role: string; timeZone: string };

async function readSession(cookieHeader: string | null): Promise<CurrentSession | null> {
  if (!cookieHeader?.includes("gc_session=")) return null;
  const id = await sessionCookie.parse(cookieHeader).catch(() => null);
  if (typeof id !== "string" || id.length > 100) return null;
  // Every signed-in request reads this: one join as hot-path SQL. The ORM's findUnique with
  // include measured ≈ 0.7 ms of CPU per call here, Prisma's raw query ≈ 0.14 ms.
  const rows = await queryRows<SessionRow>(sql`
    SELECT s."expiresAt", u."id", u."email", u."name", u."role", u."timeZone"
    FROM "Session" s JOIN "User" u ON u."id" = s."userId" WHERE s."id" = ${id}`);
  const row = rows[0];
  const at = now();
  if (!row) return null;
  if (row.expiresAt <= at) {
    await db.session.deleteMany({ where: { id } });
    return null;
  }
  const session: CurrentSession = { sessionId: id, user: toSessionUser(row) };
  if (row.expiresAt.getTime() - at.getTime() < (SESSION_DAYS - 1) * DAY) {
    await db.session.update({ where: { id }, data: { expiresAt: new Date(at.getTime() + SESSION_DAYS * DAY) } });
    session.setCookie = await sessionCookie.serialize(id);
  }
  return session;
}

/** Signs out: deletes the row and clears the cookie. */
export async function destroySession(request: Request): Promise<string> {
  const session = await currentSession(request);
  if (session) await db.session.deleteMany({ where: { id: session.sessionId } });
  return sessionCookie.serialize("", { maxAge: 0 });
}
