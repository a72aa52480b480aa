// A throwaway PostgreSQL server for tests, benchmarks and writing migrations: a new cluster
// in a temporary folder, listening on 127.0.0.1 only, owned by nobody but this run. Needs
// Debian's `postgresql` package (no service has to run; `.ci/run` installs it when missing).
//
//   import { startThrowawayPostgres } from "./postgres.mjs";
//   const pg = await startThrowawayPostgres();  // a free port; pg.url, pg.adminUrl
//   await pg.stop();
//
//   node scripts/postgres.mjs start [--port N] [--dir DIR]   prints the database URL (default: a free port)
//   node scripts/postgres.mjs stop --dir DIR
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const DATABASE = "glow";
const USER = "glow";

/** The folder holding initdb and pg_ctl: on PATH, else the newest Debian install. */
export function postgresBinDir() {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    // Debian links some tools onto PATH; the real folder holds all of them.
    if (dir && fs.existsSync(path.join(dir, "pg_ctl"))) return path.dirname(fs.realpathSync(path.join(dir, "pg_ctl")));
  }
  const debian = "/usr/lib/postgresql";
  const versions = fs.existsSync(debian)
    ? fs
        .readdirSync(debian)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const version of versions) {
    const dir = path.join(debian, version, "bin");
    if (fs.existsSync(path.join(dir, "pg_ctl"))) return dir;
  }
  return null;
}

/**
 * PostgreSQL refuses to run as root: as root, the cluster belongs to the `postgres` user the
 * Debian package creates. Anyone else runs it as themselves.
 */
function runAs() {
  if (process.getuid?.() !== 0) return null;
  try {
    execFileSync("id", ["-u", "postgres"], { stdio: "ignore" });
    return "postgres";
  } catch {
    throw new Error("Running as root needs the 'postgres' system user (apt-get install postgresql creates it).");
  }
}

function run(bin, args, user, options = {}) {
  const [command, commandArgs] = user ? ["runuser", ["-u", user, "--", bin, ...args]] : [bin, args];
  return execFileSync(command, commandArgs, { stdio: ["ignore", "pipe", "pipe"], ...options }).toString();
}

/** A port nothing listens on now (the kernel's pick), for a server started right after. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts a new cluster. Port 0 picks a free one. `settings` are postgres -c options; by default durability is relaxed
 * like the test SQLite file's (a throwaway cluster is never worth an fsync).
 */
export async function startThrowawayPostgres({ port = 0, dir, settings = { fsync: "off", synchronous_commit: "off", full_page_writes: "off" } } = {}) {
  if (!port) port = await freePort();
  const bin = postgresBinDir();
  if (!bin) throw new Error("PostgreSQL is not installed (Debian: apt-get install postgresql; .ci/run does it).");
  const user = runAs();
  const root = dir ?? fs.mkdtempSync(path.join(os.tmpdir(), "glow-pg-"));
  fs.mkdirSync(root, { recursive: true });
  const data = path.join(root, "data");
  if (user) execFileSync("chown", ["-R", user, root]);
  run(path.join(bin, "initdb"), ["-D", data, "-U", USER, "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync"], user);
  const options = [
    "-c listen_addresses=127.0.0.1",
    `-c port=${port}`,
    // The socket lives in the cluster's own folder, not the system's /var/run/postgresql.
    `-c unix_socket_directories='${root}'`,
    "-c max_connections=200",
    ...Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`),
  ].join(" ");
  try {
    run(path.join(bin, "pg_ctl"), ["-D", data, "-l", path.join(root, "server.log"), "-o", options, "-w", "-t", "60", "start"], user);
  } catch (error) {
    const log = fs.existsSync(path.join(root, "server.log")) ? fs.readFileSync(path.join(root, "server.log"), "utf8") : "";
    throw new Error(`PostgreSQL did not start on 127.0.0.1:${port}:\n${log || error.message}`);
  }
  run(path.join(bin, "createdb"), ["-h", "127.0.0.1", "-p", String(port), "-U", USER, DATABASE], user);
  const server = {
    dir: root,
    port,
    url: `postgresql://${USER}@127.0.0.1:${port}/${DATABASE}`,
    /** The maintenance database, for creating and dropping others. */
    adminUrl: `postgresql://${USER}@127.0.0.1:${port}/postgres`,
    async stop() {
      stopThrowawayPostgres(root);
    },
  };
  return server;
}

export function stopThrowawayPostgres(root) {
  const bin = postgresBinDir();
  const data = path.join(root, "data");
  if (bin && fs.existsSync(path.join(data, "postmaster.pid"))) {
    try {
      run(path.join(bin, "pg_ctl"), ["-D", data, "-m", "fast", "-w", "stop"], runAs());
    } catch {
      // Already stopped.
    }
  }
  fs.rmSync(root, { recursive: true, force: true });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [command, ...rest] = process.argv.slice(2);
  const option = (name) => {
    const i = rest.indexOf(`--${name}`);
    return i >= 0 ? rest[i + 1] : undefined;
  };
  if (command === "start") {
    const server = await startThrowawayPostgres({ port: Number(option("port") ?? 0), dir: option("dir") });
    console.log(server.url);
  } else if (command === "stop" && option("dir")) {
    stopThrowawayPostgres(option("dir"));
  } else {
    console.error("usage: node scripts/postgres.mjs start [--port N] [--dir DIR] | stop --dir DIR");
    process.exit(2);
  }
}
