/**
 * GET /recover/opened?lead=…&e=…&sig=…: a recovery e-mail's 1×1 image. Counts recovery_opened
 * once per lead and e-mail when the link is ours; answers the same transparent GIF either way.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { fromSignedLink } from "~/recovery/links.server";
import { noteOpened } from "~/recovery/leads.server";

const GIF = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

export async function loader({ request }: LoaderFunctionArgs) {
  const link = fromSignedLink(new URL(request.url), "opened");
  if (link) await noteOpened(link.leadId, link.tag);
  return new Response(GIF, { headers: { "Content-Type": "image/gif", "Cache-Control": "no-store", "Content-Length": String(GIF.length) } });
}
