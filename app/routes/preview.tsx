/**
 * GET /preview?sanity-preview-secret=…&sanity-preview-pathname=/quiz: the Studio's preview
 * link (its preview pane and "Open preview"). A secret the Studio stored in the dataset
 * within the hour sets the signed preview cookie (drafts are shown for an hour) and
 * redirects to the page; anything else is refused and sets nothing.
 */
import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { safeRedirect } from "~/auth/redirect";
import { checkPreviewLink, previewAvailable, previewCookie } from "~/content/preview.server";
import { PRIVATE_NO_STORE } from "~/utils/http.server";

const text = (status: number, message: string) =>
  new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": PRIVATE_NO_STORE } });

export async function loader({ request }: LoaderFunctionArgs) {
  if (!previewAvailable()) return text(404, "Preview is not set up on this server.");
  const link = await checkPreviewLink(request.url);
  if (!link.ok && link.reason === "unavailable") return text(503, "The preview could not be checked just now. Try again in a moment.");
  if (!link.ok) return text(401, "That preview link is not valid or has expired. Open the preview again from the Studio.");
  return redirect(safeRedirect(link.redirectTo, "/"), {
    status: 303,
    headers: { "Set-Cookie": previewCookie(link.studioOrigin), "Cache-Control": PRIVATE_NO_STORE },
  });
}
