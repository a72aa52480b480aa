/**
 * The Stripe client, when STRIPE_SECRET_KEY is set. STRIPE_API_HOST/PORT/PROTOCOL point the
 * real SDK at a local server in tests; in production they are refused by the env schema.
 */
import Stripe from "stripe";
import { env, type Env } from "~/utils/env.server";

// One client per configuration (tests switch Stripe on and off within one process: env.server.ts).
let client: { config: Env["stripe"]; stripe: Stripe | null } | undefined;

export function stripeClient(): Stripe | null {
  const config = env.stripe;
  if (client?.config === config) return client.stripe;
  const stripe = config
    ? new Stripe(config.secretKey, {
        ...(config.host ? { host: config.host } : {}),
        ...(config.port ? { port: config.port } : {}),
        ...(config.protocol ? { protocol: config.protocol } : {}),
        // Creating a checkout happens while a person waits on a button: fail fast and say so.
        maxNetworkRetries: 1,
        timeout: 15_000,
        telemetry: false,
        appInfo: { name: "Glow Coach" },
      })
    : null;
  client = { config, stripe };
  return stripe;
}

/**
 * The local test checkout and test portal (no real charge): only on a developer's machine
 * without a Stripe key. Production never has them (it needs a key or PAYMENTS=off).
 */
export function localTestPayments(): boolean {
  return !env.stripe && !env.isProduction;
}

/** Verifies a webhook's signature; throws Stripe's verification error on a bad one. */
export function verifyWebhook(payload: string, signature: string, secret: string): Stripe.Event {
  // Verification needs no API key; a client without one is enough when only webhooks are configured.
  const stripe = stripeClient() ?? new Stripe("sk_test_unused", { telemetry: false });
  return stripe.webhooks.constructEvent(payload, signature, secret);
}

export type { Stripe };
