/**
 * A small local stand-in for the Stripe API, for the real `stripe` SDK pointed at it with
 * STRIPE_API_HOST/PORT/PROTOCOL: checkout sessions, customers, subscriptions (as a test
 * sets them up; updated and cancelled by the app), products and prices, billing portal
 * configurations and sessions, invoice payments, refunds (idempotent by key, as Stripe's) and
 * invoice previews of a plan switch (prorated by time, as Stripe does). It records what the
 * app asked for, so tests can check the exact amounts sent.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export type FakeCheckoutSession = {
  id: string;
  object: "checkout.session";
  mode: string;
  url: string;
  status: "open" | "complete" | "expired";
  payment_status: "unpaid" | "paid";
  created: number;
  /** When it expires (24 hours after creation unless the app set `expires_at`, 30 minutes to 24 hours). */
  expires_at: number;
  /** `after_expiration[recovery][enabled]` as created; the recovery link once it expired (expire()). */
  after_expiration: { recovery: { enabled: boolean; allow_promotion_codes: boolean; url: string | null; expires_at: number | null } } | null;
  /** A session opened from an expired one's recovery link (recover()): that one's id. */
  recovered_from: string | null;
  customer: string | null;
  subscription: string | null;
  customer_email: string | null;
  customer_details: { email: string } | null;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
  /** A paid subscription checkout's first invoice (the test sets it, with invoicePayments). */
  invoice?: string | null;
  /** A paid payment-mode checkout's PaymentIntent (the test sets it, with paymentIntents); expandable. */
  payment_intent?: string | null;
};

export type FakePaymentIntent = {
  id: string;
  object: "payment_intent";
  amount: number;
  currency: string;
  customer: string | null;
  payment_method: string | null;
  status: "succeeded" | "requires_payment_method";
  metadata: Record<string, string>;
};

type FakeSubscription = {
  id: string;
  object: "subscription";
  customer: string;
  status?: string;
  items: {
    object: "list";
    data: { id: string; price: Record<string, unknown>; current_period_start?: number; current_period_end?: number }[];
  };
};

export type FakeStripe = {
  port: number;
  /** Form fields of each POST /v1/checkout/sessions, flat ("line_items[0][price_data][unit_amount]"). */
  checkoutRequests: Record<string, string>[];
  sessions: Map<string, FakeCheckoutSession>;
  customers: Map<string, { id: string; object: "customer"; email: string }>;
  portalRequests: Record<string, string>[];
  /** Subscriptions the test has "created" at Stripe (retrieved by the app for a plan switch). */
  subscriptions: Map<string, FakeSubscription>;
  /** Invoice id → the PaymentIntent that paid it (GET /v1/invoice_payments). */
  invoicePayments: Map<string, string>;
  /** Each POST /v1/refunds: its fields and Idempotency-Key. */
  refundRequests: { fields: Record<string, string>; idempotencyKey: string | null }[];
  /** Refunds made, by id (one per idempotency key). */
  refunds: Map<string, { id: string; object: "refund"; payment_intent: string; amount: number; status: "succeeded"; metadata: Record<string, string> }>;
  /** Subscriptions the app cancelled (DELETE /v1/subscriptions/:id), with the fields sent. */
  cancelledSubscriptions: { id: string; fields: Record<string, string> }[];
  /** Each POST /v1/invoices/create_preview and POST /v1/subscriptions/:id (a switch), flat fields. */
  previewRequests: Record<string, string>[];
  subscriptionUpdates: { id: string; fields: Record<string, string> }[];
  /** Make the next refund fail with a Stripe error. */
  failNextRefund: boolean;
  products: Map<string, { id: string; object: "product"; name: string; metadata: Record<string, string> }>;
  prices: Map<
    string,
    {
      id: string;
      object: "price";
      product: string;
      unit_amount: number;
      currency: string;
      lookup_key: string | null;
      active: boolean;
      recurring: { interval: string } | null;
      metadata: Record<string, string>;
    }
  >;
  portalConfigurations: Map<
    string,
    { id: string; object: "billing_portal.configuration"; active: boolean; metadata: Record<string, string>; fields: Record<string, string> }
  >;
  /** Make the next checkout creation fail with a Stripe error. */
  failNextCheckout: boolean;
  /** PaymentIntents by id: a checkout's (set by the test) and those the app created. */
  paymentIntents: Map<string, FakePaymentIntent>;
  /** Each POST /v1/payment_intents: its fields and Idempotency-Key. */
  paymentIntentRequests: { fields: Record<string, string>; idempotencyKey: string | null }[];
  /** Saved cards whose off-session charges the bank wants authenticated (Stripe's authentication_required). */
  cardsNeedingAuthentication: Set<string>;
  /**
   * Expires an open session as Stripe does at its `expires_at`: with recovery enabled, it gets a
   * recovery link (valid 30 days). Answers the session, the `checkout.session.expired` event's object.
   */
  expire(id: string): FakeCheckoutSession;
  /** Opens a recovery link, as the buyer's click does: a new open session copying the expired one (`recovered_from`). */
  recover(url: string): FakeCheckoutSession;
  close(): Promise<void>;
};

function metadataOf(fields: Record<string, string>, prefix = "metadata"): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const [key, value] of Object.entries(fields)) {
    const match = new RegExp(`^${prefix.replace(/[[\]]/g, "\\$&")}\\[([^\\]]+)\\]$`).exec(key);
    if (match) metadata[match[1]] = value;
  }
  return metadata;
}

export async function startFakeStripe(): Promise<FakeStripe> {
  let counter = 0;
  const fake = {
    checkoutRequests: [],
    sessions: new Map(),
    customers: new Map(),
    portalRequests: [],
    subscriptions: new Map(),
    products: new Map(),
    prices: new Map(),
    portalConfigurations: new Map(),
    failNextCheckout: false,
    invoicePayments: new Map(),
    refundRequests: [],
    refunds: new Map(),
    cancelledSubscriptions: [],
    previewRequests: [],
    subscriptionUpdates: [],
    failNextRefund: false,
    paymentIntents: new Map(),
    paymentIntentRequests: [],
    cardsNeedingAuthentication: new Set(),
  } as unknown as FakeStripe;
  const refundsByKey = new Map<string, string>();
  // Stripe answers a repeated Idempotency-Key with the first answer (status and body).
  const answersByKey = new Map<string, { status: number; body: unknown }>();
  const DAY = 86_400;
  const periodSeconds = (interval: unknown) => (interval === "year" ? 365 * DAY : 30 * DAY);
  const notFound = (what: string) => ({ error: { type: "invalid_request_error", code: "resource_missing", message: `No such ${what}` } });
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const fields = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString("utf8")));
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "Content-Type": "application/json", "Request-Id": `req_${++counter}` });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== "Bearer sk_test_fake")
      return send(401, { error: { type: "invalid_request_error", message: "Invalid API Key provided" } });
    const url = new URL(req.url ?? "/", "http://localhost");
    const idempotencyKey = typeof req.headers["idempotency-key"] === "string" ? req.headers["idempotency-key"] : null;
    const keyed = idempotencyKey ? answersByKey.get(`${url.pathname}:${idempotencyKey}`) : undefined;
    const sendOnce = (status: number, body: unknown) => {
      if (idempotencyKey) answersByKey.set(`${url.pathname}:${idempotencyKey}`, { status, body });
      send(status, body);
    };
    if (req.method === "POST" && url.pathname === "/v1/payment_intents") {
      fake.paymentIntentRequests.push({ fields, idempotencyKey });
      if (keyed) return send(keyed.status, keyed.body);
      const intent: FakePaymentIntent = {
        id: `pi_${String(++counter).padStart(6, "0")}${Math.random().toString(36).slice(2, 10)}`,
        object: "payment_intent",
        amount: Number(fields.amount),
        currency: fields.currency,
        customer: fields.customer ?? null,
        payment_method: fields.payment_method ?? null,
        status: "succeeded",
        metadata: metadataOf(fields),
      };
      if (fields.off_session === "true" && fake.cardsNeedingAuthentication.has(intent.payment_method ?? "")) {
        intent.status = "requires_payment_method";
        fake.paymentIntents.set(intent.id, intent);
        return sendOnce(402, {
          error: {
            type: "card_error",
            code: "authentication_required",
            decline_code: "authentication_required",
            message: "This payment required an authentication action to complete, but `error_on_requires_action` was set.",
            payment_intent: intent,
          },
        });
      }
      fake.paymentIntents.set(intent.id, intent);
      return sendOnce(200, intent);
    }
    if (req.method === "POST" && url.pathname === "/v1/checkout/sessions") {
      fake.checkoutRequests.push(fields);
      if (keyed) return send(keyed.status, keyed.body);
      if (fake.failNextCheckout) {
        fake.failNextCheckout = false;
        return send(400, { error: { type: "invalid_request_error", message: "Something is wrong with this request" } });
      }
      const id = `cs_test_${String(++counter).padStart(6, "0")}${Math.random().toString(36).slice(2, 10)}`;
      const created = Math.floor(Date.now() / 1000);
      // Stripe refuses an expiry outside 30 minutes to 24 hours after creation.
      const expiresAt = fields.expires_at === undefined ? created + DAY : Number(fields.expires_at);
      if (!Number.isInteger(expiresAt) || expiresAt < created + 30 * 60 || expiresAt > created + DAY)
        return send(400, {
          error: {
            type: "invalid_request_error",
            param: "expires_at",
            message: "The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.",
          },
        });
      const recovery = fields["after_expiration[recovery][enabled]"] === "true";
      const session: FakeCheckoutSession = {
        id,
        object: "checkout.session",
        mode: fields.mode,
        url: `https://checkout.stripe.com/c/pay/${id}`,
        status: "open",
        payment_status: "unpaid",
        created: Math.floor(Date.now() / 1000),
        customer: null,
        subscription: null,
        customer_email: fields.customer_email ?? null,
        customer_details: null,
        metadata: metadataOf(fields),
        success_url: fields.success_url,
        cancel_url: fields.cancel_url,
        expires_at: expiresAt,
        after_expiration: recovery
          ? {
              recovery: {
                enabled: true,
                allow_promotion_codes: fields["after_expiration[recovery][allow_promotion_codes]"] === "true",
                url: null,
                expires_at: null,
              },
            }
          : null,
        recovered_from: null,
      };
      fake.sessions.set(id, session);
      return sendOnce(200, session);
    }
    const sessionMatch = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(url.pathname);
    if (req.method === "GET" && sessionMatch) {
      const session = fake.sessions.get(sessionMatch[1]);
      if (!session) return send(404, { error: { type: "invalid_request_error", message: "No such checkout session" } });
      // expand[]=payment_intent / subscription: the objects instead of their ids.
      const expand = url.searchParams.getAll("expand[]").concat(url.searchParams.getAll("expand[0]"), url.searchParams.getAll("expand[1]"));
      const expanded: Record<string, unknown> = { ...session };
      if (expand.includes("payment_intent") && session.payment_intent)
        expanded.payment_intent = fake.paymentIntents.get(session.payment_intent) ?? session.payment_intent;
      if (expand.includes("subscription") && session.subscription) expanded.subscription = fake.subscriptions.get(session.subscription) ?? session.subscription;
      return send(200, expanded);
    }
    const customerMatch = /^\/v1\/customers\/([^/]+)$/.exec(url.pathname);
    if (req.method === "GET" && customerMatch) {
      const customer = fake.customers.get(customerMatch[1]);
      return customer ? send(200, customer) : send(404, { error: { type: "invalid_request_error", message: "No such customer" } });
    }
    const subscriptionMatch = /^\/v1\/subscriptions\/([^/]+)$/.exec(url.pathname);
    if (req.method === "GET" && subscriptionMatch) {
      const subscription = fake.subscriptions.get(subscriptionMatch[1]);
      return subscription ? send(200, subscription) : send(404, notFound("subscription"));
    }
    if (req.method === "DELETE" && subscriptionMatch) {
      const subscription = fake.subscriptions.get(subscriptionMatch[1]);
      if (!subscription) return send(404, notFound("subscription"));
      const query = Object.fromEntries(url.searchParams);
      fake.cancelledSubscriptions.push({ id: subscription.id, fields: { ...query, ...fields } });
      subscription.status = "canceled";
      return send(200, subscription);
    }
    if (req.method === "POST" && subscriptionMatch) {
      // A plan switch: the item moves to the new price and, the interval changing, a new period starts now.
      const subscription = fake.subscriptions.get(subscriptionMatch[1]);
      if (!subscription) return send(404, notFound("subscription"));
      fake.subscriptionUpdates.push({ id: subscription.id, fields });
      const price = fake.prices.get(fields["items[0][price]"]);
      const item = subscription.items.data.find((i) => i.id === fields["items[0][id]"]);
      if (!price || !item) return send(400, { error: { type: "invalid_request_error", message: "No such price or item" } });
      const start = Math.floor(Date.now() / 1000);
      Object.assign(item, { price, current_period_start: start, current_period_end: start + periodSeconds(price.recurring?.interval) });
      return send(200, subscription);
    }
    if (req.method === "POST" && url.pathname === "/v1/invoices/create_preview") {
      fake.previewRequests.push(fields);
      const subscription = fake.subscriptions.get(fields.subscription);
      const item = subscription?.items.data.find((i) => i.id === fields["subscription_details[items][0][id]"]);
      const next = fake.prices.get(fields["subscription_details[items][0][price]"]);
      if (!subscription || !item || !next) return send(400, { error: { type: "invalid_request_error", message: "No such subscription, item or price" } });
      const paid = Number(item.price.unit_amount);
      const end = item.current_period_end ?? 0;
      const start = item.current_period_start ?? end - periodSeconds((item.price.recurring as { interval?: string } | undefined)?.interval);
      const at = Number(fields["subscription_details[proration_date]"] ?? Math.floor(Date.now() / 1000));
      const credit = Math.round((paid * Math.max(0, end - at)) / Math.max(1, end - start));
      const lines = [
        { object: "line_item", amount: -credit, currency: next.currency, description: "Unused time on the current plan" },
        { object: "line_item", amount: next.unit_amount, currency: next.currency, description: "The new plan" },
      ];
      const total = next.unit_amount - credit;
      return send(200, {
        object: "invoice",
        customer: fields.customer,
        currency: next.currency,
        total,
        amount_due: Math.max(0, total),
        lines: { object: "list", data: lines, has_more: false, url: "/v1/invoices/upcoming/lines" },
      });
    }
    if (req.method === "GET" && url.pathname === "/v1/invoice_payments") {
      const invoice = url.searchParams.get("invoice") ?? "";
      const intent = fake.invoicePayments.get(invoice);
      const data = intent
        ? [
            {
              id: `inpay_${invoice}`,
              object: "invoice_payment",
              invoice,
              status: "paid",
              is_default: true,
              payment: { type: "payment_intent", payment_intent: intent },
            },
          ]
        : [];
      return send(200, { object: "list", data, has_more: false, url: "/v1/invoice_payments" });
    }
    if (req.method === "POST" && url.pathname === "/v1/refunds") {
      const idempotencyKey = (req.headers["idempotency-key"] as string | undefined) ?? null;
      fake.refundRequests.push({ fields, idempotencyKey });
      if (fake.failNextRefund) {
        fake.failNextRefund = false;
        return send(400, { error: { type: "invalid_request_error", message: "This charge cannot be refunded" } });
      }
      const again = idempotencyKey ? refundsByKey.get(idempotencyKey) : undefined;
      if (again) return send(200, fake.refunds.get(again));
      const refund = {
        id: `re_${++counter}`,
        object: "refund" as const,
        payment_intent: fields.payment_intent,
        amount: Number(fields.amount),
        status: "succeeded" as const,
        metadata: metadataOf(fields),
      };
      fake.refunds.set(refund.id, refund);
      if (idempotencyKey) refundsByKey.set(idempotencyKey, refund.id);
      return send(200, refund);
    }
    const productMatch = /^\/v1\/products\/([^/]+)$/.exec(url.pathname);
    if (req.method === "GET" && productMatch) {
      const product = fake.products.get(productMatch[1]);
      return product ? send(200, product) : send(404, notFound("product"));
    }
    if (req.method === "POST" && url.pathname === "/v1/products") {
      if (fake.products.has(fields.id)) return send(400, { error: { type: "invalid_request_error", message: "Product already exists." } });
      const product = { id: fields.id ?? `prod_${++counter}`, object: "product" as const, name: fields.name, metadata: metadataOf(fields) };
      fake.products.set(product.id, product);
      return send(200, product);
    }
    if (req.method === "GET" && url.pathname === "/v1/prices") {
      const keys = [...url.searchParams.entries()].filter(([k]) => k.startsWith("lookup_keys")).map(([, v]) => v);
      const data = [...fake.prices.values()].filter((p) => p.active && (!keys.length || (p.lookup_key !== null && keys.includes(p.lookup_key))));
      return send(200, { object: "list", data, has_more: false, url: "/v1/prices" });
    }
    if (req.method === "POST" && url.pathname === "/v1/prices") {
      const price = {
        id: `price_${++counter}`,
        object: "price" as const,
        product: fields.product,
        unit_amount: Number(fields.unit_amount),
        currency: fields.currency,
        lookup_key: fields.lookup_key ?? null,
        active: true,
        recurring: fields["recurring[interval]"] ? { interval: fields["recurring[interval]"] } : null,
        metadata: metadataOf(fields),
      };
      if (!fake.products.has(price.product)) return send(400, { error: { type: "invalid_request_error", message: `No such product: '${price.product}'` } });
      fake.prices.set(price.id, price);
      return send(200, price);
    }
    if (req.method === "GET" && url.pathname === "/v1/billing_portal/configurations") {
      return send(200, { object: "list", data: [...fake.portalConfigurations.values()], has_more: false, url: "/v1/billing_portal/configurations" });
    }
    if (req.method === "POST" && url.pathname === "/v1/billing_portal/configurations") {
      const configuration = { id: `bpc_${++counter}`, object: "billing_portal.configuration" as const, active: true, metadata: metadataOf(fields), fields };
      fake.portalConfigurations.set(configuration.id, configuration);
      return send(200, configuration);
    }
    if (req.method === "POST" && url.pathname === "/v1/billing_portal/sessions") {
      fake.portalRequests.push(fields);
      return send(200, {
        id: `bps_${++counter}`,
        object: "billing_portal.session",
        url: `https://billing.stripe.com/p/session/${counter}`,
        customer: fields.customer,
        return_url: fields.return_url,
      });
    }
    send(404, { error: { type: "invalid_request_error", message: `Unrecognized request URL (${req.method}: ${url.pathname})` } });
  });
  const recoveryLinks = new Map<string, string>();
  fake.expire = (id) => {
    const session = fake.sessions.get(id);
    if (!session || session.status !== "open") throw new Error(`no open checkout session ${id}`);
    session.status = "expired";
    if (session.after_expiration?.recovery.enabled) {
      const url = `https://buy.stripe.com/r/live_${Math.random().toString(36).slice(2, 14)}`;
      Object.assign(session.after_expiration.recovery, { url, expires_at: Math.floor(Date.now() / 1000) + 30 * DAY });
      recoveryLinks.set(url, id);
    }
    return structuredClone(session);
  };
  fake.recover = (url) => {
    const expired = fake.sessions.get(recoveryLinks.get(url) ?? "");
    if (!expired) throw new Error(`no recovery link ${url}`);
    const id = `cs_test_${String(++counter).padStart(6, "0")}${Math.random().toString(36).slice(2, 10)}`;
    const created = Math.floor(Date.now() / 1000);
    const copy: FakeCheckoutSession = {
      ...structuredClone(expired),
      id,
      url: `https://checkout.stripe.com/c/pay/${id}`,
      status: "open",
      created,
      expires_at: created + DAY,
      after_expiration: null,
      recovered_from: expired.id,
    };
    fake.sessions.set(id, copy);
    return copy;
  };
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.port = (server.address() as AddressInfo).port;
  fake.close = () => new Promise((resolve) => server.close(() => resolve()));
  return fake;
}

/**
 * Starts the fake and points the app's Stripe settings at it (secret key, webhook secret, API
 * host), in process.env and in the app's parsed `env` (reloadEnv), so a file sharing modules
 * with others can use it. Its close() stops the fake and switches Stripe off again.
 */
export async function startFakeStripeForApp(webhookSecret: string): Promise<FakeStripe> {
  const fake = await startFakeStripe();
  const settings: Record<string, string> = {
    STRIPE_SECRET_KEY: "sk_test_fake",
    STRIPE_WEBHOOK_SECRET: webhookSecret,
    STRIPE_API_HOST: "127.0.0.1",
    STRIPE_API_PORT: String(fake.port),
    STRIPE_API_PROTOCOL: "http",
  };
  const before = Object.fromEntries(Object.keys(settings).map((key) => [key, process.env[key]]));
  const { reloadEnv } = await import("~/utils/env.server");
  Object.assign(process.env, settings);
  reloadEnv();
  const stop = fake.close;
  fake.close = async () => {
    await stop();
    for (const [key, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    reloadEnv();
  };
  return fake;
}
