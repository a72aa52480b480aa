// The HTTP server: Express in front of the Remix request handler.
// Production: serves build/ (run `npm run build` first, or use `npm start`).
// Development (NODE_ENV=development): Vite dev middleware with hot reload.
import { createRequestHandler } from "@remix-run/express";
import compression from "compression";
import express from "express";
import http from "node:http";
import path from "node:path";

const development = process.env.NODE_ENV === "development";

const vite = development
  ? await import("vite").then((v) => v.createServer({ server: { middlewareMode: true }, appType: "custom" }))
  : undefined;

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
const { env } = build.entry.module;

const app = express();
app.disable("x-powered-by");
app.use(compression());

// nosniff, referrer policy, no framing, HSTS in production: on files and pages alike.
const securityHeaders = build.entry.module.staticSecurityHeaders();
app.use((req, res, next) => {
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
  // A path with broken %-encoding is no file; let the app answer it (the funnel
  // routes send a bad step back to the funnel's start) instead of a bare 400.
  app.use((req, res, next) => {
    try {
      decodeURIComponent(req.path);
    } catch {
      return next();
    }
    return files(req, res, next);
  });
}

if (env.logRequests) {
  app.use((req, res, next) => {
    const started = process.hrtime.bigint();
    res.on("finish", () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      console.log(`${req.method} ${req.originalUrl} ${res.statusCode} ${ms.toFixed(1)}ms`);
    });
    next();
  });
}

if (env.testClock && !vite) {
  // Tests only (refused in production): a request may run at another time, see clock.server.ts.
  app.use((req, res, next) => build.entry.module.withRequestClock(req.headers["x-test-clock-offset-ms"], next));
}

// Every form and endpoint that changes something is rate-limited (429 page when over).
app.use((req, res, next) => build.entry.module.limitRequests(req, res, next).catch(next));

// Preview (a signed cookie from /preview) shows Sanity drafts for the rest of this request.
app.use(async (req, res, next) => {
  const current = vite ? await vite.ssrLoadModule("virtual:remix/server-build") : build;
  current.entry.module.withContentPreview(req.headers.cookie, next);
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
  console.error(`[server] ${req.method} ${req.originalUrl}`, error);
  if (res.headersSent) return res.end();
  const status = error?.status >= 400 && error?.status < 500 ? error.status : 500;
  res.status(status).type("text/plain").send(status === 500 ? "Unexpected Application Error!" : "Bad request.");
});

const server = http.createServer((req, res) => {
  // The gate every request passes first: GET, HEAD and POST only, and a POST only from our
  // own pages (webhooks excepted). The rules live in app/security/request-guard.server.ts.
  if (build.entry.module.refuseRequest(req, res)) return;
  if (vite) return app(req, res);
  // Funnel pages already rendered for the same view are answered before Express and Remix.
  build.entry.module.serveCachedPage(req, res).then(
    (served) => served || app(req, res),
    (error) => {
      console.error("[page-cache]", error);
      if (!res.headersSent) app(req, res);
    },
  );
});
// A deep accept queue: Node's default (511) makes a burst of new connections past it wait for
// the kernel's one-second SYN retry (the routine benchmark's 1,000 at once). The kernel caps
// it at net.core.somaxconn.
server.listen({ port: env.port, host: env.host, backlog: 4096 }, () => {
  console.log(`Glow Coach is ready at http://${env.host}:${env.port} (${development ? "development" : "production build"}${env.isProduction ? "" : ", embedded defaults"})`);
});

function shutdown() {
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 5000).unref();
}
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
