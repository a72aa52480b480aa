/**
 * The billing portal forms' fields, as zod schemas that Conform parses (parseForm). They are
 * hidden fields and buttons the pages write, so anything else did not come from a page.
 */
import { z } from "zod";

const FROM_PAGE = "Please use the buttons on the page.";

/** An entitlement's or a plan's id, as the pages write it. */
export const PageId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, FROM_PAGE);

/** 'Manage Subscription' (profile, offer pages) and 'Switch to …' (offer pages): which subscription, and the plan to switch it to. */
export const PortalForm = z.object({ entitlement: PageId.optional(), switchTo: PageId.optional() });

/** The local test portal's buttons: cancel at period end, or resume (a switch has its own page). */
export const TestPortalForm = z.discriminatedUnion("intent", [z.object({ intent: z.enum(["cancel", "resume"]), entitlement: PageId.optional() })], {
  error: FROM_PAGE,
});

/** 'Switch to …' on the switch page, once the member has seen what happens to the money (and when it was priced). */
export const SwitchForm = z.object({ entitlement: PageId, planId: PageId, pricedAt: z.coerce.number().int().positive().optional() });

/** 'Refund … and end my access' on the refund confirmation page: which purchase. */
export const RefundForm = z.object({ entitlement: PageId });
