/**
 * The dev mailbox: with no SMTP server configured, e-mails are saved as JSON files in a
 * folder and shown at /dev/mailbox, so sign-in works on a laptop with nothing to set up.
 * The log says a message arrived and where to read it, never its link: sign-in links are
 * secrets, and logs travel further than the data folder. Functions take the folder, so
 * tests need no env.
 */
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { logger } from "~/utils/logger.server";

const StoredMessage = z.object({
  id: z.string(),
  to: z.string(),
  from: z.string(),
  subject: z.string(),
  html: z.string(),
  text: z.string(),
  link: z.string().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  createdAt: z.string(),
});

export type MailboxMessage = z.infer<typeof StoredMessage>;

/**
 * Milliseconds since 1970 (13 digits, so names sort by time until the year 2286) and a
 * random suffix. Ids come back in URLs, so only this exact shape is ever read from disk.
 */
const ID = /^\d{13}-[0-9a-f]{8}$/;

export function isMessageId(id: string): boolean {
  return ID.test(id);
}

export function mailboxDir(dataDir: string): string {
  return path.join(dataDir, "mailbox");
}

let lastStamp = 0;

/** Strictly increasing, so two messages saved in the same millisecond still list in order. */
function newId(): string {
  lastStamp = Math.max(Date.now(), lastStamp + 1);
  return `${String(lastStamp).padStart(13, "0")}-${crypto.randomBytes(4).toString("hex")}`;
}

/** Saves a message and logs `[mail] to <address>: "<subject>": open /dev/mailbox`. */
export async function saveMessage(dir: string, message: Omit<MailboxMessage, "id" | "createdAt">): Promise<MailboxMessage> {
  const id = newId();
  const stored: MailboxMessage = { id, ...message, createdAt: new Date(Number(id.slice(0, 13))).toISOString() };
  const file = path.join(dir, `${id}.json`);
  await fs.mkdir(dir, { recursive: true });
  // Written aside and renamed, so the list never reads half a file. Mode 600: links sign people in.
  await fs.writeFile(`${file}.tmp`, JSON.stringify(stored, null, 2), { mode: 0o600 });
  await fs.rename(`${file}.tmp`, file);
  logger.info({ mailboxId: id }, `[mail] to ${stored.to}: "${stored.subject}": open /dev/mailbox to read it`);
  return stored;
}

/** A stored message, or null for an unknown or malformed id (never a path outside `dir`). */
export async function readMessage(dir: string, id: string): Promise<MailboxMessage | null> {
  if (!isMessageId(id)) return null;
  try {
    return StoredMessage.parse(JSON.parse(await fs.readFile(path.join(dir, `${id}.json`), "utf8")));
  } catch {
    // Missing, unreadable or edited by hand: the same as not there.
    return null;
  }
}

/** The newest `limit` messages, newest first. */
export async function listMessages(dir: string, limit = 100): Promise<MailboxMessage[]> {
  const names = await fs.readdir(dir).catch(() => []);
  const ids = names
    .filter((name) => name.endsWith(".json"))
    .map((name) => name.slice(0, -".json".length))
    .filter(isMessageId)
    .sort()
    .reverse()
    .slice(0, limit);
  const messages = await Promise.all(ids.map((id) => readMessage(dir, id)));
  return messages.filter((m): m is MailboxMessage => m !== null);
}

/** "2026-11-23 10:15 UTC": the same text on the server and in the browser, so hydration matches. */
export function displayTime(iso: string): string {
  return `${iso.slice(0, 16).replace("T", " ")} UTC`;
}
