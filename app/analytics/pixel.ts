/**
 * The Meta (Facebook) pixel, only when META_PIXEL_ID is set. Loaders put the events a
 * page should fire in their data as `pixelEvents`; the root layout fires them once each,
 * with the server's event id so Meta de-duplicates them against server-side conversions.
 */

export type PixelEventName = "ViewContent" | "Lead" | "InitiateCheckout" | "Purchase";

export type PixelEvent = {
  name: PixelEventName;
  params: Record<string, string | number | string[]>;
  /** The id of the matching first-party event (AnalyticsEvent id, or a purchase's eventId). */
  eventId: string;
};

/** Meta pixel ids are digits only; anything else is refused by the env schema. */
export const PIXEL_ID = /^\d{5,20}$/;

/** Meta's standard loader snippet, plus init and PageView. Inline, so no other script is needed. */
export function pixelBootstrap(pixelId: string): string {
  if (!PIXEL_ID.test(pixelId)) throw new Error("not a Meta pixel id");
  return (
    "!function(f,b,e,v,n,t,s){if(f.fbq)return;n=f.fbq=function(){n.callMethod?n.callMethod.apply(n,arguments):n.queue.push(arguments)};" +
    "if(!f._fbq)f._fbq=n;n.push=n;n.loaded=!0;n.version='2.0';n.queue=[];t=b.createElement(e);t.async=!0;t.src=v;" +
    "s=b.getElementsByTagName(e)[0];s.parentNode.insertBefore(t,s)}(window,document,'script','https://connect.facebook.net/en_US/fbevents.js');" +
    `fbq('init','${pixelId}');fbq('track','PageView');`
  );
}

/** ViewContent when a quiz is opened. */
export function viewContentEvent(input: { funnel: string; title: string; eventId: string }): PixelEvent {
  return { name: "ViewContent", params: { content_ids: [input.funnel], content_name: input.title, content_type: "quiz" }, eventId: input.eventId };
}

/** Lead when a quiz is completed. */
export function leadEvent(input: { funnel: string; title: string; eventId: string }): PixelEvent {
  return { name: "Lead", params: { content_ids: [input.funnel], content_name: input.title }, eventId: input.eventId };
}

/** InitiateCheckout, from the props of the server's "initiate_checkout" event (payments). */
export function initiateCheckoutEvent(props: { plan: string; name: string; price: number; currency: string }, eventId: string): PixelEvent {
  return { name: "InitiateCheckout", params: { value: props.price, currency: props.currency, content_ids: [props.plan], content_name: props.name }, eventId };
}

/** Purchase, from the props of the server's "purchase" event: its eventId is the pixel's eventID. */
export function purchaseEvent(props: { plan: string; offer: string; price: number; currency: string; eventId: string }): PixelEvent {
  return {
    name: "Purchase",
    params: { value: props.price, currency: props.currency, content_ids: [props.plan], content_name: props.offer },
    eventId: props.eventId,
  };
}
