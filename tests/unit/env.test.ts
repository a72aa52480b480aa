import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { env, EnvError, parseEnv, reloadEnv } from "~/utils/env.server";

function tempDataDir() {
  return fs.mkdtempSync(path.join(os.tmpdir(), "glow-env-"));
}

function problems(source: Record<string, string>): string {
  try {
    parseEnv(source);
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return (error as Error).message;
  }
  throw new Error("expected the configuration to be refused");
}

describe("configuration", () => {
  // Processes starting at once on a fresh data folder share one generated secret:
  // tests/server/startup.test.ts (it starts processes).
  it("needs no variables outside production, and keeps a generated session secret", () => {
    const DATA_DIR = tempDataDir();
    const first = parseEnv({ DATA_DIR });
    expect(first.host).toBe("127.0.0.1");
    expect(first.port).toBe(3000);
    expect(first.publicUrl).toBe("http://127.0.0.1:3000");
    expect(first.databaseUrl).toBe(`file:${path.join(DATA_DIR, "glow-coach.db")}`);
    expect(first.sessionSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(parseEnv({ DATA_DIR }).sessionSecret).toBe(first.sessionSecret);
    expect(first.sanity).toBeNull();
  });

  it("refuses to start in production without a session secret, naming it", () => {
    const message = problems({ NODE_ENV: "production", DATA_DIR: tempDataDir(), PUBLIC_URL: "https://glowcoach.app" });
    expect(message).toContain("SESSION_SECRET: required in production");
  });

  it("treats APP_ENV=production the same way, whatever NODE_ENV says", () => {
    expect(problems({ APP_ENV: "production", DATA_DIR: tempDataDir() })).toMatch(/SESSION_SECRET[\s\S]*PUBLIC_URL/);
  });

  it("lets `npm start` run the production build on embedded defaults (APP_ENV=local)", () => {
    const env = parseEnv({ NODE_ENV: "production", APP_ENV: "local", DATA_DIR: tempDataDir() });
    expect(env.isProduction).toBe(false);
    expect(env.sessionSecret).toHaveLength(64);
  });

  it.each([
    [{ PORT: "eighty" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ SESSION_SECRET: "short" }, "SESSION_SECRET: must be at least 32 characters"],
    [{ PUBLIC_URL: "glowcoach.app" }, "PUBLIC_URL"],
    [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL: must be a SQLite URL"],
    [{ DATABASE_URL: "./glow.db" }, "DATABASE_URL"],
    [{ WEB_CONCURRENCY: "two" }, "WEB_CONCURRENCY"],
    [{ APP_ENV: "staging" }, "APP_ENV"],
    [{ SANITY_PROJECT_ID: "My Project" }, "SANITY_PROJECT_ID"],
    [{ SANITY_API_TOKEN: "secret" }, "SANITY_PROJECT_ID: required when SANITY_API_TOKEN is set"],
  ])("names a malformed value: %o", (source, name) => {
    expect(problems({ ...source, DATA_DIR: tempDataDir() })).toContain(name);
  });

  it("chooses the database by DATABASE_URL: a SQLite file or PostgreSQL", () => {
    const DATA_DIR = tempDataDir();
    expect(parseEnv({ DATA_DIR, DATABASE_URL: "file:./x.db" }).databaseUrl).toBe("file:./x.db");
    for (const url of ["postgres://glow:secret@db.internal:5432/glow", "postgresql://glow@127.0.0.1/glow?sslmode=require"]) {
      expect(parseEnv({ DATA_DIR, DATABASE_URL: url }).databaseUrl).toBe(url);
    }
    expect(parseEnv({ DATA_DIR, DATABASE_URL: "postgresql://glow@127.0.0.1/glow", DATABASE_POOL_SIZE: "4" }).databasePoolSize).toBe(4);
  });

  it("accepts a full production configuration", () => {
    const env = parseEnv({
      NODE_ENV: "production",
      SESSION_SECRET: "x".repeat(40),
      PUBLIC_URL: "https://glowcoach.app/",
      HOST: "0.0.0.0",
      PORT: "8080",
      DATA_DIR: tempDataDir(),
      SANITY_PROJECT_ID: "abc123",
      SANITY_API_TOKEN: "token",
      STRIPE_SECRET_KEY: "sk_live_abc123",
      STRIPE_WEBHOOK_SECRET: "whsec_abc",
      SMTP_URL: "smtps://mailer:secret@smtp.example:465",
    });
    expect(env).toMatchObject({ isProduction: true, port: 8080, publicUrl: "https://glowcoach.app", sessionSecret: "x".repeat(40) });
    expect(env.sanity).toMatchObject({ projectId: "abc123", dataset: "production", token: "token" });
  });
});

describe("settings parsed again (reloadEnv, for tests sharing modules)", () => {
  it("puts a changed setting into the same env object, and takes it out again", () => {
    const before = env.metaPixelId;
    Object.assign(process.env, { META_PIXEL_ID: "998877665544" });
    try {
      reloadEnv();
      expect(env.metaPixelId).toBe("998877665544");
    } finally {
      delete process.env.META_PIXEL_ID;
      reloadEnv();
    }
    expect(env.metaPixelId).toBe(before);
  });

  it("is refused by a production server, whose configuration is the one it started with", () => {
    Object.assign(env, { isProduction: true });
    try {
      expect(() => reloadEnv()).toThrow(/production server keeps the configuration/);
    } finally {
      Object.assign(env, { isProduction: false });
    }
  });
});
