/**
 * Recovery e-mails opened (ADR 44, round 2): each e-mail carries a signed 1×1 image,
 * GET /recovery/open.gif?lead=…&e=…&sig=…; loading it logs `recovery_opened` for that lead and
 * e-mail, once however often the mail app loads it (the event's id is derived from both).
 *
 * Served by app/server.ts before Remix, like the 429 page: a Remix route would add an entry to
 * the route manifest every quiz step downloads, and the quiz step is at its JavaScript budget.
 * An address we did not sign, or a lead that is gone, gets the short 400 page and stores nothing.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { recordEvent } from "~/analytics/events.server";
import { plainPage } from "~/security/plain-page.server";
import { requestPathOf } from "~/security/request-guard.server";
import { db } from "~/utils/db.server";
import { logger } from "~/utils/logger.server";
import { fromOpenImageLink, OPEN_IMAGE_PATH, type EmailTag } from "./links.server";

/** A transparent 1×1 GIF. */
const PIXEL = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

/** Logs e-mail `tag` of the lead opened, once; false when the lead does not exist (nothing stored). */
export async function recordOpen(leadId: string, tag: EmailTag): Promise<boolean> {
  const lead = await db.lead.findUnique({ where: { id: leadId }, select: { id: true, visitorId: true, funnelId: true, createdAt: true } });
  if (!lead) return false;
  // One event per e-mail: the same key gives the same event id, and a repeat stores nothing. The
  // lead's start is part of it: an address given again starts a new sequence, whose e-mail 1 is another e-mail.
  await recordEvent(
    { visitorId: lead.visitorId, name: "recovery_opened", funnel: lead.funnelId, props: { lead: lead.id, email: tag } },
    `open:${lead.id}:${lead.createdAt.getTime()}:${tag}`,
  );
  return true;
}

/** Express-style handler: answers GET/HEAD of the open image, and passes anything else on. */
export async function serveRecoveryOpen(req: IncomingMessage, res: ServerResponse, next: () => void): Promise<void> {
  if ((req.method !== "GET" && req.method !== "HEAD") || requestPathOf(req)?.endpoint !== OPEN_IMAGE_PATH) return next();
  let signed: ReturnType<typeof fromOpenImageLink> = null;
  try {
    signed = fromOpenImageLink(new URL(req.url ?? "/", "http://open.invalid"));
  } catch {
    signed = null;
  }
  if (!signed || !(await recordOpen(signed.leadId, signed.tag))) {
    // A mangled or forged address is the sender's problem, not the server's: a warning, not an error.
    logger.warn("[recovery] an open image with a bad signature or no lead");
    const page = plainPage({ status: 400, title: "We couldn't do that", text: "This link isn't valid. Open your plan from the Glow Coach home page." });
    res.writeHead(page.status, page.headers);
    res.end(page.body);
    return;
  }
  // Never kept by a cache or proxy on the way: each load reaches us (the count stays once per e-mail).
  res.writeHead(200, { "Content-Type": "image/gif", "Content-Length": String(PIXEL.length), "Cache-Control": "no-store, private" });
  res.end(req.method === "HEAD" ? undefined : PIXEL);
}
