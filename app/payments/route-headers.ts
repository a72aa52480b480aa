/**
 * The document headers of the payment pages. They depend on the visitor (countdown cookie,
 * checkout, account), so shared caches must never keep them; payment-success also keeps its
 * session id out of Referer headers.
 */
import type { HeadersFunction } from "@remix-run/node";

export const paymentPageHeaders: HeadersFunction = ({ loaderHeaders, actionHeaders }) => {
  const headers = new Headers({ "Cache-Control": actionHeaders.get("Cache-Control") ?? loaderHeaders.get("Cache-Control") ?? "private, no-store" });
  const referrer = loaderHeaders.get("Referrer-Policy");
  if (referrer) headers.set("Referrer-Policy", referrer);
  return headers;
};
