import { sameOriginPath } from "~/content-model/same-origin-path";

/** Where to redirect: `to` when it is a path on this site, else `fallback`. */
export function safeRedirect(to: unknown, fallback = "/home"): string {
  return sameOriginPath(to) ?? fallback;
}
