/** GET /auth/status: whether this browser is signed in (the Google popup's opener asks after it closes). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { getUser } from "~/auth/guards.server";
import { PRIVATE_NO_STORE } from "~/utils/http.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getUser(request);
  return Response.json({ signedIn: user !== null }, { headers: { "Cache-Control": PRIVATE_NO_STORE } });
}
