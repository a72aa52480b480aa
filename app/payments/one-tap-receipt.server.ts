/**
 * After a one-tap purchase is stored (ADR 45), whichever way it was paid (the off-session
 * charge, or the checkout that asked for authentication): the 'upsell_bought' event and the
 * receipt e-mail. Called once per purchase, after its transaction commits (fulfilCheckout).
 */
import { recordEvent } from "~/analytics/events.server";
import { getPlan, getSiteSettings } from "~/content/content.server";
import { sendEmail } from "~/email/mailer.server";
import { oneTapReceiptEmail } from "~/email/templates.server";
import { env } from "~/utils/env.server";
import { logger } from "~/utils/logger.server";
import { displayPrice } from "~/billing/catalogue";

export async function oneTapBought(input: {
  checkoutSessionId: string;
  followsCheckoutId: string;
  visitorId: string;
  userId: string;
  email: string;
  offerId: string;
  planId: string;
  planName: string;
  routinePlanId: string;
  amountMinor: number;
  currency: string;
  /** Paid on the local test checkout (no money moved). */
  testPayment: boolean;
}): Promise<void> {
  await recordEvent({
    visitorId: input.visitorId,
    name: "upsell_bought",
    userId: input.userId,
    props: {
      offer: input.offerId,
      plan: input.planId,
      price: input.amountMinor / 100,
      currency: input.currency.toUpperCase(),
      checkoutSessionId: input.checkoutSessionId,
      follows: input.followsCheckoutId,
    },
  });
  try {
    const [settings, plan] = await Promise.all([getSiteSettings(), getPlan(input.routinePlanId)]);
    const receipt = oneTapReceiptEmail({
      amount: displayPrice(input.amountMinor, input.currency),
      planName: input.planName,
      productName: plan?.name ?? input.planName,
      profileLink: `${env.publicUrl}/profile`,
      brandName: settings.brandName,
      testPayment: input.testPayment,
    });
    await sendEmail({ to: input.email, ...receipt, link: `${env.publicUrl}/home` });
  } catch (error) {
    // The purchase stands; the buyer sees it on the page and on /home.
    logger.error({ err: error }, `[one-tap] could not send the receipt for ${input.checkoutSessionId}`);
  }
}
