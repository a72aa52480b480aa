/**
 * The short pages the server answers before Remix runs (429, 403, 405): no scripts, no
 * stylesheet request, the brand's colours inline. A policy of their own allows only that.
 */
import { escapeHtml } from "~/email/templates.server";
import { staticSecurityHeaders } from "./headers.server";

export type PlainPage = { status: number; headers: Record<string, string>; body: string };

export function plainPage(input: { status: number; title: string; text: string; headers?: Record<string, string> }): PlainPage {
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(input.title)} · Glow Coach</title></head>
<body style="margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#fbf6f1;color:#2e2227;font-family:-apple-system,'Segoe UI',Roboto,Arial,sans-serif">
<main style="max-width:28rem;margin:2rem;padding:2rem;background:#fff;border:1px solid #eadbd0;border-radius:1.25rem;text-align:center">
<h1 style="font-family:Georgia,serif;font-weight:normal;font-size:1.75rem;line-height:1.2;margin:0 0 .75rem">${escapeHtml(input.title)}</h1>
<p style="margin:0 0 1.25rem;line-height:1.5;color:#6f5d65">${escapeHtml(input.text)}</p>
<a href="/" style="color:#9c4a5b;font-weight:600">Back to Home</a></main></body></html>`;
  return {
    status: input.status,
    headers: {
      ...staticSecurityHeaders(),
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      ...input.headers,
    },
    body,
  };
}
