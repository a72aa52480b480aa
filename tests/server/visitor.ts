/**
 * A person's HTTP client for the server tests, in place of a Playwright request context: its
 * own cookie jar and its own client address (X-Forwarded-For, the server trusts it), requests
 * sent with node:http exactly as written (no Origin, Sec-Fetch-* or other header a browser or
 * `fetch` would add), redirects followed unless `maxRedirects: 0`, gzip decoded.
 */
import crypto from "node:crypto";
import http from "node:http";
import zlib from "node:zlib";
import { seedMember, type Tier } from "../e2e/members-helpers";
import type { AppServer } from "./app-server";

export type Answer = {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The Set-Cookie headers, one a cookie. */
  setCookies: string[];
  /** The body as sent, gzip decoded. */
  body: Buffer;
  text: string;
  /** The address of the last request (after redirects). */
  url: string;
};

type Options = {
  method?: string;
  headers?: Record<string, string>;
  /** Sent as application/x-www-form-urlencoded. */
  form?: Record<string, string>;
  body?: string;
  /** 0: the redirect itself is the answer; otherwise up to 20 are followed, as Playwright does. */
  maxRedirects?: number;
};

/** A client address no other visitor uses. */
export const newIp = () => `10.${crypto.randomInt(256)}.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`;

export class Visitor {
  readonly cookies = new Map<string, string>();
  ip = newIp();

  constructor(readonly origin: string) {}

  /** A client address of its own from now on (the per-address limits count afresh). */
  useOwnIp(): string {
    this.ip = newIp();
    return this.ip;
  }

  get(path: string, options: Omit<Options, "method" | "form" | "body"> = {}): Promise<Answer> {
    return this.fetch(path, { ...options, method: "GET" });
  }

  post(path: string, options: Omit<Options, "method"> = {}): Promise<Answer> {
    return this.fetch(path, { ...options, method: "POST" });
  }

  async fetch(path: string, { method = "GET", headers = {}, form, body, maxRedirects = 20 }: Options = {}): Promise<Answer> {
    let url = new URL(path, this.origin);
    let answer = await this.send(url, method, headers, form ? new URLSearchParams(form).toString() : body, !!form);
    for (let hop = 0; hop < maxRedirects && answer.status >= 300 && answer.status < 400 && answer.headers.location; hop++) {
      url = new URL(answer.headers.location, url);
      // A redirect after a POST is followed with a GET, as browsers and Playwright do.
      answer = await this.send(url, "GET", headers, undefined, false);
    }
    return answer;
  }

  private send(url: URL, method: string, headers: Record<string, string>, body: string | undefined, isForm: boolean): Promise<Answer> {
    const jar = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const all: Record<string, string> = {
      "X-Forwarded-For": this.ip,
      ...(jar && url.origin === this.origin ? { Cookie: jar } : {}),
      ...(isForm ? { "Content-Type": "application/x-www-form-urlencoded" } : {}),
      ...(body !== undefined ? { "Content-Length": String(Buffer.byteLength(body)) } : {}),
      ...headers,
    };
    return new Promise((resolve, reject) => {
      const request = http.request(url, { method, headers: all, agent: false }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const raw = Buffer.concat(chunks);
          const body = response.headers["content-encoding"] === "gzip" ? zlib.gunzipSync(raw) : raw;
          const setCookies = response.headers["set-cookie"] ?? [];
          if (url.origin === this.origin) this.store(setCookies);
          resolve({ status: response.statusCode ?? 0, headers: response.headers, setCookies, body, text: body.toString("utf8"), url: url.href });
        });
      });
      request.on("error", reject);
      request.end(body);
    });
  }

  /** Keeps what Set-Cookie sets; a cookie set to expire is dropped. */
  private store(setCookies: string[]) {
    for (const line of setCookies) {
      const [pair, ...attributes] = line.split(";").map((part) => part.trim());
      const at = pair.indexOf("=");
      const name = pair.slice(0, at);
      const expired = attributes.some((attribute) => {
        const [key, value = ""] = attribute.split("=");
        if (key.toLowerCase() === "max-age") return Number(value) <= 0;
        if (key.toLowerCase() === "expires") return Date.parse(value) <= Date.now();
        return false;
      });
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(at + 1));
    }
  }

  /** Whether this visitor is signed in (the endpoint the Google popup's opener asks). */
  async isSignedIn(): Promise<boolean> {
    return (JSON.parse((await this.get("/auth/status")).text) as { signedIn: boolean }).signedIn;
  }
}

/** A verified member with a full session held by `visitor` (members-helpers.ts' seedMember, in the server's database). */
export async function signInMember(
  visitor: Visitor,
  server: AppServer,
  { subscription, role = "user" }: { subscription?: Tier; role?: "user" | "admin" } = {},
): Promise<{ email: string; userId: string }> {
  const email = `member-${crypto.randomBytes(4).toString("hex")}@glowcoach.test`;
  const { userId, cookie } = await seedMember({ email, subscription, role, dataDir: server.dataDir, sessionSecret: server.sessionSecret });
  visitor.cookies.set("gc_session", cookie);
  return { email, userId };
}
