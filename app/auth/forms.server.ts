/**
 * The account forms' fields, as zod schemas that Conform parses (parseForm). Empty fields
 * arrive as `undefined` (Conform's coercion), so each required field names its own message.
 */
import { z } from "zod";
import { HONEYPOT_FIELD } from "~/components/ui/honeypot";
import { CODE_FORMAT_MESSAGE, CODE_SHAPE } from "./login.server";
import { EmailAddress } from "./users.server";

export const EmailField = z.string({ error: "Please enter your e-mail address." }).pipe(EmailAddress);

const Honeypot = { [HONEYPOT_FIELD]: z.string().optional() };

/** /login: a link by e-mail (the default, also for forms that post only an address), or a password. */
export const LoginForm = z
  .object({
    intent: z.enum(["email-link", "password"]).catch("email-link"),
    email: EmailField,
    password: z.string().optional(),
    redirectTo: z.string().optional(),
    ...Honeypot,
  })
  .refine((form) => form.intent !== "password" || form.password !== undefined, { path: ["password"], message: "Please enter your password." });

/** 'Check Your Email!': the code from the e-mail. */
export const CodeForm = z.object({
  code: z.string({ error: CODE_FORMAT_MESSAGE }).trim().regex(CODE_SHAPE, CODE_FORMAT_MESSAGE),
});

/** /registration 'Create Your Account'. */
export const RegistrationForm = z
  .object({
    name: z.string({ error: "Please enter your name." }).trim().min(1, "Please enter your name.").max(100, "Please use at most 100 characters."),
    email: EmailField,
    password: z.string({ error: "Use at least 8 characters." }).min(8, "Use at least 8 characters.").max(200, "Use at most 200 characters."),
    confirmPassword: z.string({ error: "Please repeat your password." }),
    ...Honeypot,
  })
  .refine((form) => form.password === form.confirmPassword, { path: ["confirmPassword"], message: "The passwords don't match." });

/** /magic: the link's token and id, posted back by 'Sign in as ...'. */
export const MagicLinkForm = z.object({ token: z.string().default(""), id: z.string().default("") });
