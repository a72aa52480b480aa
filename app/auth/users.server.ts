/**
 * Accounts: the person behind an e-mail address. Who may be signed in to an account is
 * decided by account-state.ts; a proven sign-in finishes in sign-in.server.ts.
 */
import { z } from "zod";
import { againIfCreatedMeanwhile, db, type DbTransaction } from "~/utils/db.server";
import type { Role } from "./account-state";

export type SessionUser = {
  id: string;
  email: string;
  name: string | null;
  role: Role;
  timeZone: string;
  /** The member's local date of their latest routine step or finish (fixes that day's zone). */
  lastActedOn: string | null;
};

import { EmailAddress } from "./email-address";

export { EmailAddress };

export const StoredRole = z.enum(["user", "admin"]).catch("user");

export function toSessionUser(user: {
  id: string;
  email: string;
  name: string | null;
  role: string;
  timeZone: string;
  lastActedOn: string | null;
}): SessionUser {
  // The role defaults to "user": a missing or unknown stored role counts as "user", never as admin.
  return { id: user.id, email: user.email, name: user.name, role: StoredRole.parse(user.role), timeZone: user.timeZone, lastActedOn: user.lastActedOn };
}

export async function findUserByEmail(email: string) {
  return db.user.findUnique({ where: { email } });
}

/**
 * The account a purchase belongs to: found by address, or created pending (a checkout's
 * e-mail is typed by the buyer and proves nothing). Never changes the role or verifies.
 *
 * Two purchases by a new address at once (a Stripe webhook and the success page, on two
 * instances) both find no account and both insert: the unique address refuses the second,
 * which then finds the first's. `within` a caller's transaction (checkout fulfilment) that
 * refusal ends the transaction, so the caller runs the whole of it again.
 */
export async function accountForPurchase(email: string, within?: DbTransaction): Promise<{ id: string; email: string; emailVerifiedAt: Date | null }> {
  const address = EmailAddress.parse(email);
  const findOrCreate = (client: DbTransaction) =>
    client.user.upsert({ where: { email: address }, create: { email: address }, update: {}, select: { id: true, email: true, emailVerifiedAt: true } });
  return within ? findOrCreate(within) : againIfCreatedMeanwhile(() => findOrCreate(db));
}
