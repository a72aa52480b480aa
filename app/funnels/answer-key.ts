/**
 * The key an answer sent by the quiz's JavaScript carries (ADR 43): one per answer, the same on
 * every retry of it, so the server records its events once however often it arrives. Shared by
 * the browser (which makes keys) and the content route's action (which checks them).
 */
export const ANSWER_KEY_HEADER = "X-Answer-Key";

/** A browser tab's random id and the answer's number in that tab: "k4x9…-12". */
const ANSWER_KEY = /^[a-z0-9]{16,40}-\d{1,9}$/;

/** The request's answer key: undefined when it has none, null when it is not one we make. */
export function answerKeyOf(request: Request): string | undefined | null {
  const key = request.headers.get(ANSWER_KEY_HEADER);
  if (key === null) return undefined;
  return ANSWER_KEY.test(key) ? key : null;
}
