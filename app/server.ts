/**
 * The HTTP server: one request path, the same under `npm run dev` and `npm start`
 * (docs/decisions/0040-one-typed-server-entry.md):
 *
 *   health check → request log → gate → stored page → Express (files, limits, preview) → Remix
 *
 * Built with the app: the server build (build/server/index.js) is this module, with the Remix
 * build inside it (vite.config.ts, serverEntry). In development server.mjs loads it through
 * Vite's dev server instead and passes `dev`: Vite's middleware serves the browser's modules
 * and every request renders with the newest route code.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import cluster from "node:cluster";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import * as productionBuild from "virtual:remix/server-build";
import { startConversionsApi } from "~/analytics/conversions-api.server";
import { flushEvents } from "~/analytics/event-batch.server";
import { stopWatchingContentVersion, watchContentVersion } from "~/content/content-version.server";
import { withContentPreview } from "~/content/preview.server";
import { getLoadContext, limitRequests } from "~/load-context.server";
import { reportReadiness, serveHealthCheck } from "~/operations/health.server";
import { startPruning } from "~/operations/pruning.server";
import { startReminders } from "~/reminders/reminders.server";
import { startRecovery } from "~/recovery/leads.server";
import { serveRecoveryOpen } from "~/recovery/opens.server";
import { forgetPages, serveCachedPage } from "~/funnels/page-cache.server";
import { forgetStoredPages, serveStoredPage } from "~/render/stored-pages.server";
import { staticSecurityHeaders } from "~/security/headers.server";
import { refuseRequest } from "~/security/request-guard.server";
import { withRequestClock } from "~/utils/clock.server";
import { env } from "~/utils/env.server";
import { logger, logRequest, pathOf } from "~/utils/logger.server";
import { closeDatabase } from "~/utils/sql.server";

/** What development adds: Vite's middleware, the newest route code per request, and word of a code change. */
export type DevServer = {
  middlewares: express.RequestHandler;
  loadBuild: () => Promise<ServerBuild>;
  onCodeChange: (listener: () => void) => void;
};

/** Requests under way get this long to finish when the server is told to stop. */
const DRAIN_TIMEOUT_MS = 10_000;

/** Files of the client build, answered before the app; in development Vite's middleware serves them. */
function clientFiles(): express.RequestHandler {
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
  // Scripts and stylesheets gzipped at build time (vite.config.ts, gzipAssets): sent as they are
  // to a browser that takes gzip; compression() leaves a response already encoded alone.
  const gzipped = new Set([...fileNames].filter((name) => fileNames.has(`${name}.gz`)));
  return (req, res, next) => {
    let filePath: string;
    try {
      filePath = decodeURIComponent(req.path);
    } catch {
      // A path with broken %-encoding is no file; let the app answer it (the funnel
      // routes send a bad step back to the funnel's start) instead of a bare 400.
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
  };
}

/** Express and Remix: the full path, for every request no stored page answers. */
function fullPath(dev: DevServer | undefined) {
  const app = express();
  app.disable("x-powered-by");
  app.use(compression());
  // nosniff, referrer policy, no framing, HSTS in production: on files and pages alike.
  const securityHeaders = staticSecurityHeaders();
  app.use((_req, res, next) => {
    for (const [name, value] of Object.entries(securityHeaders)) res.setHeader(name, value);
    next();
  });
  app.use(dev ? dev.middlewares : clientFiles());
  // Tests only (refused in production): a request may run at another time, see clock.server.ts.
  if (env.testClock) app.use((req, _res, next) => withRequestClock(req.headers["x-test-clock-offset-ms"], next));
  // A recovery e-mail's open-counting image (ADR 44), answered here: a Remix route would grow the
  // route manifest every quiz step downloads.
  app.use((req, res, next) => void serveRecoveryOpen(req, res, next).catch(next));
  // Every form and endpoint that changes something is rate-limited (429 page when over).
  app.use((req, res, next) => void limitRequests(req, res, next).catch(next));
  // Preview (a signed cookie from /preview) shows Sanity drafts for the rest of this request,
  // and lets the Studio that opened it frame the page (its preview pane).
  app.use((req, res, next) => withContentPreview(req.headers.cookie, res, next));
  // app.use, not app.all("*"): a wildcard route would decode the path and refuse broken %-encoding.
  app.use(
    createRequestHandler({
      build: dev ? dev.loadBuild : (productionBuild as ServerBuild),
      mode: dev ? "development" : "production",
      getLoadContext: (req, res) => getLoadContext(req, res),
    }),
  );
  // Last resort: never show a stack trace to the browser.
  app.use((error: { status?: number } | undefined, req: Request, res: Response, _next: NextFunction) => {
    logger.error({ err: error }, `[server] ${req.method} ${pathOf(req.originalUrl)}`);
    if (res.headersSent) return res.end();
    const status = error?.status && error.status >= 400 && error.status < 500 ? error.status : 500;
    res
      .status(status)
      .type("text/plain")
      .send(status === 500 ? "Unexpected Application Error!" : "Bad request.");
  });
  return app;
}

/** Listens on env.port, runs the background jobs, and drains on SIGTERM/SIGINT. */
export function startServer(dev?: DevServer): void {
  const app = fullPath(dev);
  // A page kept from before a code change is not what the new code renders.
  dev?.onCodeChange(() => {
    forgetPages();
    forgetStoredPages();
  });
  let draining = false;

  const server = http.createServer((req: IncomingMessage, res: ServerResponse) => {
    // While draining, every answer ends its connection, so keep-alive clients move on.
    if (draining) res.setHeader("Connection", "close");
    // /healthz and /readyz first: never rate-limited, logged or given cookies.
    if (serveHealthCheck(req, res)) return;
    // Every other request gets a request id and one log line (app/utils/logger.server.ts).
    logRequest(req, res, () => {
      // The gate every request passes first: GET, HEAD and POST only, an address Remix can read
      // (its path judged here once, as the router will match it; the limits and the stored pages
      // use that judgement), and a POST only from our own pages (signed endpoints excepted).
      if (refuseRequest(req, res)) return;
      // Pages kept from an earlier render are answered here, before Express and Remix, when they
      // are still what a render would send: a funnel step everyone at it shares
      // (app/funnels/page-cache.server.ts), else a per-person page (app/render/stored-pages.server.ts);
      // everything else goes through Express and Remix, which may keep the page it renders.
      void serveStoredPage(req, res, () => app(req, res), serveCachedPage);
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
      `Glow Coach is listening on http://${env.host}:${env.port} (${dev ? "development" : "production build"}${env.isProduction ? "" : ", embedded defaults"})`,
    );
    // The supervisor (scripts/serve.mjs) counts a worker as started from here.
    if (cluster.isWorker) process.send?.({ glowServer: "listening" });
    void reportReadiness();
  });

  // Published content changes reach this instance through the database (ADR 16).
  watchContentVersion();
  // Expired sessions, sign-in links and rate-limit hits are deleted hourly (app/operations/pruning.server.ts).
  const stopPruning = startPruning();
  // Daily reminder e-mails due are claimed and sent every minute, on every instance (app/reminders/reminders.server.ts).
  const stopReminders = startReminders();
  // Recovery e-mails due (ADR 44) are claimed and sent the same way (app/recovery/leads.server.ts).
  const stopRecovery = startRecovery();
  // Meta Conversions API events not yet sent are retried every minute (app/analytics/conversions-api.server.ts).
  const stopConversionsApi = startConversionsApi();

  /**
   * Graceful drain: stops taking connections, lets requests under way finish (their answers
   * close the connection; 10 s at most), closes the database, then exits with the worst code
   * asked for (a fatal error while stopping still exits 1).
   */
  function shutdown(code: number): void {
    process.exitCode = Math.max(Number(process.exitCode ?? 0), code);
    if (draining) return;
    draining = true;
    stopPruning();
    stopReminders();
    stopRecovery();
    stopConversionsApi();
    stopWatchingContentVersion();
    // Queued analytics events are written before the database closes (app/analytics/event-batch.server.ts).
    server.close(() =>
      flushEvents()
        .then(() => closeDatabase())
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
}
