/**
 * The daily reminder form's fields (on /profile, and /home's one-tap offer), as a zod schema
 * that Conform parses (parseForm). A checkbox that is not ticked sends nothing: the reminder
 * is then off.
 */
import { z } from "zod";
import { isReminderHour } from "~/members/reminder-schedule";

const HOUR_MESSAGE = "Please choose an hour for your reminder from the list.";

export const ReminderForm = z.object({
  intent: z.literal("reminder", { error: "Please use the buttons on the page." }),
  reminder: z
    .enum(["on", "off"], { error: "Please turn the reminder on or off with the checkbox." })
    .optional()
    .transform((value) => value === "on"),
  // "0" to "23", as the list sends them: nothing else that reads as a number ("7.5", "0x10", " 7").
  hour: z
    .string({ error: HOUR_MESSAGE })
    .regex(/^\d{1,2}$/, HOUR_MESSAGE)
    .transform(Number)
    .refine(isReminderHour, HOUR_MESSAGE),
  /** "home": sent from /home's offer, which goes back there. */
  from: z.string().optional(),
});
