/**
 * The values domain modules answer with instead of HTTP responses. Routes turn them into
 * responses: a `Go` into a 303 redirect (`goTo` in responses.server.ts), a `Refusal` into the
 * form's reply (`replyRefused` in form.server.ts).
 */

/**
 * Carry on at `to`, setting these cookies (session, toast, ...). `to` is a path on this site,
 * or a page the server itself obtained (a payment provider's checkout): never a URL taken
 * from the request.
 */
export type Go = { go: string; cookies: string[] };

export function go(to: string, cookies: string[] = []): Go {
  return { go: to, cookies };
}

export function isGo(value: unknown): value is Go {
  return typeof value === "object" && value !== null && typeof (value as { go?: unknown }).go === "string";
}

/**
 * What a domain function answers when it will not do what a form asked: why, in words a
 * visitor can act on, which field it concerns (none: the form as a whole), and the HTTP-free
 * facts a route needs to answer it (a status class, when to try again).
 */
export type Refusal = {
  refused: true;
  /** 502: a service the answer depended on (the payment provider) failed. */
  status: 400 | 403 | 404 | 405 | 409 | 410 | 429 | 502;
  message: string;
  field?: string;
  /** For limits: when another try will be accepted. */
  retryAt?: Date;
};

export function refusal(status: Refusal["status"], message: string, extra: { field?: string; retryAt?: Date } = {}): Refusal {
  return { refused: true, status, message, ...extra };
}

export function isRefusal(value: unknown): value is Refusal {
  return typeof value === "object" && value !== null && (value as { refused?: unknown }).refused === true;
}
