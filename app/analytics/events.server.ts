/**
 * The first-party event log. Recording never breaks a page: a failed write is logged.
 */
import { db } from "~/utils/db.server";

export type EventName = "funnel_viewed" | "funnel_completed" | "initiate_checkout" | "purchase";

export type EventInput = {
  visitorId: string;
  name: EventName;
  funnel?: string;
  step?: string;
  props?: Record<string, unknown>;
};

export async function recordEvent(event: EventInput): Promise<void> {
  try {
    await db.analyticsEvent.create({
      data: {
        visitorId: event.visitorId,
        name: event.name,
        funnel: event.funnel,
        step: event.step,
        props: JSON.stringify(event.props ?? {}),
      },
    });
  } catch (error) {
    console.error(`[analytics] could not record ${event.name}`, error);
  }
}
