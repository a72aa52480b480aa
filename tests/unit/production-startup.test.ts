/**
 * Production refuses to run open: each setting that would leave it open stops start-up,
 * naming the variable. Local mode (generated secrets, dev mailbox, test checkout) listens
 * on loopback only.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "~/utils/env.server";

const DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "glow-production-env-"));

/** A production configuration that starts: real secrets, Stripe, SMTP. */
const PRODUCTION = {
  DATA_DIR,
  APP_ENV: "production",
  NODE_ENV: "production",
  SESSION_SECRET: "x".repeat(40),
  PUBLIC_URL: "https://glowcoach.app",
  HOST: "0.0.0.0",
  STRIPE_SECRET_KEY: "sk_live_abc123",
  STRIPE_WEBHOOK_SECRET: "whsec_abc",
  SMTP_URL: "smtps://mailer:secret@smtp.example:465",
};

function refusal(source: Record<string, string | undefined>): string {
  try {
    parseEnv(source);
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return (error as Error).message;
  }
  throw new Error("expected start-up to be refused");
}

const without = (name: keyof typeof PRODUCTION) => ({ ...PRODUCTION, [name]: undefined });

describe("production start-up", () => {
  it("starts with a complete configuration", () => {
    const env = parseEnv(PRODUCTION);
    expect(env).toMatchObject({ isProduction: true, paymentsOff: false, host: "0.0.0.0" });
  });

  it.each([
    [without("STRIPE_SECRET_KEY"), "STRIPE_SECRET_KEY: required in production"],
    [without("STRIPE_WEBHOOK_SECRET"), "STRIPE_WEBHOOK_SECRET: required in production"],
    [without("SMTP_URL"), "SMTP_URL: required in production"],
    [{ ...PRODUCTION, MAILBOX_UI: "1" }, "MAILBOX_UI: not allowed in production"],
    [{ ...PRODUCTION, STRIPE_API_HOST: "127.0.0.1" }, "STRIPE_API_HOST: only for tests"],
    [{ ...PRODUCTION, STRIPE_API_PORT: "12111" }, "STRIPE_API_PORT: only for tests"],
    [{ ...PRODUCTION, STRIPE_API_PROTOCOL: "http" }, "STRIPE_API_PROTOCOL: only for tests"],
    [{ ...PRODUCTION, TEST_CLOCK: "1" }, "TEST_CLOCK: not allowed in production"],
  ])("stops, naming what would leave it open (%#)", (source, message) => {
    expect(refusal(source)).toContain(message);
  });

  it("PAYMENTS=off is the one way to run without Stripe: the buy buttons are hidden", () => {
    const env = parseEnv({ ...without("STRIPE_SECRET_KEY"), STRIPE_WEBHOOK_SECRET: undefined, PAYMENTS: "off" });
    expect(env.paymentsOff).toBe(true);
    expect(env.stripe).toBeNull();
    expect(refusal({ ...PRODUCTION, PAYMENTS: "maybe" })).toContain("PAYMENTS");
  });
});

describe("local mode", () => {
  it.each(["127.0.0.1", "::1", "localhost", "127.0.0.2"])("listens on loopback %s", (HOST) => {
    expect(parseEnv({ DATA_DIR, APP_ENV: "local", HOST }).host).toBe(HOST);
  });

  it.each(["0.0.0.0", "::", "192.168.1.20", "glowcoach.app"])("refuses a non-loopback HOST %s", (HOST) => {
    expect(refusal({ DATA_DIR, APP_ENV: "local", HOST })).toContain("HOST: local mode listens on this machine only");
  });
});
