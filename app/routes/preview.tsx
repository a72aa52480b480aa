/**
 * GET /preview?secret=…&path=/quiz: the Studio's "Open preview" link. A right secret sets
 * the signed preview cookie (drafts are shown for an hour) and redirects to the page.
 */
import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { safeRedirect } from "~/auth/redirect";
import { isPreviewSecret, previewCookie } from "~/content/preview.server";
import { env } from "~/utils/env.server";
import { PRIVATE_NO_STORE } from "~/utils/http.server";

const text = (status: number, message: string) =>
  new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": PRIVATE_NO_STORE } });

export function loader({ request }: LoaderFunctionArgs) {
  if (!env.sanity?.previewSecret || !env.sanity.token) return text(404, "Preview is not set up on this server.");
  const url = new URL(request.url);
  if (!isPreviewSecret(url.searchParams.get("secret"))) return text(401, "That preview link is not valid. Open the preview again from the Studio.");
  return redirect(safeRedirect(url.searchParams.get("path"), "/"), {
    status: 303,
    headers: { "Set-Cookie": previewCookie(), "Cache-Control": PRIVATE_NO_STORE },
  });
}
