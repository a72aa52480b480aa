/** Domain outcomes as HTTP responses: the one place routes turn a `Go` into a redirect. */
import { redirect } from "@remix-run/node";
import type { Go } from "./outcome";

export function goTo(outcome: Go, init: { headers?: HeadersInit } = {}): Response {
  const headers = new Headers(init.headers);
  for (const cookie of outcome.cookies) headers.append("Set-Cookie", cookie);
  return redirect(outcome.go, { status: 303, headers });
}
