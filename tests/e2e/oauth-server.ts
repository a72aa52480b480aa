/**
 * A real OpenID Connect server for end-to-end tests (oauth2-mock-server): the app's Google
 * sign-in discovers it through GOOGLE_ISSUER and runs its real code flow against it. It
 * approves every authorisation as one Google account.
 */
import { OAuth2Server } from "oauth2-mock-server";

export const GOOGLE_TEST_USER = { sub: "google-e2e-0001", email: "grace.google@glowcoach.test", name: "Grace Google" };

export async function startOAuthServer(port: number): Promise<{ stop(): Promise<void> }> {
  const server = new OAuth2Server();
  await server.issuer.keys.generate("RS256");
  server.service.on("beforeUserinfo", (userinfo) => {
    userinfo.body = { ...GOOGLE_TEST_USER, email_verified: true };
  });
  await server.start(port, "127.0.0.1");
  // It would advertise "localhost" endpoints; the app's GOOGLE_ISSUER (and so its CSP
  // form-action) names 127.0.0.1, as Google's own issuer and endpoints share one origin.
  server.issuer.url = `http://127.0.0.1:${port}`;
  return { stop: () => server.stop() };
}
