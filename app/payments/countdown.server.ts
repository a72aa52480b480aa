/**
 * Offer countdowns. Each visitor gets one deadline per offer, issued by the server the
 * first time they open it and kept in a signed cookie, so a reload does not restart the
 * clock and editing the cookie cannot extend it (a tampered cookie starts nothing new:
 * its deadlines are simply re-issued, which is what a first visit would get anyway).
 */
import { signedCookie } from "~/utils/cookies.server";
import { z } from "zod";
import { now } from "~/utils/clock.server";
import { countdownOnPage } from "~/utils/page-record.server";

const deadlineCookie = signedCookie("gc_offer_deadlines", 60 * 60 * 24 * 30);

/** offerId → deadline (epoch ms). A handful of offers at most. */
const Deadlines = z.record(z.string().max(41), z.number().int().positive()).refine((d) => Object.keys(d).length <= 20);

export type Countdown = { remainingSeconds: number; setCookie?: string };

/** Seconds left on this visitor's countdown for an offer, issuing the deadline on first sight. */
export async function offerCountdown(cookieHeader: string | null, offerId: string, seconds: number): Promise<Countdown> {
  const raw = cookieHeader?.includes(`${deadlineCookie.name}=`) ? await deadlineCookie.parse(cookieHeader).catch(() => null) : null;
  const parsed = Deadlines.safeParse(raw);
  const deadlines = parsed.success ? parsed.data : {};
  const at = now().getTime();
  const known = deadlines[offerId];
  // A deadline further away than the countdown's length was not issued by us for this offer.
  if (known !== undefined && known - at <= seconds * 1000) {
    const remainingSeconds = Math.max(0, Math.ceil((known - at) / 1000));
    // Shown while it runs; the page changes when it runs out (no countdown at all then).
    if (remainingSeconds > 0) countdownOnPage(known, remainingSeconds);
    return { remainingSeconds };
  }
  const deadline = at + seconds * 1000;
  return { remainingSeconds: seconds, setCookie: await deadlineCookie.serialize({ ...deadlines, [offerId]: deadline }) };
}
