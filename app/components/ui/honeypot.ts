/** The hidden form field bots fill in (shared by the form component and the actions). */
export const HONEYPOT_FIELD = "website";
