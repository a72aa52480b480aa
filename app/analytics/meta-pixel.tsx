import { useEffect } from "react";
import { useMatches } from "@remix-run/react";
import type { PixelEvent } from "./pixel";

declare global {
  interface Window {
    fbq?: (...args: unknown[]) => void;
    __gcPixelSent?: Set<string>;
  }
}

/**
 * The pixel's loader snippet, for <head>, as the root loader built it (so the snippet's text
 * stays out of the browser bundle). Renders nothing without a pixel id.
 */
export function MetaPixelScript({ bootstrap, nonce }: { bootstrap: string | null; nonce?: string }) {
  if (!bootstrap) return null;
  return <script nonce={nonce} dangerouslySetInnerHTML={{ __html: bootstrap }} />;
}

/** Fires the events the current routes' loaders asked for, once per event id. */
export function MetaPixelEvents({ pixelId }: { pixelId: string | null }) {
  const events = useMatches().flatMap((match) => (match.data as { pixelEvents?: PixelEvent[] } | undefined)?.pixelEvents ?? []);
  const key = events.map((e) => e.eventId).join(",");
  useEffect(() => {
    if (!pixelId || !window.fbq) return;
    const sent = (window.__gcPixelSent ??= new Set());
    for (const event of events) {
      if (sent.has(event.eventId)) continue;
      sent.add(event.eventId);
      window.fbq("track", event.name, event.params, { eventID: event.eventId });
    }
    // `key` stands for `events`: fire again only when the set of events changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pixelId, key]);
  return null;
}
