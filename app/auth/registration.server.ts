/** Creating an account with a name and password (the spec's form, made real). */
import { z } from "zod";
import { db } from "~/utils/db.server";
import { hashPassword } from "./crypto.server";
import { signedIn, tooMany, type FormOutcome } from "./login.server";
import { guessLimits, tryAcquire } from "./rate-limit.server";
import { EmailAddress, signInByEmail } from "./users.server";

export const Registration = z
  .object({
    name: z.string().trim().min(1, "Please enter your name.").max(100, "Please use at most 100 characters."),
    email: z.string().min(1, "Please enter your e-mail address.").pipe(EmailAddress),
    password: z.string().min(8, "Use at least 8 characters.").max(200, "Use at most 200 characters."),
    confirmPassword: z.string().min(1, "Please repeat your password."),
  })
  .refine((form) => form.password === form.confirmPassword, { path: ["confirmPassword"], message: "The passwords don't match." });

export type RegistrationErrors = Partial<Record<"name" | "email" | "password" | "confirmPassword" | "form", string>>;

export type RegistrationOutcome = Response | { status: number; errors: RegistrationErrors; existingAccount?: boolean; headers?: HeadersInit };

export async function register(fields: Record<string, string>, clientIp: string): Promise<RegistrationOutcome> {
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

  const limit = await tryAcquire(guessLimits("password", email, clientIp));
  if (!limit.ok) {
    const outcome: FormOutcome = tooMany(limit.retryAt, "attempts");
    return { status: outcome.status, errors: { form: outcome.error }, headers: outcome.headers };
  }

  if (await db.user.findUnique({ where: { email }, select: { id: true } })) {
    return { status: 409, errors: { email: "There's already an account with this e-mail." }, existingAccount: true };
  }
  const passwordHash = await hashPassword(password);
  try {
    await db.user.create({ data: { email, name, passwordHash } });
  } catch {
    // Two sign-ups for the same address at once: the unique index keeps one.
    return { status: 409, errors: { email: "There's already an account with this e-mail." }, existingAccount: true };
  }
  const user = await signInByEmail(email);
  return signedIn(user.id, "/home");
}
