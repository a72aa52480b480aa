/** What counts as an e-mail address everywhere one is typed in (sign-in, checkout, a funnel's e-mail step): pure, so forms of any module can use it. */
import { z } from "zod";

export const EmailAddress = z.string().trim().toLowerCase().max(254, "That e-mail address is too long.").pipe(z.email("Please enter a valid e-mail address."));
