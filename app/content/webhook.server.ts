/**
 * POST /webhooks/sanity: Sanity calls it when content is published, changed or deleted.
 * Only a request signed with SANITY_WEBHOOK_SECRET (@sanity/webhook) moves the content version
 * (every instance then clears its content and page caches); anything else is refused before it
 * changes anything.
 */
import { isValidSignature, SIGNATURE_HEADER_NAME } from "@sanity/webhook";
import { now } from "~/utils/clock.server";
import { env } from "~/utils/env.server";
import { readBodyText } from "~/utils/form.server";
import { publishContentChange } from "./content-version.server";
import { notePublishedPagesInBackground } from "./published-pages.server";
import { logger } from "~/utils/logger.server";

/** Sanity sends the document's projection; a large body is not a Sanity webhook. */
const MAX_BODY_BYTES = 256 * 1024;

const json = (status: number, body: unknown) => Response.json(body, { status, headers: { "Cache-Control": "no-store" } });

export async function handleSanityWebhook(request: Request): Promise<Response> {
  const secret = env.sanity?.webhookSecret;
  if (!secret) return json(404, { error: "Sanity webhooks are not set up on this server (SANITY_WEBHOOK_SECRET)." });
  const body = await readBodyText(request, MAX_BODY_BYTES);
  if (body === null) return json(413, { error: "The request body is too large." });
  const signature = request.headers.get(SIGNATURE_HEADER_NAME);
  let valid = false;
  try {
    valid = !!signature && (await isValidSignature(body, signature, secret));
  } catch {
    // A malformed signature header is just an invalid signature.
    valid = false;
  }
  if (!valid) {
    logger.warn("[webhook] Sanity webhook with a missing or wrong signature refused");
    return json(401, { error: "Invalid signature." });
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
  return json(200, { ok: true });
}
