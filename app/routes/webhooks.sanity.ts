/** POST /webhooks/sanity: a signed Sanity webhook clears the content caches (app/content/webhook.server.ts). */
import type { ActionFunctionArgs } from "@remix-run/node";
import { handleSanityWebhook } from "~/content/webhook.server";

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return Response.json({ error: "Use POST." }, { status: 405, headers: { Allow: "POST" } });
  return handleSanityWebhook(request);
}

export function loader() {
  return Response.json({ error: "Use POST." }, { status: 405, headers: { Allow: "POST" } });
}
