/**
 * A local SMTP server for end-to-end tests. The app under test sends real e-mail over SMTP
 * (SMTP_URL in playwright.config.ts); every delivery is written as a JSON file, and tests
 * wait for the one they expect with waitForEmail().
 */
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { simpleParser } from "mailparser";
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from "smtp-server";

/** Where the end-to-end run's mail server (global-setup.ts) writes, relative to the repository. */
export const E2E_MAIL_DIR = "test-results/e2e-mail";

/** One delivery, as written to the folder: one file per recipient. */
export type ReceivedEmail = {
  to: string;
  from: string;
  subject: string;
  html: string;
  text: string;
  receivedAt: string;
  /** The List-* headers, as sent (unfolded). */
  headers?: Record<string, string>;
};

export type MailServer = { port: number; stop(): Promise<void> };

/** Listens on 127.0.0.1 (port 0 picks a free one). No TLS and no authentication needed. */
export async function startMailServer({ port, dir }: { port: number; dir: string }): Promise<MailServer> {
  await fs.mkdir(dir, { recursive: true });
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    disableReverseLookup: true,
    // Tests stop the server while the app may keep a connection: don't wait 30 s for it.
    closeTimeout: 1_000,
    onData(stream, session, callback) {
      store(dir, stream, session).then(() => callback(), callback);
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  // A client dropping its connection is an "error" event; unhandled, it would end the test run.
  server.on("error", (error) => console.warn(`[mail-server] ${error.message}`));
  const address = server.server.address();
  return {
    port: typeof address === "object" && address ? address.port : port,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function store(dir: string, stream: SMTPServerDataStream, session: SMTPServerSession): Promise<void> {
  const mail = await simpleParser(stream);
  const receivedAt = new Date();
  for (const recipient of session.envelope.rcptTo) {
    const email: ReceivedEmail = {
      to: recipient.address,
      from: mail.from?.text ?? "",
      subject: mail.subject ?? "",
      html: mail.html || "",
      text: mail.text ?? "",
      receivedAt: receivedAt.toISOString(),
      headers: Object.fromEntries(
        mail.headerLines
          .filter((header) => header.key.startsWith("list-"))
          .map((header) => [
            header.key,
            header.line
              .slice(header.line.indexOf(":") + 1)
              .replace(/\r?\n[ \t]+/g, " ")
              .trim(),
          ]),
      ),
    };
    const file = path.join(dir, `${receivedAt.getTime()}-${crypto.randomBytes(4).toString("hex")}.json`);
    // Written aside and renamed, so a polling test never reads half a file.
    await fs.writeFile(`${file}.tmp`, JSON.stringify(email, null, 2));
    await fs.rename(`${file}.tmp`, file);
  }
}

export async function readAll(dir: string): Promise<ReceivedEmail[]> {
  const names = (await fs.readdir(dir).catch(() => [])).filter((name) => name.endsWith(".json"));
  return Promise.all(names.map(async (name) => JSON.parse(await fs.readFile(path.join(dir, name), "utf8")) as ReceivedEmail));
}

/**
 * The newest e-mail to `to` (case-insensitive) received after `after`. Polls the
 * folder, since the app sends while the browser moves on.
 */
export async function waitForEmail(
  dir: string,
  to: string,
  { after = new Date(0), timeoutMs = 10_000 }: { after?: Date; timeoutMs?: number } = {},
): Promise<ReceivedEmail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const all = await readAll(dir);
    const matches = all
      .filter((mail) => mail.to.toLowerCase() === to.toLowerCase() && Date.parse(mail.receivedAt) > after.getTime())
      .sort((a, b) => Date.parse(b.receivedAt) - Date.parse(a.receivedAt));
    if (matches.length) return matches[0];
    if (Date.now() > deadline) {
      const seen = all.map((mail) => `${mail.to} "${mail.subject}" at ${mail.receivedAt}`).join("; ") || "none";
      throw new Error(`No e-mail to ${to} since ${after.toISOString()} within ${timeoutMs} ms. Received: ${seen}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const HTML_ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };

/** The href of the 'Access My Skincare Plan' button. */
export function signInLinkFrom(mail: ReceivedEmail): string {
  const button = /<a\b[^>]*\bhref="([^"]*)"[^>]*>\s*Access My Skincare Plan\s*<\/a>/i.exec(mail.html);
  if (!button) throw new Error(`No 'Access My Skincare Plan' button in the e-mail to ${mail.to} ("${mail.subject}")`);
  return button[1].replace(/&(amp|lt|gt|quot|#39);/g, (entity) => HTML_ENTITIES[entity]);
}

/** The 6-character code after "Or enter this code on the sign-in page:" (text part, else HTML). */
export function codeFrom(mail: ReceivedEmail): string {
  const pattern = /Or enter this code on the sign-in page:\s*([A-Z0-9]{6})\b/;
  const found = pattern.exec(mail.text) ?? pattern.exec(mail.html.replace(/<[^>]+>/g, " "));
  if (!found) throw new Error(`No sign-in code in the e-mail to ${mail.to} ("${mail.subject}")`);
  return found[1];
}
