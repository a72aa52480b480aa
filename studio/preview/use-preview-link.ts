/**
 * Preview secrets, made by the Studio itself: @sanity/preview-url-secret stores a random
 * secret in the dataset (a `sanity.previewUrlSecret` document only readable with a token,
 * valid for an hour, expired ones removed) with the editor's own session. The app checks a
 * link's secret against the dataset with its server token. So nothing secret is built into
 * the Studio's bundle, and only people who may edit content can open drafts.
 */
import { createPreviewSecret } from "@sanity/preview-url-secret/create-secret";
import { useEffect, useState } from "react";
import { useClient, useCurrentUser, type SanityClient } from "sanity";

const API_VERSION = "2025-02-19";
/** A secret is used again until ten minutes before its hour runs out. */
const RENEW_BEFORE_MS = 10 * 60 * 1000;

let current: { secret: string; expiresAt: number } | null = null;
let pending: Promise<string> | null = null;

/** This Studio tab's preview secret: the one it holds while it is fresh, else a new one. */
export function previewSecret(client: SanityClient, userId: string | undefined): Promise<string> {
  if (current && current.expiresAt - Date.now() > RENEW_BEFORE_MS) return Promise.resolve(current.secret);
  // The Studio's client is @sanity/client 7, the package's types name 8: the same API.
  const studioClient = client as unknown as Parameters<typeof createPreviewSecret>[0];
  pending ??= createPreviewSecret(studioClient, "glow-coach-studio", window.location.origin, userId)
    .then(({ secret, expiresAt }) => {
      current = { secret, expiresAt: expiresAt.getTime() };
      return secret;
    })
    .finally(() => {
      pending = null;
    });
  return pending;
}

/** The client and user preview secrets are made with. */
export function usePreviewSecretSource(): () => Promise<string> {
  const client = useClient({ apiVersion: API_VERSION });
  const user = useCurrentUser();
  return () => previewSecret(client, user?.id);
}

/** A fresh preview secret for a pane that shows the page (null while it is made, or when it could not be). */
export function usePreviewSecret(): { secret: string | null; error: string | null } {
  const client = useClient({ apiVersion: API_VERSION });
  const user = useCurrentUser();
  const [state, setState] = useState<{ secret: string | null; error: string | null }>({ secret: null, error: null });
  useEffect(() => {
    let live = true;
    previewSecret(client, user?.id).then(
      (secret) => live && setState({ secret, error: null }),
      (error: Error) => live && setState({ secret: null, error: error.message }),
    );
    return () => {
      live = false;
    };
  }, [client, user?.id]);
  return state;
}
