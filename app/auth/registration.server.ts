/**
 * Creating an account with a name and password. Signing up proves nothing about the
 * address, so it opens no session: it e-mails a link and code, and the account (with this
 * password) exists once they are used in this browser. An address that already belongs to
 * a verified account gets the same answer here, and its owner an e-mail instead.
 */
import { z } from "zod";
import { accountState, registrationEmail } from "./account-state";
import { hashPassword } from "./crypto.server";
import { sendRegistrationEmail, tooMany, type FormOutcome } from "./login.server";
import { signInEmailLimits, tryAcquire } from "./rate-limit.server";
import { EmailAddress, findUserByEmail } from "./users.server";

export const Registration = z
  .object({
    name: z.string().trim().min(1, "Please enter your name.").max(100, "Please use at most 100 characters."),
    email: z.string().min(1, "Please enter your e-mail address.").pipe(EmailAddress),
    password: z.string().min(8, "Use at least 8 characters.").max(200, "Use at most 200 characters."),
    confirmPassword: z.string().min(1, "Please repeat your password."),
  })
  .refine((form) => form.password === form.confirmPassword, { path: ["confirmPassword"], message: "The passwords don't match." });

export type RegistrationErrors = Partial<Record<"name" | "email" | "password" | "confirmPassword" | "form", string>>;

export type RegistrationOutcome = Response | { status: number; errors: RegistrationErrors; headers?: HeadersInit };

export async function register(request: Request, fields: Record<string, string>, clientIp: string): Promise<RegistrationOutcome> {
  const parsed = Registration.safeParse(fields);
  if (!parsed.success) {
    const errors: RegistrationErrors = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as keyof RegistrationErrors;
      errors[field] ??= issue.message;
    }
    return { status: 400, errors };
  }
  const { name, email, password } = parsed.data;

  // It sends an e-mail: the same limits as asking for a sign-in link.
  const limit = await tryAcquire(signInEmailLimits(email, clientIp));
  if (!limit.ok) {
    const outcome: FormOutcome = tooMany(limit.retryAt, "sign-up attempts");
    return { status: outcome.status, errors: { form: outcome.error }, headers: outcome.headers };
  }

  // Hashed whatever the address, so both answers take the same time.
  const passwordHash = await hashPassword(password);
  const state = accountState(await findUserByEmail(email));
  return sendRegistrationEmail({ request, email, name, passwordHash, accountExists: registrationEmail(state) === "account-exists" });
}
