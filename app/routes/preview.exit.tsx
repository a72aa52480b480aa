/** /preview/exit: back to published content (clears the preview cookie). */
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { safeRedirect } from "~/auth/redirect";
import { clearPreviewCookie } from "~/content/preview.server";
import { PRIVATE_NO_STORE } from "~/utils/http.server";

function exit(request: Request) {
  const to = safeRedirect(new URL(request.url).searchParams.get("path"), "/");
  return redirect(to, { status: 303, headers: { "Set-Cookie": clearPreviewCookie(), "Cache-Control": PRIVATE_NO_STORE } });
}

export const loader = ({ request }: LoaderFunctionArgs) => exit(request);
export const action = ({ request }: ActionFunctionArgs) => exit(request);
