/**
 * The order of a purchase, and the one place that writes its addresses: a quiz's result leads
 * to an offer page (the content names it); a plan button there starts a checkout, on Stripe's
 * page or, without a Stripe key, on the local test checkout; a paid checkout comes back to
 * /payment-success for that checkout; a cancelled one goes back to the offer page it began on
 * (the checkout's cancelPath). Every step sends the visitor to the next through these.
 */

/** After paying: the page that checks the checkout and welcomes the buyer. */
export const PAYMENT_SUCCESS_PATH = "/payment-success";

/** The local test checkout of one checkout session (ids are cs_local_ + base64url). */
export function localCheckoutPath(checkoutSessionId: string): string {
  return `/checkout/test/${checkoutSessionId}`;
}

/** /payment-success for one checkout. */
export function paymentSuccessPath(checkoutSessionId: string): string {
  return `${PAYMENT_SUCCESS_PATH}?session_id=${encodeURIComponent(checkoutSessionId)}`;
}

/** The same for Stripe's success_url: Stripe fills in the checkout's id. */
export const STRIPE_SUCCESS_PATH = `${PAYMENT_SUCCESS_PATH}?session_id={CHECKOUT_SESSION_ID}`;
