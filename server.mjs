// The HTTP server: Express in front of the Remix request handler.
// Production: serves build/ (run `npm run build` first, or use `npm start`).
// Development (NODE_ENV=development): Vite dev middleware with hot reload.
import { createRequestHandler } from "@remix-run/express";
import cluster from "node:cluster";
import compression from "compression";
import express from "express";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { exitOnRuntimeProblem } from "./scripts/runtime-check.mjs";

const development = process.env.NODE_ENV === "development";

// An unsupported Node.js, or a database driver built for another one, stops start-up here.
exitOnRuntimeProblem();

const vite = development ? await import("vite").then((v) => v.createServer({ server: { middlewareMode: true }, appType: "custom" })) : undefined;

/** The server build: loaded now in production, so bad configuration stops start-up here. */
async function loadBuild() {
  if (vite) return vite.ssrLoadModule("virtual:remix/server-build");
  return import("./build/server/index.js");
}

let build;
try {
  build = await loadBuild();
} catch (error) {
  if (error?.name === "EnvError") {
    console.error(`\n${error.message}\n\nSee "Configuration" in README.md.`);
    process.exit(1);
  }
  throw error;
}
const { env, logger } = build.entry.module;

const app = express();
app.disable("x-powered-by");
app.use(compression());

// nosniff, referrer policy, no framing, HSTS in production: on files and pages alike.
const securityHeaders = build.entry.module.staticSecurityHeaders();
app.use((_req, res, next) => {
  for (const [name, value] of Object.entries(securityHeaders)) res.setHeader(name, value);
  next();
});

if (vite) {
  app.use(vite.middlewares);
} else {
  const files = express.static("build/client", {
    index: false,
    setHeaders(res, filePath) {
      // Fingerprinted build assets never change; the rest of public/ may.
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      res.setHeader("Cache-Control", immutable ? "public, max-age=31536000, immutable" : "public, max-age=3600");
    },
  });
  // The files there are fixed once built: listed once at start, so a page request goes
  // straight to the app instead of asking the disk for a file first (a stat per request).
  const fileNames = new Set(
    fs
      .readdirSync("build/client", { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => `/${path.relative("build/client", path.join(entry.parentPath, entry.name)).split(path.sep).join("/")}`),
  );
  // A path with broken %-encoding is no file; let the app answer it (the funnel
  // routes send a bad step back to the funnel's start) instead of a bare 400.
  // Scripts and stylesheets gzipped at build time (vite.config.ts, gzipAssets): sent as they are
  // to a browser that takes gzip; compression() leaves a response already encoded alone.
  const gzipped = new Set([...fileNames].filter((name) => fileNames.has(`${name}.gz`)));
  app.use((req, res, next) => {
    let filePath;
    try {
      filePath = decodeURIComponent(req.path);
    } catch {
      return next();
    }
    if (!fileNames.has(filePath)) return next();
    if (gzipped.has(filePath) && /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""))) {
      res.setHeader("Content-Encoding", "gzip");
      res.setHeader("Vary", "Accept-Encoding");
      res.type(path.extname(filePath));
      req.url = `${filePath}.gz`;
    }
    return files(req, res, next);
  });
}

if (env.testClock && !vite) {
  // Tests only (refused in production): a request may run at another time, see clock.server.ts.
  app.use((req, _res, next) => build.entry.module.withRequestClock(req.headers["x-test-clock-offset-ms"], next));
}

// Every form and endpoint that changes something is rate-limited (429 page when over).
app.use((req, res, next) => build.entry.module.limitRequests(req, res, next).catch(next));

// Preview (a signed cookie from /preview) shows Sanity drafts for the rest of this request,
// and lets the Studio that opened it frame the page (its preview pane).
app.use(async (req, res, next) => {
  const current = vite ? await vite.ssrLoadModule("virtual:remix/server-build") : build;
  current.entry.module.withContentPreview(req.headers.cookie, res, next);
});

// app.use, not app.all("*"): a wildcard route would decode the path and refuse broken %-encoding.
app.use(
  createRequestHandler({
    build: vite ? () => vite.ssrLoadModule("virtual:remix/server-build") : build,
    mode: development ? "development" : "production",
    getLoadContext: async (req, res) => {
      const current = vite ? await vite.ssrLoadModule("virtual:remix/server-build") : build;
      return current.entry.module.getLoadContext(req, res);
    },
  }),
);

// Last resort: never show a stack trace to the browser.
app.use((error, req, res, _next) => {
  logger.error({ err: error }, `[server] ${req.method} ${build.entry.module.pathOf(req.originalUrl)}`);
  if (res.headersSent) return res.end();
  const status = error?.status >= 400 && error?.status < 500 ? error.status : 500;
  res
    .status(status)
    .type("text/plain")
    .send(status === 500 ? "Unexpected Application Error!" : "Bad request.");
});

let draining = false;

const server = http.createServer((req, res) => {
  // While draining, every answer ends its connection, so keep-alive clients move on.
  if (draining) res.setHeader("Connection", "close");
  // /healthz and /readyz first: never rate-limited, logged or given cookies.
  if (build.entry.module.serveHealthCheck(req, res)) return;
  // Every other request gets a request id and one log line (app/utils/logger.server.ts).
  build.entry.module.logRequest(req, res, () => {
    // The gate every request passes first: GET, HEAD and POST only, an address Remix can read
    // (its path judged here once, as the router will match it; the limits and the stored pages
    // use that judgement), and a POST only from our own pages (signed endpoints excepted).
    // The rules live in app/security/request-guard.server.ts.
    if (build.entry.module.refuseRequest(req, res)) return;
    if (vite) return app(req, res);
    // Pages kept from an earlier render are answered here, before Express and Remix, when they
    // are still what a render would send: funnel steps for the same view, and per-person pages
    // for the same request while nothing they show changed (app/render/stored-pages.server.ts).
    // Everything else goes through Express and Remix, which may keep the page it renders.
    void build.entry.module.serveStoredPage(req, res, () => app(req, res));
  });
});
// A deep accept queue: Node's default (511) makes a burst of new connections past it wait for
// the kernel's one-second SYN retry (the routine benchmark's 1,000 at once). The kernel caps
// it at net.core.somaxconn.
// A worker of several (WEB_CONCURRENCY, scripts/serve.mjs) opens a socket of its own on the
// port, and Linux spreads new connections across them (SO_REUSEPORT): no process hands
// connections over, and none takes more than its share.
const ownSocket = cluster.isWorker && process.platform === "linux" && !process.env.NODE_CLUSTER_SCHED_POLICY ? { reusePort: true, exclusive: true } : {};
server.listen({ port: env.port, host: env.host, backlog: 4096, ...ownSocket }, () => {
  logger.info(
    `Glow Coach is listening on http://${env.host}:${env.port} (${development ? "development" : "production build"}${env.isProduction ? "" : ", embedded defaults"})`,
  );
  // The supervisor (scripts/serve.mjs) counts a worker as started from here.
  if (cluster.isWorker) process.send?.({ glowServer: "listening" });
  void build.entry.module.reportReadiness();
});

// Published content changes reach this instance through the database (ADR 16).
build.entry.module.watchContentVersion();
// Expired sessions, sign-in links and rate-limit hits are deleted hourly (app/operations/pruning.server.ts).
const stopPruning = build.entry.module.startPruning();
// Daily reminder e-mails due are claimed and sent every minute, on every instance (app/reminders/reminders.server.ts).
const stopReminders = build.entry.module.startReminders();
// Recovery e-mails due (ADR 44) are claimed and sent the same way (app/recovery/leads.server.ts).
const stopRecovery = build.entry.module.startRecovery();
// Meta Conversions API events not yet sent are retried every minute (app/analytics/conversions-api.server.ts).
const stopConversionsApi = build.entry.module.startConversionsApi();

/**
 * Graceful drain: stops taking connections, lets requests under way finish (their answers
 * close the connection; 10 s at most), closes the database, then exits with the worst code
 * asked for (a fatal error while stopping still exits 1).
 */
const DRAIN_TIMEOUT_MS = 10_000;
function shutdown(code) {
  process.exitCode = Math.max(Number(process.exitCode ?? 0), code);
  if (draining) return;
  draining = true;
  stopPruning();
  stopReminders();
  stopRecovery();
  stopConversionsApi();
  build.entry.module.stopWatchingContentVersion();
  // Queued analytics events are written before the database closes (app/analytics/event-batch.server.ts).
  server.close(() =>
    build.entry.module
      .flushEvents()
      .then(() => build.entry.module.closeDatabase())
      .finally(() => process.exit()),
  );
  server.closeIdleConnections();
  setTimeout(() => {
    logger.error(`[server] requests still running after ${DRAIN_TIMEOUT_MS / 1000} s: exiting`);
    process.exitCode = 1;
    process.exit();
  }, DRAIN_TIMEOUT_MS).unref();
}
process.on("SIGTERM", () => shutdown(0));
process.on("SIGINT", () => shutdown(0));
// A programming error leaves the process in an unknown state: log it and stop cleanly, so
// the process manager starts a fresh one.
process.on("uncaughtException", (error) => {
  logger.fatal({ err: error }, "[server] uncaught exception: stopping");
  shutdown(1);
});
process.on("unhandledRejection", (reason) => {
  logger.fatal({ err: reason }, "[server] unhandled promise rejection: stopping");
  shutdown(1);
});
