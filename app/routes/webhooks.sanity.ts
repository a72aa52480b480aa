/** POST /webhooks/sanity: a signed Sanity webhook clears the content caches (app/content/webhook.server.ts). */
import type { ActionFunctionArgs } from "@remix-run/node";
import { SIGNATURE_HEADER_NAME } from "@sanity/webhook";
import { handleSanityWebhook, MAX_WEBHOOK_BODY_BYTES, type SanityWebhookOutcome } from "~/content/webhook.server";
import { readBodyText } from "~/utils/form.server";

const json = (status: number, body: unknown) => Response.json(body, { status, headers: { "Cache-Control": "no-store" } });

const ANSWERS: Record<SanityWebhookOutcome["outcome"], { status: number; body: unknown }> = {
  "not-configured": { status: 404, body: { error: "Sanity webhooks are not set up on this server (SANITY_WEBHOOK_SECRET)." } },
  "too-large": { status: 413, body: { error: "The request body is too large." } },
  "invalid-signature": { status: 401, body: { error: "Invalid signature." } },
  published: { status: 200, body: { ok: true } },
};

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return Response.json({ error: "Use POST." }, { status: 405, headers: { Allow: "POST" } });
  const outcome = await handleSanityWebhook({
    body: await readBodyText(request, MAX_WEBHOOK_BODY_BYTES),
    signature: request.headers.get(SIGNATURE_HEADER_NAME),
  });
  const answer = ANSWERS[outcome.outcome];
  return json(answer.status, answer.body);
}

export function loader() {
  return Response.json({ error: "Use POST." }, { status: 405, headers: { Allow: "POST" } });
}
