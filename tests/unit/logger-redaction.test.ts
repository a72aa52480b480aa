/**
 * The log never holds a secret: tokens, cookies, sign-in links, passwords and authorization
 * headers given to the logger in an object come out as the redaction marker, while the rest
 * of the line stays readable. Uses the app's own logger settings (createLogger), writing to
 * memory instead of stdout.
 */
import { describe, expect, it } from "vitest";
import { createLogger, REDACTED } from "~/utils/logger.server";

function capture() {
  const lines: string[] = [];
  const logger = createLogger({ write: (line: string) => void lines.push(line) });
  logger.level = "trace";
  return {
    logger,
    text: () => lines.join(""),
    records: () => lines.map((line) => JSON.parse(line) as Record<string, any>),
  };
}

const SIGN_IN_LINK = "https://glowcoach.test/magic?token=U2FsdGVkX1-sealed-token&id=link-secret-0123456789";
const SESSION_COOKIE = "gc_session=session-id-abcdef0123456789; gc_auth=auth-cookie-9876543210";
const BEARER = "Bearer ya29.google-access-token-0123456789";
const SECRETS = [
  "U2FsdGVkX1-sealed-token",
  "link-secret-0123456789",
  "session-id-abcdef0123456789",
  "auth-cookie-9876543210",
  "google-access-token-0123456789",
  "rosewater-2026",
  "scrypt$hash-of-the-password",
  "sk_test_stripe-secret-key",
  "whsec-webhook-secret-value",
];

describe("log redaction", () => {
  it("writes tokens, links, cookies, passwords and authorization as the marker, at the top of the object", () => {
    const { logger, text, records } = capture();
    logger.info(
      {
        token: "U2FsdGVkX1-sealed-token",
        link: SIGN_IN_LINK,
        cookie: SESSION_COOKIE,
        authorization: BEARER,
        password: "rosewater-2026",
        secret: "whsec-webhook-secret-value",
        email: "ada@example.com",
      },
      "sign-in link sent",
    );
    const [record] = records();
    expect(record).toMatchObject({
      token: REDACTED,
      link: REDACTED,
      cookie: REDACTED,
      authorization: REDACTED,
      password: REDACTED,
      secret: REDACTED,
      email: "ada@example.com",
      msg: "sign-in link sent",
    });
    for (const secret of SECRETS) expect(text()).not.toContain(secret);
  });

  it("redacts the same fields one level down: a message's link, a user's password hash, an error's token", () => {
    const { logger, text, records } = capture();
    logger.info({ email: { to: "ada@example.com", subject: "Your sign-in link", link: SIGN_IN_LINK } }, "mail");
    logger.warn({ user: { id: "u1", passwordHash: "scrypt$hash-of-the-password" }, stripe: { apiKey: "sk_test_stripe-secret-key", mode: "test" } }, "user");
    logger.error({ err: Object.assign(new Error("send failed"), { token: "U2FsdGVkX1-sealed-token" }) }, "failed");
    const [mail, user, failed] = records();
    expect(mail.email).toEqual({ to: "ada@example.com", subject: "Your sign-in link", link: REDACTED });
    expect(user.user).toEqual({ id: "u1", passwordHash: REDACTED });
    expect(user.stripe).toEqual({ apiKey: REDACTED, mode: "test" });
    expect(failed.err).toMatchObject({ message: "send failed", token: REDACTED });
    for (const secret of SECRETS) expect(text()).not.toContain(secret);
  });

  it("redacts cookie, set-cookie and authorization headers, also in a request's headers", () => {
    const { logger, text, records } = capture();
    const headers = { host: "glowcoach.test", cookie: SESSION_COOKIE, authorization: BEARER, "set-cookie": SESSION_COOKIE };
    logger.info({ headers }, "response");
    logger.info({ req: { method: "POST", url: "/login", headers } }, "request");
    const [response, request] = records();
    const redactedHeaders = { host: "glowcoach.test", cookie: REDACTED, authorization: REDACTED, "set-cookie": REDACTED };
    expect(response.headers).toEqual(redactedHeaders);
    expect(request.req).toEqual({ method: "POST", url: "/login", headers: redactedHeaders });
    for (const secret of SECRETS) expect(text()).not.toContain(secret);
    // The object logged is left as it was: only the line is redacted.
    expect(headers.cookie).toBe(SESSION_COOKIE);
  });
});
