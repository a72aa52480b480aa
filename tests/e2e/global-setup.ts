/**
 * Playwright global setup: the SMTP server the app sends to during end-to-end tests. It
 * listens on the port of the webServer's SMTP_URL (playwright.config.ts), so the port is
 * set in one place, and writes each e-mail into E2E_MAIL_DIR for waitForEmail().
 */
import fs from "node:fs/promises";
import type { FullConfig } from "@playwright/test";
import { E2E_MAIL_DIR, startMailServer } from "./mail-server";

export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  const smtpUrl = config.webServer?.env?.SMTP_URL;
  if (!smtpUrl) throw new Error("playwright.config.ts: webServer.env.SMTP_URL is not set");
  await fs.rm(E2E_MAIL_DIR, { recursive: true, force: true });
  const server = await startMailServer({ port: Number(new URL(smtpUrl).port), dir: E2E_MAIL_DIR });
  return server.stop;
}
