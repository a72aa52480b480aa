/**
 * Playwright global setup: the SMTP server the app sends to and the OpenID server its
 * Google sign-in talks to. Ports come from the webServer's env (playwright.config.ts), so
 * they are set in one place; e-mails land in E2E_MAIL_DIR for waitForEmail().
 */
import fs from "node:fs/promises";
import type { FullConfig } from "@playwright/test";
import { E2E_MAIL_DIR, startMailServer } from "./mail-server";
import { startOAuthServer } from "./oauth-server";
import { QUEUE_TURN } from "./support";

export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  const env = config.webServer?.env ?? {};
  if (!env.SMTP_URL || !env.GOOGLE_ISSUER) throw new Error("playwright.config.ts: webServer.env needs SMTP_URL and GOOGLE_ISSUER");
  await fs.rm(E2E_MAIL_DIR, { recursive: true, force: true });
  // A queue turn left by an earlier run that was stopped (support.ts, queueTurn).
  await fs.rm(QUEUE_TURN, { recursive: true, force: true });
  const mail = await startMailServer({ port: Number(new URL(env.SMTP_URL).port), dir: E2E_MAIL_DIR });
  const oauth = await startOAuthServer(Number(new URL(env.GOOGLE_ISSUER).port));
  return async () => {
    await Promise.all([mail.stop(), oauth.stop()]);
  };
}
