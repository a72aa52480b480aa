/**
 * The one place a proven sign-in finishes: an e-mailed link or code was used, or Google
 * vouched for the address. Every way in (magic link, code, Google, a password of a verified
 * account) ends here, so what a sign-in does to an account is decided once
 * (account-state.ts) and anything else that belongs to "this person just signed in" hooks
 * in here too.
 */
import { linkToAccount } from "~/experiments/assignment.server";
import { now } from "~/utils/clock.server";
import { againIfCreatedMeanwhile, db } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { accountState, verifiedSignIn, type Proof } from "./account-state";
import { sessionCookie } from "~/utils/session-cookie.server";
import { newSession } from "./session.server";
import { EmailAddress, StoredRole, toSessionUser, type SessionUser } from "./users.server";

export type SignInIdentity = {
  email: string;
  /** How the address was proven; "password" only for an account already verified. */
  proof: Proof | "password";
  /** Google's subject id, linked to the account. */
  googleId?: string;
  /** The name Google gives, for an account created by this sign-in. */
  googleName?: string | null;
  /** A registration confirmed in the browser that made it: its password and name. */
  confirmedRegistration?: { passwordHash: string; name: string | null } | null;
  /** This browser's visitor id: its experiment variants go with the account (other devices see them too). */
  visitorId?: string | null;
};

export type SignedIn = { user: SessionUser; sessionCookie: string; firstVerification: boolean };

/**
 * Verifies the address if this is its first proof (ending every session opened before it and
 * dropping a password nobody proved), applies ADMIN_EMAILS, and opens a fresh full session
 * for this browser. Returns the Set-Cookie value for it.
 */
export async function completeSignIn(identity: SignInIdentity): Promise<SignedIn> {
  const at = now();
  // Two first sign-ins for a new address at once: the second to insert its row runs again and
  // finds the first's.
  const result = await againIfCreatedMeanwhile(() =>
    db.$transaction(async (tx) => {
      const linked = identity.googleId ? await tx.user.findUnique({ where: { googleId: identity.googleId } }) : null;
      const email = linked?.email ?? EmailAddress.parse(identity.email);
      const found = linked ?? (await tx.user.findUnique({ where: { email } }));
      if (identity.proof === "password" && accountState(found) !== "verified") throw new Error("a password proves nothing for an unverified address");
      // A new address gets its row here and is verified just below; two first sign-ins at once share it.
      const account = found ?? (await tx.user.upsert({ where: { email }, create: { email, name: identity.googleName ?? null }, update: {} }));
      const plan = verifiedSignIn({
        state: accountState(account),
        email,
        storedRole: StoredRole.parse(account.role),
        adminEmails: env.adminEmails,
        confirmedRegistration: identity.confirmedRegistration,
      });
      const googleId = identity.googleId ? { googleId: identity.googleId } : {};

      let firstVerification = false;
      if (plan.firstVerification) {
        // Only the request that flips the account to verified applies the first-proof rules.
        const { count } = await tx.user.updateMany({
          where: { id: account.id, emailVerifiedAt: null },
          data: {
            emailVerifiedAt: at,
            role: plan.role,
            passwordHash: plan.passwordHash ?? null,
            ...(plan.name !== undefined ? { name: plan.name } : {}),
            ...googleId,
          },
        });
        firstVerification = count === 1;
        if (firstVerification && plan.endOtherSessions) await tx.session.deleteMany({ where: { userId: account.id } });
      }
      if (!firstVerification) await tx.user.update({ where: { id: account.id }, data: { role: plan.role, ...googleId } });

      const user = await tx.user.findUniqueOrThrow({ where: { id: account.id } });
      const session = newSession(user.id, "full");
      await tx.session.create({ data: session });
      return { user: toSessionUser(user), sessionId: session.id, firstVerification };
    }),
  );
  if (identity.visitorId) await linkToAccount(identity.visitorId, result.user.id);
  return { user: result.user, sessionCookie: await sessionCookie.serialize(result.sessionId), firstVerification: result.firstVerification };
}
