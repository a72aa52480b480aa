/**
 * Sanity calls POST /webhooks/sanity when content is published, changed or deleted. Only a
 * body signed with SANITY_WEBHOOK_SECRET (@sanity/webhook) moves the content version (every
 * instance then clears its content and page caches); anything else is refused before it
 * changes anything. The route reads the body and the signature header and answers with the
 * outcome this module returns.
 */
import { isValidSignature } from "@sanity/webhook";
import { now } from "~/utils/clock.server";
import { env } from "~/utils/env.server";
import { publishContentChange } from "./content-version.server";
import { notePublishedPagesInBackground } from "./published-pages.server";
import { logger } from "~/utils/logger.server";

/** Sanity sends the document's projection; a larger body is not a Sanity webhook. */
export const MAX_WEBHOOK_BODY_BYTES = 256 * 1024;

export type SanityWebhookOutcome =
  /** SANITY_WEBHOOK_SECRET is not set: this server takes no Sanity webhooks. */
  | { outcome: "not-configured" }
  /** The body was larger than MAX_WEBHOOK_BODY_BYTES. */
  | { outcome: "too-large" }
  /** The signature is missing, malformed or does not match the body. */
  | { outcome: "invalid-signature" }
  /** The content version moved on: every instance clears its caches. */
  | { outcome: "published"; version: number };

export async function handleSanityWebhook(input: {
  /** The request body, or null when it was larger than MAX_WEBHOOK_BODY_BYTES. */
  body: string | null;
  /** The signature header's value, if any. */
  signature: string | null;
}): Promise<SanityWebhookOutcome> {
  const secret = env.sanity?.webhookSecret;
  if (!secret) return { outcome: "not-configured" };
  const { body, signature } = input;
  if (body === null) return { outcome: "too-large" };
  let valid = false;
  try {
    valid = !!signature && (await isValidSignature(body, signature, secret));
  } catch {
    // A malformed signature header is just an invalid signature.
    valid = false;
  }
  if (!valid) {
    logger.warn("[webhook] Sanity webhook with a missing or wrong signature refused");
    return { outcome: "invalid-signature" };
  }
  let id: unknown;
  try {
    id = (JSON.parse(body) as { _id?: unknown })?._id;
  } catch {
    id = undefined;
  }
  // Every instance clears its caches when it sees the new version (within a second).
  const version = await publishContentChange(now());
  logger.info(`[webhook] content changed${typeof id === "string" ? ` (${id})` : ""}: content version ${version}, caches cleared`);
  // A page published now is noted at once, so taking it down later answers 410 even if nobody opened it.
  notePublishedPagesInBackground();
  return { outcome: "published", version };
}
