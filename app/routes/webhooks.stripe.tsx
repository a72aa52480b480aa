/** POST /webhooks/stripe: Stripe's webhook endpoint (see app/payments/webhooks.server.ts). */
import type { ActionFunctionArgs } from "@remix-run/node";
import { handleStripeWebhook, MAX_WEBHOOK_BYTES } from "~/payments/webhooks.server";

const plain = (body: string, status: number) =>
  new Response(body, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

export async function loader() {
  return plain("Stripe webhooks are POSTed here.", 405);
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return plain("Method not allowed.", 405);
  if (Number(request.headers.get("Content-Length") ?? "0") > MAX_WEBHOOK_BYTES) return plain("Payload too large.", 413);
  // The signature covers the exact bytes Stripe sent: read the raw body, parse nothing first.
  const payload = await request.text();
  if (Buffer.byteLength(payload) > MAX_WEBHOOK_BYTES) return plain("Payload too large.", 413);
  const answer = await handleStripeWebhook(payload, request.headers.get("Stripe-Signature"));
  return plain(answer.body, answer.status);
}
