/**
 * The one place the app reads process.env. Parsed once by a zod schema at start-up:
 * a missing or malformed value in production stops the server with a message naming it.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { databaseProvider, resolveDataDir, resolveDatabaseUrl } from "./database-url.server";

const optionalText = z.preprocess((v) => (v === "" ? undefined : v), z.string().trim().min(1).optional());
const flag = z.preprocess((v) => (v === "" ? undefined : v), z.enum(["0", "1", "true", "false"]).optional()).transform((v) => v === "1" || v === "true");

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  /**
   * "production" demands real secrets; "local" (the default outside NODE_ENV=production,
   * and what `npm start` sets) generates and keeps dev secrets in the data folder.
   */
  APP_ENV: z.preprocess((v) => (v === "" ? undefined : v), z.enum(["local", "production"]).optional()),
  HOST: z.string().min(1).default("127.0.0.1"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  /** The public origin, for links in e-mails and canonical URLs. Defaults to http://HOST:PORT. */
  PUBLIC_URL: z.preprocess((v) => (v === "" ? undefined : v), z.url({ protocol: /^https?$/ }).optional()),
  DATA_DIR: optionalText,
  DATABASE_URL: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z
      .string()
      .refine(
        (url) => databaseProvider(url) !== null,
        "must be a SQLite URL (file:./data/glow-coach.db) or a PostgreSQL URL (postgresql://user:password@host:5432/database)",
      )
      .optional(),
  ),
  /** Worker processes `npm start` runs (scripts/serve.mjs reads it; validated here too). */
  WEB_CONCURRENCY: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().min(1).max(64).optional()),
  /** PostgreSQL connections per process (WEB_CONCURRENCY processes each open this many). */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  SESSION_SECRET: z.preprocess((v) => (v === "" ? undefined : v), z.string().min(32, "must be at least 32 characters").optional()),
  SANITY_PROJECT_ID: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z
      .string()
      .regex(/^[a-z0-9-]+$/, "must be a Sanity project id (letters, digits, dashes)")
      .optional(),
  ),
  SANITY_DATASET: z
    .string()
    .regex(/^[a-z0-9_-]+$/)
    .default("production"),
  SANITY_API_VERSION: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date such as 2025-02-19")
    .default("2025-02-19"),
  SANITY_API_TOKEN: optionalText,
  /** Only for tests and self-hosted proxies: where the Sanity API lives. */
  SANITY_API_HOST: z.preprocess((v) => (v === "" ? undefined : v), z.url().optional()),
  SANITY_USE_CDN: flag.default(true),
  /** Sanity's asset CDN, where uploaded images are served from (tests point it at a local fake). */
  SANITY_CDN_URL: z.preprocess((v) => (v === "" ? undefined : v), z.url({ protocol: /^https?$/ }).default("https://cdn.sanity.io")),
  /** The secret of the Sanity webhook that calls POST /webhooks/sanity when content is published. */
  SANITY_WEBHOOK_SECRET: optionalText,
  /** Log lines at this level and above. */
  LOG_LEVEL: z.preprocess((v) => (v === "" ? undefined : v), z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info")),
  /** "json": one JSON object a line, for log collectors; "pretty": for people. Default: pretty locally, json in production. */
  LOG_FORMAT: z.preprocess((v) => (v === "" ? undefined : v), z.enum(["json", "pretty"]).optional()),
  /** One line per request (method, path, status, duration). Default: on in production. */
  LOG_REQUESTS: z.preprocess((v) => (v === "" ? undefined : v), z.enum(["0", "1", "true", "false"]).optional()),
  /** Changing requests one network address may send per minute (see request-limits.server.ts). */
  REQUEST_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(300),
  /** smtp://user:pass@host:port (or smtps://). Unset: the dev mailbox in the data folder. */
  SMTP_URL: z.preprocess((v) => (v === "" ? undefined : v), z.url({ protocol: /^smtps?$/ }).optional()),
  MAIL_FROM: z.string().trim().min(3).default("Glow Coach <hello@glowcoach.app>"),
  /** The dev mailbox page is always on outside production and refused in production; kept so an old setting is named, not ignored. */
  MAILBOX_UI: flag.default(false),
  GOOGLE_CLIENT_ID: optionalText,
  GOOGLE_CLIENT_SECRET: optionalText,
  /** The OpenID issuer for Google sign-in; only tests point it elsewhere. */
  GOOGLE_ISSUER: z.url().default("https://accounts.google.com"),
  /** Comma-separated e-mails that get the admin role when they sign in. */
  ADMIN_EMAILS: z.string().default(""),
  /** Trust X-Forwarded-For for the client IP (behind a reverse proxy you control). */
  TRUST_PROXY: flag.default(false),
  /** The Meta (Facebook) pixel id. Unset: no third-party script is loaded at all. */
  META_PIXEL_ID: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z
      .string()
      .regex(/^\d{5,20}$/, "must be a Meta pixel id (digits only)")
      .optional(),
  ),
  /** A Conversions API access token for META_PIXEL_ID: purchases are also reported server-side (ADR 32). Unset: the pixel only. */
  META_CAPI_TOKEN: optionalText,
  /** Tests only: where the Conversions API lives instead of https://graph.facebook.com. Refused in production. */
  META_CAPI_URL: z.preprocess((v) => (v === "" ? undefined : v), z.url({ protocol: /^https?$/ }).optional()),
  /** Tests only: the clock reads an offset from <DATA_DIR>/test-clock.json. Refused in production. */
  TEST_CLOCK: flag.default(false),
  /** "off": sell nothing (offer pages show no buy buttons). The only way to run production without Stripe. */
  PAYMENTS: z.preprocess((v) => (v === "" ? undefined : v), z.enum(["on", "off"]).default("on")),
  /** Stripe secret key (sk_test_... / sk_live_... / rk_...). Unset: the local test checkout. */
  STRIPE_SECRET_KEY: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z
      .string()
      .regex(/^(sk|rk)_(test|live)_[A-Za-z0-9]+$/, "must be a Stripe secret key (sk_test_... or sk_live_...)")
      .optional(),
  ),
  /** Signing secret of the webhook endpoint (whsec_...). */
  STRIPE_WEBHOOK_SECRET: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.string().startsWith("whsec_", "must be a webhook signing secret (whsec_...)").optional(),
  ),
  /** Only for tests: where the Stripe API lives (the SDK's host, port and protocol). */
  STRIPE_API_HOST: optionalText,
  STRIPE_API_PORT: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().min(1).max(65535).optional()),
  STRIPE_API_PROTOCOL: z.preprocess((v) => (v === "" ? undefined : v), z.enum(["http", "https"]).optional()),
});

export type Env = {
  nodeEnv: "development" | "production" | "test";
  isProduction: boolean;
  host: string;
  port: number;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string;
  databasePoolSize: number;
  sessionSecret: string;
  sanity: {
    projectId: string;
    dataset: string;
    apiVersion: string;
    token?: string;
    apiHost?: string;
    useCdn: boolean;
    /** Sanity's asset CDN origin ("https://cdn.sanity.io"). */
    cdnUrl: string;
    webhookSecret?: string;
  } | null;
  log: { level: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent"; format: "json" | "pretty"; requests: boolean };
  requestLimitPerMinute: number;
  mail: { smtpUrl?: string; from: string; mailboxUi: boolean };
  google: { clientId: string; clientSecret: string; issuer: string } | null;
  adminEmails: string[];
  trustProxy: boolean;
  testClock: boolean;
  /** PAYMENTS=off: nothing is sold (no buy buttons, no checkout). */
  paymentsOff: boolean;
  /** Stripe Checkout and webhooks; null: the local test checkout (no real charge), outside production. */
  stripe: { secretKey: string; webhookSecret?: string; host?: string; port?: number; protocol?: "http" | "https" } | null;
  metaPixelId: string | null;
  /** Meta's Conversions API (server-side events beside the pixel); null: not configured. */
  metaCapi: { token: string; baseUrl: string } | null;
};

export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "EnvError";
  }
}

/**
 * Generated once per data folder, so sessions survive restarts on a dev machine. Several
 * processes may start on a fresh folder at once (WEB_CONCURRENCY): the file is created
 * exclusively, and a process that loses that race uses the winner's secret, so every process
 * signs cookies with the same one.
 */
function devSecret(dataDir: string, name: string): string {
  const file = path.join(dataDir, "dev-secrets.json");
  for (let attempt = 0; attempt < 3; attempt++) {
    let secrets: Record<string, string> = {};
    let exists = true;
    try {
      secrets = JSON.parse(fs.readFileSync(file, "utf8"));
    } catch (error) {
      // First run (no file yet), or an unreadable file: start a new one.
      exists = (error as NodeJS.ErrnoException).code !== "ENOENT";
    }
    if (typeof secrets[name] === "string" && secrets[name].length >= 32) return secrets[name];
    const next = { ...secrets, [name]: crypto.randomBytes(32).toString("hex") };
    fs.mkdirSync(dataDir, { recursive: true });
    if (exists) {
      fs.writeFileSync(file, JSON.stringify(next, null, 2), { mode: 0o600 });
      return next[name];
    }
    // Written aside, then linked into place: the file appears whole or not at all.
    const draft = `${file}.${process.pid}.${crypto.randomBytes(4).toString("hex")}`;
    fs.writeFileSync(draft, JSON.stringify(next, null, 2), { mode: 0o600 });
    try {
      fs.linkSync(draft, file);
      return next[name];
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      // Another process created it first: read theirs.
    } finally {
      fs.rmSync(draft, { force: true });
    }
  }
  throw new Error(`Could not read or create ${file}`);
}

/**
 * Production fails closed: every setting that would leave it open (secrets generated on the
 * fly, plans handed out by the test checkout, sign-in links in the log or on a public page,
 * Stripe's API redirected) stops start-up, naming the variable.
 */
function openInProduction(e: z.infer<typeof EnvSchema>): string[] {
  const problems: string[] = [];
  if (!e.SESSION_SECRET) problems.push("SESSION_SECRET: required in production (at least 32 characters)");
  if (!e.PUBLIC_URL) problems.push("PUBLIC_URL: required in production (e.g. https://glowcoach.app)");
  if (!e.STRIPE_SECRET_KEY && e.PAYMENTS !== "off") {
    problems.push(
      "STRIPE_SECRET_KEY: required in production: without it the local test checkout would hand out plans for free (set PAYMENTS=off to sell nothing)",
    );
  }
  if (e.STRIPE_SECRET_KEY && !e.STRIPE_WEBHOOK_SECRET) problems.push("STRIPE_WEBHOOK_SECRET: required in production when STRIPE_SECRET_KEY is set");
  if (!e.SMTP_URL) problems.push("SMTP_URL: required in production: without it sign-in e-mails would only be written to the server log");
  if (e.MAILBOX_UI) problems.push("MAILBOX_UI: not allowed in production: the dev mailbox page shows everyone's sign-in e-mails");
  if (e.TEST_CLOCK) problems.push("TEST_CLOCK: not allowed in production");
  for (const name of ["STRIPE_API_HOST", "STRIPE_API_PORT", "STRIPE_API_PROTOCOL", "META_CAPI_URL"] as const) {
    if (e[name] !== undefined) problems.push(`${name}: only for tests, not allowed in production`);
  }
  return problems;
}

/** Loopback names and addresses: this machine only. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  return bare === "localhost" || bare === "::1" || /^127(\.\d{1,3}){3}$/.test(bare);
}

/** Local mode runs on generated secrets, the dev mailbox and the test checkout: for this machine only. */
function openInLocalMode(e: z.infer<typeof EnvSchema>): string[] {
  if (isLoopbackHost(e.HOST)) return [];
  return [
    `HOST: local mode listens on this machine only (127.0.0.1, ::1 or localhost), not ${e.HOST}: it runs with generated secrets, the dev mailbox and the test checkout. Set APP_ENV=production with real settings to accept outside connections.`,
  ];
}

export function parseEnv(source: Record<string, string | undefined>): Env {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    throw new EnvError(parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`));
  }
  const e = parsed.data;
  const appEnv = e.APP_ENV ?? (e.NODE_ENV === "production" ? "production" : "local");
  const isProduction = appEnv === "production";
  const dataDir = resolveDataDir(source);

  const problems: string[] = [];
  if (e.SANITY_API_TOKEN && !e.SANITY_PROJECT_ID) problems.push("SANITY_PROJECT_ID: required when SANITY_API_TOKEN is set");
  if (!!e.GOOGLE_CLIENT_ID !== !!e.GOOGLE_CLIENT_SECRET) problems.push("GOOGLE_CLIENT_SECRET: GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are set together");
  if (e.STRIPE_WEBHOOK_SECRET && !e.STRIPE_SECRET_KEY) problems.push("STRIPE_SECRET_KEY: required when STRIPE_WEBHOOK_SECRET is set");
  if (e.META_CAPI_TOKEN && !e.META_PIXEL_ID) problems.push("META_PIXEL_ID: required when META_CAPI_TOKEN is set (the Conversions API reports to a pixel)");
  problems.push(...(isProduction ? openInProduction(e) : openInLocalMode(e)));
  if (problems.length) throw new EnvError(problems);

  return {
    nodeEnv: e.NODE_ENV,
    isProduction,
    host: e.HOST,
    port: e.PORT,
    publicUrl: (e.PUBLIC_URL ?? `http://${e.HOST.includes(":") ? `[${e.HOST}]` : e.HOST}:${e.PORT}`).replace(/\/$/, ""),
    dataDir,
    databaseUrl: resolveDatabaseUrl(source),
    databasePoolSize: e.DATABASE_POOL_SIZE,
    sessionSecret: e.SESSION_SECRET ?? devSecret(dataDir, "SESSION_SECRET"),
    sanity: e.SANITY_PROJECT_ID
      ? {
          projectId: e.SANITY_PROJECT_ID,
          dataset: e.SANITY_DATASET,
          apiVersion: e.SANITY_API_VERSION,
          token: e.SANITY_API_TOKEN,
          apiHost: e.SANITY_API_HOST,
          useCdn: e.SANITY_USE_CDN,
          cdnUrl: e.SANITY_CDN_URL.replace(/\/$/, ""),
          webhookSecret: e.SANITY_WEBHOOK_SECRET,
        }
      : null,
    log: {
      level: e.LOG_LEVEL,
      format: e.LOG_FORMAT ?? (isProduction ? "json" : "pretty"),
      requests: e.LOG_REQUESTS === undefined ? isProduction : e.LOG_REQUESTS === "1" || e.LOG_REQUESTS === "true",
    },
    requestLimitPerMinute: e.REQUEST_LIMIT_PER_MINUTE,
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM, mailboxUi: !isProduction },
    google:
      e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET
        ? { clientId: e.GOOGLE_CLIENT_ID, clientSecret: e.GOOGLE_CLIENT_SECRET, issuer: e.GOOGLE_ISSUER.replace(/\/$/, "") }
        : null,
    adminEmails: e.ADMIN_EMAILS.split(",")
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
    trustProxy: e.TRUST_PROXY,
    testClock: e.TEST_CLOCK,
    paymentsOff: e.PAYMENTS === "off",
    stripe: e.STRIPE_SECRET_KEY
      ? {
          secretKey: e.STRIPE_SECRET_KEY,
          webhookSecret: e.STRIPE_WEBHOOK_SECRET,
          host: e.STRIPE_API_HOST,
          port: e.STRIPE_API_PORT,
          protocol: e.STRIPE_API_PROTOCOL,
        }
      : null,
    metaPixelId: e.META_PIXEL_ID ?? null,
    metaCapi: e.META_CAPI_TOKEN ? { token: e.META_CAPI_TOKEN, baseUrl: (e.META_CAPI_URL ?? "https://graph.facebook.com").replace(/\/$/, "") } : null,
  };
}

/** Parsed when the server build is imported, so bad configuration stops start-up. */
export const env: Env = parseEnv(process.env);

/**
 * For tests: parses process.env again into the same `env` object. Modules read `env`'s fields
 * when called, so a unit test file can switch a setting on (Stripe, the Meta pixel) and off
 * again without loading the app afresh. Refused in production: a running server's
 * configuration is the one it started with.
 */
export function reloadEnv(): void {
  if (env.isProduction) throw new Error("reloadEnv is for tests: a production server keeps the configuration it started with");
  Object.assign(env, parseEnv(process.env));
}
