/**
 * /auth/callback: where Google sends the browser back. In the popup it shows
 * 'Authenticating…', tells the opener how it went and closes; without a popup the
 * loader redirects.
 */
import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { finishGoogleSignIn } from "~/auth/google.server";
import { AUTH_MESSAGE_TYPE, CLOSE_AFTER_MS, FALLBACK_CLOSE_MS, type AuthMessage } from "~/auth/google-popup";
import { AuthCard } from "~/components/ui/form";
import { isGo } from "~/utils/outcome";
import { goTo } from "~/utils/responses.server";
import { seo } from "~/utils/seo";

export const meta: MetaFunction = (args) => seo(args, { title: "Signing in · Glow Coach", description: "Finishing your sign-in.", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  const outcome = await finishGoogleSignIn({ query: new URL(request.url).searchParams, cookieHeader: request.headers.get("Cookie") });
  if (isGo(outcome)) return goTo(outcome);
  const headers = new Headers();
  for (const cookie of outcome.cookies) headers.append("Set-Cookie", cookie);
  return data({ status: outcome.popupStatus }, { headers });
}

export default function AuthCallback() {
  const { status } = useLoaderData<typeof loader>();

  useEffect(() => {
    const message: AuthMessage = { type: AUTH_MESSAGE_TYPE, status };
    window.opener?.postMessage(message, window.location.origin);
    const close = setTimeout(() => window.close(), CLOSE_AFTER_MS);
    // If the message could not close us (no opener, blocked close), try again later.
    const fallback = setTimeout(() => window.close(), FALLBACK_CLOSE_MS);
    return () => {
      clearTimeout(close);
      clearTimeout(fallback);
    };
  }, [status]);

  return (
    <AuthCard>
      <div className="text-center" role="status">
        <span
          aria-hidden="true"
          className="mx-auto block h-10 w-10 animate-spin rounded-full border-4 border-rose-100 border-t-rose-500 motion-reduce:animate-none"
        />
        <h1 className="mt-6 text-2xl font-semibold">Authenticating…</h1>
        <p className="mt-2 text-muted">You can close this window.</p>
      </div>
    </AuthCard>
  );
}
