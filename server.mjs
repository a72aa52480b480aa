// Starts the HTTP server, app/server.ts (typed, built with the app: the request path lives there).
// Production: the server build, build/server/index.js (run `npm run build` first, or use `npm start`).
// Development (NODE_ENV=development, `npm run dev`): the same module through Vite's dev server,
// with Vite's middleware and the newest route code on every request (hot reload).
import { exitOnRuntimeProblem } from "./scripts/runtime-check.mjs";

const development = process.env.NODE_ENV === "development";

// An unsupported Node.js, or a database driver built for another one, stops start-up here.
exitOnRuntimeProblem();

let vite;
let server;
try {
  if (development) {
    vite = await import("vite").then((v) => v.createServer({ server: { middlewareMode: true }, appType: "custom" }));
    server = await vite.ssrLoadModule("/app/server.ts");
  } else {
    // Loaded now, so bad configuration stops start-up here.
    server = await import("./build/server/index.js");
  }
} catch (error) {
  if (error?.name === "EnvError") {
    console.error(`\n${error.message}\n\nSee "Configuration" in docs/operators.md.`);
    process.exit(1);
  }
  throw error;
}

server.startServer(
  vite && {
    middlewares: vite.middlewares,
    loadBuild: () => vite.ssrLoadModule("virtual:remix/server-build"),
    onCodeChange: (listener) => vite.watcher.on("change", listener),
  },
);
