/** What an event of the first-party log holds before it is written (events.server.ts, event-batch.server.ts). */
export type EventName =
  | "funnel_viewed"
  | "step_answered"
  | "funnel_completed"
  | "offer_viewed"
  | "initiate_checkout"
  | "purchase"
  | "routine_completed"
  /** A visitor's first sight of an experiment's subject, with the variant they were assigned. */
  | "experiment_viewed"
  /** The one-tap offer on /payment-success, shown and bought (ADR 45); a purchase of it is also a 'purchase'. */
  | "upsell_shown"
  | "upsell_bought"
  /** An address given at a funnel's e-mail step (props.consent: marketing e-mails agreed). */
  | "email_captured"
  /** Recovery e-mails (ADR 44): props.kind "sequence" (props.number) or "checkout"; props.lead. */
  | "recovery_sent"
  /** A recovery e-mail's image loaded (props.lead, props.email): once per e-mail. */
  | "recovery_opened"
  | "recovery_clicked"
  /** A purchase by a lead after a recovery e-mail was sent to them (props.price, props.currency). */
  | "recovery_purchased";

export type EventInput = {
  /** Given when the caller needs the id before the event is written (a pixel event carries it); else a new one. */
  id?: string;
  visitorId: string;
  name: EventName;
  funnel?: string;
  step?: string;
  props?: Record<string, unknown>;
  /** The signed-in member, when there is one. */
  userId?: string;
};
