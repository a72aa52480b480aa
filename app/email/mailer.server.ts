/**
 * Sending e-mail: over SMTP (nodemailer) when SMTP_URL is set, otherwise into the dev
 * mailbox. Both sit behind one small interface, so callers run the same code either way.
 */
import nodemailer from "nodemailer";
import { env } from "~/utils/env.server";
import { mailboxDir, saveMessage } from "./dev-mailbox.server";

export type OutgoingEmail = {
  to: string;
  subject: string;
  html: string;
  text: string;
  /** the main link, printed to the log by the dev mailbox */
  link?: string;
  /** Extra headers (List-Unsubscribe ...). */
  headers?: Record<string, string>;
};

export type Mailer = { send(email: OutgoingEmail): Promise<void> };

export type MailerConfig = { from: string } & ({ smtpUrl: string } | { mailboxDir: string });

/**
 * A request waits while its e-mail is sent: give up within seconds (nodemailer's defaults
 * are minutes), so the person sees the error message instead of a page that hangs.
 */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

export function createMailer(config: MailerConfig): Mailer {
  if ("smtpUrl" in config) {
    const transport = nodemailer.createTransport({ url: config.smtpUrl, ...SMTP_TIMEOUTS }, { from: config.from });
    return {
      async send({ to, subject, html, text, headers }) {
        await transport.sendMail({ to, subject, html, text, headers });
      },
    };
  }
  const dir = config.mailboxDir;
  return {
    async send({ to, subject, html, text, link, headers }) {
      await saveMessage(dir, { to, from: config.from, subject, html, text, link, headers });
    },
  };
}

/** The dev mailbox folder, or null when /dev/mailbox is off: SMTP is set (nothing is stored) or production without MAILBOX_UI. */
export function visibleMailboxDir(): string | null {
  return env.mail.mailboxUi && !env.mail.smtpUrl ? mailboxDir(env.dataDir) : null;
}

let mailer: Mailer | undefined;

/** Sends one e-mail. Errors propagate: the caller tells the person it failed. */
export async function sendEmail(email: OutgoingEmail): Promise<void> {
  // Created on first use and kept, so the SMTP transport is built once.
  mailer ??= createMailer(env.mail.smtpUrl ? { from: env.mail.from, smtpUrl: env.mail.smtpUrl } : { from: env.mail.from, mailboxDir: mailboxDir(env.dataDir) });
  await mailer.send(email);
}
