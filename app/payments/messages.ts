/** The texts of the payment errors and notices members see (toast title and description), shared by server and pages. */
export const CHECKOUT_ERROR = { title: "Checkout Error", description: "There was a problem starting your checkout. Please try again." } as const;
export const VERIFICATION_ERROR = {
  title: "Verification Error",
  description: "We're verifying your payment. Please contact support if you continue to see this message.",
} as const;
export const EMAIL_ERROR = { title: "Email Error", description: "We couldn't send your login link. Please contact support." } as const;
export const MAGIC_LINK_SENT = { title: "Magic Link Sent!", description: "Check your email for your magic login link to access your skincare plan." } as const;
/** Logged when 'Manage Subscription' is pressed without a recurring subscription. */
export const NO_SUBSCRIPTION_TO_MANAGE = "No active subscription to manage";

/** PAYMENTS=off: the offer pages stay up, but nothing can be bought. */
export const NOT_ON_SALE = { title: "Not on sale", description: "Plans are not on sale right now. Please come back soon." } as const;

/** The heading over a refused plan button's message: 'Not on sale' over its own message, 'Checkout Error' over every other. */
export function checkoutErrorTitle(message: string): string {
  return message === NOT_ON_SALE.description ? NOT_ON_SALE.title : CHECKOUT_ERROR.title;
}
