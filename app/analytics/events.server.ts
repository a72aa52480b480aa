/**
 * The first-party event log. Recording never breaks a page: a failed write is logged.
 */
import crypto from "node:crypto";
import type { EventInput } from "./event-input";
import { eventVariants } from "./event-variants.server";
import type { DbTransaction } from "~/utils/db.server";
import { logger } from "~/utils/logger.server";
import { repeatOnEveryView } from "~/utils/page-record.server";
import { queueEvent, storeEvent } from "./event-batch.server";

/**
 * The id of an event made by a request that may arrive more than once (an answer the quiz's
 * JavaScript sends again after a lost response, ADR 43): the same visitor, request key, event and
 * step always give the same id, so the second arrival stores nothing new and answers the same id.
 * The visitor is part of it, so no request key can name another visitor's event.
 */
export function repeatableEventId(visitorId: string, requestKey: string, event: Pick<EventInput, "name" | "step">): string {
  const hex = crypto
    .createHash("sha256")
    .update(`${visitorId}\u0000${requestKey}\u0000${event.name}\u0000${event.step ?? ""}`)
    .digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Records an event, with the variants of the running experiments the visitor is in; answers
 * its id (usable as a pixel event id), or null when the write failed. With `requestKey` (a
 * request that may be repeated), the id is `repeatableEventId`'s and a repeat stores nothing.
 * Hot-path SQL: funnel steps and finished routines record one on nearly every request.
 */
export async function recordEvent(event: EventInput, requestKey?: string): Promise<string | null> {
  const id = event.id ?? (requestKey ? repeatableEventId(event.visitorId, requestKey, event) : crypto.randomUUID());
  try {
    const variants = await eventVariants(event.visitorId);
    await storeEvent({ ...event, id, props: JSON.stringify(event.props ?? {}), createdAt: new Date() }, variants);
    return id;
  } catch (error) {
    logger.error({ err: error }, `[analytics] could not record ${event.name}`);
    return null;
  }
}

/**
 * Records an event as one of the writes of a caller's transaction (a purchase, with the
 * checkout it completes): stored with them or not at all, and a failed write fails the
 * transaction. `variants` as `eventVariants` read them before the transaction began (no
 * second connection is used while it is open). Answers the event's id.
 */
export async function recordEventWithin(tx: DbTransaction, event: EventInput, variants: string | null): Promise<string> {
  const id = crypto.randomUUID();
  await tx.analyticsEvent.create({
    data: {
      id,
      visitorId: event.visitorId,
      name: event.name,
      funnel: event.funnel ?? null,
      step: event.step ?? null,
      props: JSON.stringify(event.props ?? {}),
      userId: event.userId ?? null,
      variants,
      createdAt: new Date(),
    },
  });
  return id;
}

/**
 * For the offer pages: call from their loader when a visitor opens an offer. `funnel` is the
 * funnel that led there, when known. Queued, not awaited (./event-batch.server.ts): a view is
 * counted, and the page does not wait for the write. A page served again from memory counts
 * its view again (app/utils/page-record.server.ts).
 */
export function recordOfferViewed(input: { visitorId: string; offer: string; funnel?: string; userId?: string }): string {
  const view = () =>
    queueEvent({ visitorId: input.visitorId, name: "offer_viewed", funnel: input.funnel, userId: input.userId, props: { offer: input.offer } });
  repeatOnEveryView(view);
  return view();
}
