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

/** A sign-up whose fields passed RegistrationForm (forms.server.ts). */
export async function register(request: Request, input: { name: string; email: string; password: string }, clientIp: string): Promise<Go | Refusal> {
  // It sends an e-mail: the same limits as asking for a sign-in link.
  const limit = await tryAcquire(signInEmailLimits(input.email, clientIp));
  if (!limit.ok) return tooMany(limit.retryAt, "sign-up attempts");

  // Hashed whatever the address, so both answers take the same time.
  const passwordHash = await hashPassword(input.password);
  const state = accountState(await findUserByEmail(input.email));
  return sendRegistrationEmail({ request, email: input.email, name: input.name, passwordHash, accountExists: registrationEmail(state) === "account-exists" });
}
