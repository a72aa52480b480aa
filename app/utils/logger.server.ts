/**
 * The app's log (pino). In production one JSON object a line, for a log collector; locally
 * readable lines (LOG_FORMAT overrides either). Info and debug go to stdout, warnings and
 * errors to stderr. Every line written while a request is handled carries its request id,
 * also sent back as the X-Request-Id header, so one visitor's problem can be followed.
 *
 * What is never logged: secrets, tokens, cookies, sign-in links and codes. Requests are
 * logged by path, without the query string (sign-in links, Stripe and preview secrets
 * travel there). A field named like a secret (token, link, cookie, authorization,
 * password, ...) at the top of a logged object or one level down, and the cookie and
 * authorization headers of a `headers` object up to one level down, are written as
 * "[redacted]". Message texts are not redacted: never put a secret in one.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import crypto from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import pino, { type DestinationStream, type Logger } from "pino";
import pretty from "pino-pretty";
import { env } from "./env.server";

const requestIds = new AsyncLocalStorage<string>();

/** Field names whose values are secrets, at the top of a logged object or one level down. */
const SECRET_FIELDS = ["password", "passwordHash", "secret", "sessionSecret", "token", "link", "cookie", "authorization", "apiKey", "secretKey"];
/** Headers that carry secrets, also inside a `headers` object one level down (`{ req: { headers } }`). */
const SECRET_HEADERS = ["cookie", "set-cookie", "authorization"];

/** What is written in place of a secret. */
export const REDACTED = "[redacted]";

const REDACT_PATHS = [
  ...SECRET_FIELDS.flatMap((field) => [field, `*.${field}`]),
  ...SECRET_HEADERS.flatMap((name) => [`headers["${name}"]`, `*.headers["${name}"]`]),
];

function stream(fd: 1 | 2): DestinationStream {
  if (env.log.format === "pretty") {
    const tty = fd === 1 ? process.stdout.isTTY : process.stderr.isTTY;
    // The request line already says what these fields hold.
    return pretty({ destination: fd, sync: true, colorize: tty, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname,reqId,method,path,status,durationMs" });
  }
  return pino.destination({ dest: fd, sync: true });
}

/**
 * A logger with the app's settings. It writes to stdout and stderr; `destination` (tests)
 * receives every line instead.
 */
export function createLogger(destination?: DestinationStream): Logger {
  return pino(
    {
      level: env.log.level,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACT_PATHS, censor: REDACTED },
      mixin: () => {
        const reqId = requestIds.getStore();
        return reqId ? { reqId } : {};
      },
    },
    destination ??
      pino.multistream(
        [
          { level: "trace", stream: stream(1) },
          { level: "warn", stream: stream(2) },
        ],
        { dedupe: true },
      ),
  );
}

// In development the module is re-evaluated on every change; keep one logger.
const globalForLog = globalThis as unknown as { __glowLogger?: Logger };
export const logger: Logger = globalForLog.__glowLogger ?? createLogger();
if (env.nodeEnv === "development") globalForLog.__glowLogger = logger;

/** Only a proxy we run may name the request (nginx's $request_id); otherwise a new id. */
function requestIdOf(req: IncomingMessage): string {
  const given = env.trustProxy ? req.headers["x-request-id"] : undefined;
  if (typeof given === "string" && /^[\w.:-]{1,128}$/.test(given)) return given;
  return crypto.randomUUID();
}

/** The path alone: query strings carry sign-in tokens and secrets. */
export function pathOf(url: string | undefined): string {
  const path = (url ?? "/").split("?")[0];
  return path.length > 512 ? `${path.slice(0, 512)}…` : path;
}

/**
 * Runs the rest of the request (`next`) with its request id, and logs one line when the
 * response is done (LOG_REQUESTS): method, path, status and duration in milliseconds.
 */
export function logRequest(req: IncomingMessage, res: ServerResponse, next: () => void): void {
  const reqId = requestIdOf(req);
  res.setHeader("X-Request-Id", reqId);
  if (env.log.requests) {
    const started = process.hrtime.bigint();
    res.once("close", () => {
      const durationMs = Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100;
      const path = pathOf(req.url);
      const fields = { reqId, method: req.method, path, status: res.statusCode, durationMs };
      const ended = res.writableFinished ? "" : " (the client left first)";
      logger[res.statusCode >= 500 ? "error" : "info"](fields, `${req.method} ${path} ${res.statusCode} ${durationMs} ms${ended}`);
    });
  }
  requestIds.run(reqId, next);
}
