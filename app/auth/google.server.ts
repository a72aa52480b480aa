/**
 * Google sign-in with remix-auth-oauth2 (OpenID Connect code flow). Endpoints come from the
 * issuer's discovery document, so tests point GOOGLE_ISSUER at a local OAuth server and
 * run exactly this code. Shown only when GOOGLE_CLIENT_ID/SECRET are set.
 *
 * Two ways in: with JavaScript the button posts into a 500x600 popup and /auth/callback
 * tells the opener; without it the whole page goes to Google and back.
 */
import { signedCookie } from "~/utils/cookies.server";
import { OAuth2Strategy, type OAuth2Profile } from "remix-auth-oauth2";
import { z } from "zod";
import { env } from "~/utils/env.server";
import { go, type Go } from "~/utils/outcome";
import { toastHeader } from "~/utils/toast.server";
import { authenticator, type AuthResult } from "./authenticator.server";
import { safeRedirect } from "./redirect";
import { visitorIdOf } from "~/analytics/visitor.server";
import { completeSignIn } from "./sign-in.server";
import { logger } from "~/utils/logger.server";

export const GOOGLE_WELCOME = { title: "Welcome!", description: "Successfully signed in with Google." } as const;
export const GOOGLE_FAILED = { title: "Error", description: "Failed to sign in with Google. Please try again.", variant: "destructive" } as const;

const Discovery = z.object({
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  userinfo_endpoint: z.url(),
});

const GoogleUser = z.object({
  sub: z.string().min(1),
  email: z.string().email(),
  email_verified: z.union([z.boolean(), z.literal("true"), z.literal("false")]).transform((v) => v === true || v === "true"),
  name: z.string().optional(),
});

type GoogleProfile = OAuth2Profile & { googleUser: z.infer<typeof GoogleUser> };

/** Where the flow started and where it goes after: a signed cookie for the round trip. */
const flowCookie = signedCookie("gc_oauth", 10 * 60);

const Flow = z.object({ popup: z.boolean(), redirectTo: z.string() });
type Flow = z.infer<typeof Flow>;

class GoogleStrategy extends OAuth2Strategy<AuthResult, GoogleProfile, Record<string, unknown>> {
  constructor(
    private readonly userinfoUrl: string,
    options: ConstructorParameters<typeof OAuth2Strategy<AuthResult, GoogleProfile, Record<string, unknown>>>[0],
  ) {
    // Google vouches for the address only when it says the address is verified.
    super(options, async ({ profile }) => {
      const google = profile.googleUser;
      if (!google.email_verified) throw new Error("This Google account's e-mail address is not verified.");
      return { email: google.email, proof: "google", googleId: google.sub, googleName: google.name ?? null, redirectTo: null, registration: null };
    });
    this.name = "google";
  }

  /** Only our parameters: the library would otherwise copy the request's query string to Google. */
  protected authorizationParams(): URLSearchParams {
    return new URLSearchParams({ scope: "openid email profile", prompt: "select_account" });
  }

  protected async userProfile(accessToken: string): Promise<GoogleProfile> {
    const response = await fetch(this.userinfoUrl, { headers: { Authorization: `Bearer ${accessToken}` }, signal: AbortSignal.timeout(10_000) });
    if (!response.ok) throw new Error(`Google's userinfo answered ${response.status}`);
    const googleUser = GoogleUser.parse(await response.json());
    return { provider: "google", id: googleUser.sub, googleUser };
  }
}

let registered: Promise<void> | null = null;

/** Where Google sends the browser back: /auth/callback on PUBLIC_URL. */
function callbackUrl(): URL {
  return new URL(`${env.publicUrl}/auth/callback`);
}

/**
 * remix-auth only takes a Request. The strategy reads from it this browser's gc_auth cookie
 * (its OAuth state), the path (the start, or the callback) and, on the callback, Google's
 * `state` and `code`; so one is built from just those, on PUBLIC_URL.
 */
function strategyRequest(url: URL, cookieHeader: string | null): Request {
  const headers = new Headers();
  if (cookieHeader) headers.set("Cookie", cookieHeader);
  return new Request(url, { headers });
}

/** Reads the issuer's discovery document once and registers the strategy. */
function registerGoogle(): Promise<void> {
  const google = env.google;
  if (!google) return Promise.reject(new Error("Google sign-in is not configured"));
  registered ??= (async () => {
    const response = await fetch(`${google.issuer}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(10_000) });
    if (!response.ok) throw new Error(`OpenID discovery at ${google.issuer} answered ${response.status}`);
    const endpoints = Discovery.parse(await response.json());
    authenticator.use(
      new GoogleStrategy(endpoints.userinfo_endpoint, {
        authorizationURL: endpoints.authorization_endpoint,
        tokenURL: endpoints.token_endpoint,
        clientID: google.clientId,
        clientSecret: google.clientSecret,
        // Built on PUBLIC_URL, never on the request's Host header.
        callbackURL: callbackUrl().toString(),
      }),
      "google",
    );
  })().catch((error) => {
    registered = null; // try again on the next sign-in
    throw error;
  });
  return registered;
}

/** Off to Google's account picker: the address the strategy built, and the cookies for the round trip. */
export type ToGoogle = { google: string; cookies: string[] };

/**
 * POST /auth/google: remember the flow (popup or not, where to go after) and go to Google's
 * account picker; if that cannot start, back to /login with the catalogue's toast.
 * `cookieHeader` is this browser's Cookie header.
 */
export async function startGoogleSignIn(input: { popup: boolean; redirectTo: unknown; cookieHeader: string | null }): Promise<ToGoogle | Go> {
  const flow: Flow = { popup: input.popup, redirectTo: safeRedirect(input.redirectTo) };
  try {
    await registerGoogle();
    await authenticator.authenticate("google", strategyRequest(new URL(`${env.publicUrl}/auth/google`), input.cookieHeader));
  } catch (thrown) {
    // remix-auth answers with a redirect to Google, carrying its own state cookie.
    const location = thrown instanceof Response && thrown.status >= 300 && thrown.status < 400 ? thrown.headers.get("Location") : null;
    if (thrown instanceof Response && location) {
      return { google: location, cookies: [...thrown.headers.getSetCookie(), await flowCookie.serialize(flow)] };
    }
    logger.error({ err: thrown }, "[auth] could not start Google sign-in");
  }
  return failed(flow);
}

/** How the sign-in ended, for the popup's page to tell the opener (with the cookies to set). */
export type PopupOutcome = { popupStatus: "success" | "error"; cookies: string[] };

/**
 * GET /auth/callback: Google sends the browser back here. In the popup, the page tells
 * the opener how it went; without a popup, on to where the flow started (or /login) with a toast.
 * `query` is the callback's query string (Google's `state` and `code`, or `error`);
 * `cookieHeader` is this browser's Cookie header.
 */
export async function finishGoogleSignIn(input: { query: URLSearchParams; cookieHeader: string | null }): Promise<PopupOutcome | Go> {
  const flow = Flow.safeParse(await flowCookie.parse(input.cookieHeader).catch(() => null));
  // Nobody tried: no flow started in this browser, and no answer from Google in the address
  // (a bookmark, a typed address, a crawler). Nothing failed, so no error: on to sign-in.
  if (!flow.success && !["code", "state", "error"].some((name) => input.query.has(name))) return go("/login");
  const { popup, redirectTo } = flow.success ? flow.data : { popup: false, redirectTo: "/home" };
  let result: AuthResult | null = null;
  if (!input.query.has("error")) {
    try {
      await registerGoogle();
      const callback = callbackUrl();
      callback.search = input.query.toString();
      result = await authenticator.authenticate("google", strategyRequest(callback, input.cookieHeader), { throwOnError: true });
    } catch (thrown) {
      logger.warn(
        { reason: thrown instanceof Error ? thrown.message : thrown instanceof Response ? `response ${thrown.status}` : String(thrown) },
        "[auth] Google sign-in failed",
      );
    }
  }
  const cookies = [await flowCookie.serialize("", { maxAge: 0 })];
  if (!result) {
    if (!popup) return failed({ popup, redirectTo }, cookies);
    return { popupStatus: "error", cookies };
  }
  const { sessionCookie } = await completeSignIn({
    email: result.email,
    proof: "google",
    googleId: result.googleId,
    googleName: result.googleName,
    visitorId: await visitorIdOf(input.cookieHeader),
  });
  cookies.push(sessionCookie, await toastHeader(GOOGLE_WELCOME));
  if (!popup) return go(safeRedirect(redirectTo), cookies);
  return { popupStatus: "success", cookies };
}

async function failed(flow: Flow, cookies: string[] = []): Promise<Go> {
  return go(`/login?${new URLSearchParams({ redirectTo: flow.redirectTo })}`, [...cookies, await toastHeader(GOOGLE_FAILED)]);
}
