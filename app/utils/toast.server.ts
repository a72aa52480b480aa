/**
 * Toasts that survive a redirect: a signed, one-minute flash cookie read (and cleared)
 * by the root loader. Texts are the fixed messages each error shows (toast titles and lines).
 */
import { signedCookie } from "~/utils/cookies.server";
import { z } from "zod";

export const Toast = z.object({
  title: z.string().min(1).max(120),
  description: z.string().max(300).optional(),
  variant: z.enum(["default", "destructive"]).default("default"),
});
export type Toast = z.input<typeof Toast>;

const toastCookie = signedCookie("gc_toast", 60);

/** The Set-Cookie header that shows `toast` on the next page. */
export function toastHeader(toast: Toast): Promise<string> {
  return toastCookie.serialize(Toast.parse(toast));
}

/** The pending toast, if any, and the header that clears it. */
export async function takeToast(request: Request): Promise<{ toast: z.output<typeof Toast> | null; clear?: string }> {
  const header = request.headers.get("Cookie");
  if (!header?.includes("gc_toast=")) return { toast: null };
  const parsed = Toast.safeParse(await toastCookie.parse(header).catch(() => null));
  return { toast: parsed.success ? parsed.data : null, clear: await toastCookie.serialize("", { maxAge: 0 }) };
}
