/** POST /webhooks/stripe: Stripe's webhook endpoint (see app/payments/webhooks.server.ts). */
import type { ActionFunctionArgs } from "@remix-run/node";
import { handleStripeWebhook, MAX_WEBHOOK_BYTES } from "~/payments/webhooks.server";
import { readBodyText } from "~/utils/form.server";

const plain = (body: string, status: number) =>
  new Response(body, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

export async function loader() {
  return plain("Stripe webhooks are POSTed here.", 405);
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return plain("Method not allowed.", 405);
  // The signature covers the exact bytes Stripe sent: read the raw body, parse nothing first.
  // Reading stops at the limit, with or without a Content-Length.
  const payload = await readBodyText(request, MAX_WEBHOOK_BYTES);
  if (payload === null) return plain("Payload too large.", 413);
  const answer = await handleStripeWebhook(payload, request.headers.get("Stripe-Signature"));
  return plain(answer.body, answer.status);
}
