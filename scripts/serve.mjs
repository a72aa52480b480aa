// Runs the production server (server.mjs): in this process, or with WEB_CONCURRENCY=N as N
// worker processes sharing the port (node:cluster). Workers share nothing but the database,
// so any of them may answer any request (docs/decisions/0016-instances-share-one-truth.md).
//
// The primary process only supervises: a worker that dies is replaced; SIGTERM or SIGINT is
// passed to every worker, each drains (finishes its requests in flight, then exits), and the
// primary exits once all have. A worker that fails before it ever listened (bad configuration)
// stops the whole server with its exit code, instead of being restarted in a loop.
import cluster from "node:cluster";
import path from "node:path";

const raw = process.env.WEB_CONCURRENCY;
const workers = raw === undefined || raw === "" ? 1 : Number(raw);
if (!Number.isInteger(workers) || workers < 1 || workers > 64) {
  console.error(
    `\nInvalid configuration:\n  - WEB_CONCURRENCY: must be a whole number from 1 to 64 (got "${raw}")\n\nSee "Configuration" in docs/operators.md.`,
  );
  process.exit(1);
}

const serverFile = path.resolve(import.meta.dirname, "../server.mjs");

if (workers === 1) {
  await import(serverFile);
} else {
  // Workers accept connections themselves, rather than the primary accepting each and handing
  // it over (Node's default on Linux): in the routine benchmark's burst of 1,000 new
  // connections that hand-over cost ≈ 0.7 ms of CPU per request. On Linux each worker binds a
  // socket of its own (SO_REUSEPORT, server.mjs) and the kernel spreads connections evenly;
  // elsewhere they share one socket and the kernel wakes whichever worker waits.
  // NODE_CLUSTER_SCHED_POLICY=rr restores Node's default.
  if (!process.env.NODE_CLUSTER_SCHED_POLICY) cluster.schedulingPolicy = cluster.SCHED_NONE;
  cluster.setupPrimary({ exec: serverFile });
  let stopping = false;
  const listened = new WeakSet();

  const start = () => {
    const worker = cluster.fork();
    // Each worker says when it listens (it binds its own socket, so cluster's own
    // "listening" event does not come on Linux).
    worker.on("message", (message) => {
      if (message?.glowServer === "listening") listened.add(worker);
    });
    worker.on("listening", () => listened.add(worker));
  };

  cluster.on("exit", (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    if (!listened.has(worker)) {
      // Never served a request: its configuration or build is broken, and so is every other's.
      console.error(`[serve] worker ${worker.process.pid} failed at start-up (exit ${code ?? signal}); stopping`);
      stopping = true;
      for (const other of Object.values(cluster.workers ?? {})) other?.process.kill("SIGTERM");
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(code || 1);
      setTimeout(() => process.exit(code || 1), 12_000).unref();
      return;
    }
    console.error(`[serve] worker ${worker.process.pid} stopped (${signal ?? `exit ${code}`}); starting another`);
    start();
  });

  const stop = (signal) => {
    if (stopping) return;
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    // Each worker gives its requests 10 s (server.mjs); then the primary gives up on them.
    setTimeout(() => process.exit(1), 15_000).unref();
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));

  console.log(`[serve] ${workers} worker processes (WEB_CONCURRENCY)`);
  for (let i = 0; i < workers; i++) start();
}
