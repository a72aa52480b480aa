/** Accounts: finding or creating the person behind an e-mail, and their role. */
import { z } from "zod";
import { db } from "~/utils/db.server";
import { env } from "~/utils/env.server";

export type SessionUser = { id: string; email: string; name: string | null; role: "user" | "admin"; timeZone: string };

export const EmailAddress = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, "That e-mail address is too long.")
  .pipe(z.email("Please enter a valid e-mail address."));

const Role = z.enum(["user", "admin"]).catch("user");

export function toSessionUser(user: { id: string; email: string; name: string | null; role: string; timeZone: string }): SessionUser {
  // An unknown stored role counts as "user" (spec: the role defaults to user).
  return { id: user.id, email: user.email, name: user.name, role: Role.parse(user.role), timeZone: user.timeZone };
}

function roleFor(email: string): "admin" | undefined {
  return env.adminEmails.includes(email) ? "admin" : undefined;
}

/**
 * The account for a verified e-mail address, created on first sign-in (role user).
 * ADMIN_EMAILS grants admin at sign-in.
 */
export async function signInByEmail(email: string): Promise<SessionUser> {
  const admin = roleFor(email);
  const user = await db.user.upsert({
    where: { email },
    create: { email, role: admin ?? "user" },
    update: admin ? { role: admin } : {},
  });
  return toSessionUser(user);
}

export async function findUserByEmail(email: string) {
  return db.user.findUnique({ where: { email } });
}

/**
 * The account for a Google identity: found by its Google id, else by its verified e-mail
 * (linking the two), else created with the name Google gives.
 */
export async function signInWithGoogle(google: { sub: string; email: string; name?: string }): Promise<SessionUser> {
  const email = EmailAddress.parse(google.email);
  const admin = roleFor(email);
  const linked = await db.user.findUnique({ where: { googleId: google.sub } });
  const user = linked
    ? await db.user.update({ where: { id: linked.id }, data: admin ? { role: admin } : {} })
    : await db.user.upsert({
        where: { email },
        create: { email, name: google.name ?? null, googleId: google.sub, role: admin ?? "user" },
        update: { googleId: google.sub, ...(admin ? { role: admin } : {}) },
      });
  return toSessionUser(user);
}
