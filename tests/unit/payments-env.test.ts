import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "~/utils/env.server";

const DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "glow-stripe-env-"));
const production = {
  DATA_DIR,
  NODE_ENV: "production",
  SESSION_SECRET: "x".repeat(40),
  PUBLIC_URL: "https://glowcoach.app",
  SMTP_URL: "smtp://mail.example:587",
};

function refused(source: Record<string, string>): string {
  try {
    parseEnv(source);
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return (error as Error).message;
  }
  throw new Error("expected the configuration to be refused");
}

describe("Stripe configuration", () => {
  it("is off by default: the local test checkout", () => {
    expect(parseEnv({ DATA_DIR }).stripe).toBeNull();
  });

  it("reads the key, the webhook secret and the test-only API location", () => {
    expect(
      parseEnv({
        DATA_DIR,
        STRIPE_SECRET_KEY: "sk_test_abc123",
        STRIPE_WEBHOOK_SECRET: "whsec_abc",
        STRIPE_API_HOST: "127.0.0.1",
        STRIPE_API_PORT: "12111",
        STRIPE_API_PROTOCOL: "http",
      }).stripe,
    ).toEqual({
      secretKey: "sk_test_abc123",
      webhookSecret: "whsec_abc",
      host: "127.0.0.1",
      port: 12111,
      protocol: "http",
    });
  });

  it("refuses malformed or incomplete settings, naming the variable", () => {
    expect(refused({ DATA_DIR, STRIPE_SECRET_KEY: "pk_test_publishable" })).toContain("STRIPE_SECRET_KEY: must be a Stripe secret key");
    expect(refused({ DATA_DIR, STRIPE_SECRET_KEY: "sk_test_abc", STRIPE_WEBHOOK_SECRET: "secret" })).toContain(
      "STRIPE_WEBHOOK_SECRET: must be a webhook signing secret",
    );
    expect(refused({ DATA_DIR, STRIPE_WEBHOOK_SECRET: "whsec_abc" })).toContain("STRIPE_SECRET_KEY: required when STRIPE_WEBHOOK_SECRET is set");
    expect(refused({ ...production, STRIPE_SECRET_KEY: "sk_live_abc" })).toContain("STRIPE_WEBHOOK_SECRET: required in production");
    expect(refused({ ...production, STRIPE_SECRET_KEY: "sk_live_abc", STRIPE_WEBHOOK_SECRET: "whsec_abc", STRIPE_API_HOST: "127.0.0.1" })).toContain(
      "STRIPE_API_HOST: only for tests",
    );
    expect(parseEnv({ ...production, STRIPE_SECRET_KEY: "sk_live_abc", STRIPE_WEBHOOK_SECRET: "whsec_abc" }).stripe?.secretKey).toBe("sk_live_abc");
  });
});
