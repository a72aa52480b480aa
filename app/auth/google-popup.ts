/**
 * The Google popup's size and timings (500x600; the opener polls every 800 ms and gives up after
 * 120 s; the callback page closes 200 ms after success, or after 5 s if nothing happens) and the
 * message it sends its opener.
 */
export const POPUP_NAME = "glow-google-sign-in";
export const POPUP_WIDTH = 500;
export const POPUP_HEIGHT = 600;
export const POLL_MS = 800;
export const GIVE_UP_MS = 120_000;
export const CLOSE_AFTER_MS = 200;
export const FALLBACK_CLOSE_MS = 5_000;

export const AUTH_MESSAGE_TYPE = "GLOW_AUTH";
export type AuthMessage = { type: typeof AUTH_MESSAGE_TYPE; status: "success" | "error" };

export function isAuthMessage(value: unknown): value is AuthMessage {
  if (typeof value !== "object" || value === null) return false;
  const message = value as Record<string, unknown>;
  return message.type === AUTH_MESSAGE_TYPE && (message.status === "success" || message.status === "error");
}

/** Window features for a 500×600 popup centred over the current window. */
export function popupFeatures(screen: { x: number; y: number; width: number; height: number }): string {
  const left = Math.max(0, Math.round(screen.x + (screen.width - POPUP_WIDTH) / 2));
  const top = Math.max(0, Math.round(screen.y + (screen.height - POPUP_HEIGHT) / 2));
  return `popup=yes,width=${POPUP_WIDTH},height=${POPUP_HEIGHT},left=${left},top=${top}`;
}
