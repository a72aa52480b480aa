/**
 * A small local stand-in for the Stripe API, for the real `stripe` SDK pointed at it with
 * STRIPE_API_HOST/PORT/PROTOCOL: checkout sessions, customers and billing portal sessions.
 * It records what the app asked for, so tests can check the exact amounts sent.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export type FakeCheckoutSession = {
  id: string;
  object: "checkout.session";
  mode: string;
  url: string;
  status: "open" | "complete";
  payment_status: "unpaid" | "paid";
  created: number;
  customer: string | null;
  subscription: string | null;
  customer_email: string | null;
  customer_details: { email: string } | null;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
};

export type FakeStripe = {
  port: number;
  /** Form fields of each POST /v1/checkout/sessions, flat ("line_items[0][price_data][unit_amount]"). */
  checkoutRequests: Record<string, string>[];
  sessions: Map<string, FakeCheckoutSession>;
  customers: Map<string, { id: string; object: "customer"; email: string }>;
  portalRequests: Record<string, string>[];
  /** Make the next checkout creation fail with a Stripe error. */
  failNextCheckout: boolean;
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
  const fake = { checkoutRequests: [], sessions: new Map(), customers: new Map(), portalRequests: [], failNextCheckout: false } as unknown as FakeStripe;
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const fields = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString("utf8")));
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "Content-Type": "application/json", "Request-Id": `req_${++counter}` });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== "Bearer sk_test_fake") return send(401, { error: { type: "invalid_request_error", message: "Invalid API Key provided" } });
    const url = new URL(req.url ?? "/", "http://localhost");
    if (req.method === "POST" && url.pathname === "/v1/checkout/sessions") {
      fake.checkoutRequests.push(fields);
      if (fake.failNextCheckout) {
        fake.failNextCheckout = false;
        return send(400, { error: { type: "invalid_request_error", message: "Something is wrong with this request" } });
      }
      const id = `cs_test_${String(++counter).padStart(6, "0")}${Math.random().toString(36).slice(2, 10)}`;
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
      };
      fake.sessions.set(id, session);
      return send(200, session);
    }
    const sessionMatch = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(url.pathname);
    if (req.method === "GET" && sessionMatch) {
      const session = fake.sessions.get(sessionMatch[1]);
      return session ? send(200, session) : send(404, { error: { type: "invalid_request_error", message: "No such checkout session" } });
    }
    const customerMatch = /^\/v1\/customers\/([^/]+)$/.exec(url.pathname);
    if (req.method === "GET" && customerMatch) {
      const customer = fake.customers.get(customerMatch[1]);
      return customer ? send(200, customer) : send(404, { error: { type: "invalid_request_error", message: "No such customer" } });
    }
    if (req.method === "POST" && url.pathname === "/v1/billing_portal/sessions") {
      fake.portalRequests.push(fields);
      return send(200, { id: `bps_${++counter}`, object: "billing_portal.session", url: `https://billing.stripe.com/p/session/${counter}`, customer: fields.customer, return_url: fields.return_url });
    }
    send(404, { error: { type: "invalid_request_error", message: `Unrecognized request URL (${req.method}: ${url.pathname})` } });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.port = (server.address() as AddressInfo).port;
  fake.close = () => new Promise((resolve) => server.close(() => resolve()));
  return fake;
}
