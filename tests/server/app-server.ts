/**
 * The built app, started once per server test file with the environment the browser suite's
 * server gets (playwright.config.ts webServer.env): the test clock, TRUST_PROXY (each visitor
 * its own client address), ADMIN_EMAILS, a high request limit, and a data folder, port and
 * session secret of its own. Optionally with the SMTP server the app sends to and the OpenID
 * server its Google sign-in talks to (tests/e2e/mail-server.ts, oauth-server.ts). It serves
 * the build as `npm start` does, on a copy of the database the global setup migrated (the
 * migrations are most of `npm start`'s start-up; the build is fresh, the global setup saw to it).
 */
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { startMailServer } from "../e2e/mail-server";
import { startOAuthServer } from "../e2e/oauth-server";
import { MIGRATED_DATABASE } from "./migrated-database";
import { tracked } from "./processes";

export type AppServer = {
  origin: string;
  dataDir: string;
  /** Where the SMTP server writes each e-mail the app sent (for waitForEmail), when started with mail. */
  mailDir: string;
  sessionSecret: string;
  /** The server's stderr so far (JSON log lines). */
  log(): string;
  stop(): Promise<void>;
};

export type AppServerOptions = {
  /** Names the data and mail folders under test-results/. */
  name: string;
  port: number;
  /** An SMTP server on this port, e-mails written to `mailDir`. */
  smtpPort?: number;
  /** An OpenID server on this port as GOOGLE_ISSUER. */
  oauthPort?: number;
  env?: Record<string, string>;
};

export async function startAppServer({ name, port, smtpPort, oauthPort, env = {} }: AppServerOptions): Promise<AppServer> {
  const dataDir = path.resolve(`test-results/${name}-data`);
  const mailDir = path.resolve(`test-results/${name}-mail`);
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(mailDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  fs.copyFileSync(MIGRATED_DATABASE, path.join(dataDir, "glow-coach.db"));
  const mail = smtpPort ? await startMailServer({ port: smtpPort, dir: mailDir }) : undefined;
  const oauth = oauthPort ? await startOAuthServer(oauthPort) : undefined;
  const sessionSecret = crypto.randomBytes(32).toString("hex");
  const origin = `http://127.0.0.1:${port}`;
  const child: ChildProcess = tracked(
    spawn(process.execPath, ["scripts/serve.mjs"], {
      env: {
        ...process.env,
        NODE_ENV: "production",
        PORT: String(port),
        HOST: "127.0.0.1",
        DATA_DIR: dataDir,
        DATABASE_URL: "",
        APP_ENV: "local",
        SESSION_SECRET: sessionSecret,
        TEST_CLOCK: "1",
        TRUST_PROXY: "1",
        LOG_FORMAT: "json",
        // Every visitor here shares 127.0.0.1 but for X-Forwarded-For; the limits have tests of their own.
        REQUEST_LIMIT_PER_MINUTE: "100000",
        ADMIN_EMAILS: "admin@glowcoach.test,owner-claim@glowcoach.test",
        ...(smtpPort ? { SMTP_URL: `smtp://127.0.0.1:${smtpPort}` } : {}),
        ...(oauthPort ? { GOOGLE_CLIENT_ID: "glow-e2e-client", GOOGLE_CLIENT_SECRET: "glow-e2e-secret", GOOGLE_ISSUER: `http://127.0.0.1:${oauthPort}` } : {}),
        ...env,
      },
      stdio: ["ignore", "ignore", "pipe"],
    }),
  );
  let log = "";
  child.stderr?.on("data", (chunk) => (log += chunk));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGKILL");
      await exited;
    }
    await Promise.all([mail?.stop(), oauth?.stop()]);
  };
  // A busy machine may take many times an idle one's start-up.
  const deadline = Date.now() + 150_000;
  for (;;) {
    try {
      if ((await fetch(`${origin}/`)).ok) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`the server on ${origin} did not start:\n${log.slice(-2000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { origin, dataDir, mailDir, sessionSecret, log: () => log, stop };
}
