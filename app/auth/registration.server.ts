/**
 * Creating an account with a name and password. Signing up proves nothing about the
 * address, so it opens no session: it e-mails a link and code, and the account (with this
 * password) exists once they are used in this browser. An address that already belongs to
 * a verified account gets the same answer here, and its owner an e-mail instead.
 */
import type { Go, Refusal } from "~/utils/outcome";
import { accountState, registrationEmail } from "./account-state";
import { hashPassword } from "./crypto.server";
import { sendRegistrationEmail, tooMany } from "./login.server";
import { signInEmailLimits, tryAcquire } from "./rate-limit.server";
import { findUserByEmail } from "./users.server";

/**
 * A sign-up whose fields passed RegistrationForm (forms.server.ts), from `clientIp`, in the
 * browser whose Cookie header is `cookieHeader` (it keeps the proof that it signed up).
 */
export async function register(input: { name: string; email: string; password: string; clientIp: string; cookieHeader: string | null }): Promise<Go | Refusal> {
  // It sends an e-mail: the same limits as asking for a sign-in link.
  const limit = await tryAcquire(signInEmailLimits(input.email, input.clientIp));
  if (!limit.ok) return tooMany(limit.retryAt, "sign-up attempts");

  // Hashed whatever the address, so both answers take the same time.
  const passwordHash = await hashPassword(input.password);
  const state = accountState(await findUserByEmail(input.email));
  return sendRegistrationEmail({
    cookieHeader: input.cookieHeader,
    email: input.email,
    name: input.name,
    passwordHash,
    accountExists: registrationEmail(state) === "account-exists",
  });
}
