// Where a V8 CPU profile sample's code comes from, by its script URL: the parts the benchmark
// profiles (scripts/bench-profile.mjs, scripts/bench-page-profile.mjs) sum samples by.
export const part = ({ callFrame: { url, functionName } }) => {
  if (functionName === "(idle)") return "idle (waiting: for the client, the disk)";
  if (functionName === "(garbage collector)") return "garbage collection";
  if (functionName === "(program)") return "V8 and native code outside JavaScript";
  if (url.includes("better-sqlite3") || (url.includes("build/server") && functionName === "run")) return "SQLite (better-sqlite3)";
  if (url.includes("/pg/") || url.includes("pg-protocol") || url.includes("pg-pool") || url.includes("pg-types")) return "PostgreSQL driver (pg)";
  if (url.includes("@prisma") || url.includes("query_compiler")) return "Prisma";
  if (url.includes("@remix-run/router")) return "Remix: route matching and data (router)";
  if (url.includes("@remix-run")) return "Remix: request and response adapters";
  if (url.includes("react-dom")) return "React rendering";
  if (url.includes("express") || url.includes("compression") || url.includes("body-parser") || url.includes("/send/") || url.includes("serve-static"))
    return "Express and its middleware";
  if (url.includes("undici")) return "Node: fetch Request/Response objects (undici)";
  if (url.includes("build/server")) return "the app's own code";
  if (url.startsWith("node:") || !url) return "Node: HTTP, streams, crypto, timers";
  return `other: ${url.split("node_modules/").pop().split("/")[0]}`;
};
