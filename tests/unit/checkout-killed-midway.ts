/**
 * A server process that completes one local checkout and is killed (SIGKILL, nothing runs
 * after it) right after the Nth write of that completion reached the database, for
 * payments-fulfilment.test.ts. Exits normally when the completion made fewer writes.
 *
 *   KILL_AFTER_WRITE=3 node --import tsx tests/unit/checkout-killed-midway.ts <checkout id> <visitor id> <e-mail>
 *
 * A write is any INSERT, UPDATE, DELETE or COMMIT, counted at the two database drivers the
 * app uses (better-sqlite3, pg) once the database has answered it. The app's environment
 * (DATA_DIR or DATABASE_URL) is the test's.
 */
import Database from "better-sqlite3";
import pg from "pg";

const [id, visitorId, email] = process.argv.slice(2);
const killAfter = Number(process.env.KILL_AFTER_WRITE);
if (!id || !visitorId || !email || !Number.isInteger(killAfter) || killAfter < 1) {
  throw new Error("usage: KILL_AFTER_WRITE=<n> node --import tsx tests/unit/checkout-killed-midway.ts <checkout id> <visitor id> <e-mail>");
}

const WRITE = /^\s*(?:INSERT|UPDATE|DELETE|COMMIT)\b/i;
let counting = false;
let writes = 0;

function answered(statement: string | undefined): void {
  if (counting && statement && WRITE.test(statement) && ++writes === killAfter) process.kill(process.pid, "SIGKILL");
}

// better-sqlite3: Prisma's adapter and the app's own connection prepare every statement.
const prepare = Database.prototype.prepare;
Database.prototype.prepare = function (this: Database.Database, source: string) {
  const statement = prepare.call(this, source) as Database.Statement;
  if (WRITE.test(source)) {
    const run = statement.run;
    statement.run = function (this: Database.Statement, ...params: unknown[]) {
      const result = run.apply(this, params);
      answered(source);
      return result;
    } as typeof statement.run;
  }
  return statement;
} as typeof Database.prototype.prepare;

// pg: every statement of Prisma's adapter and of the app's pool is a client query.
const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const first = args[0] as string | { text?: string } | undefined;
  const text = typeof first === "string" ? first : first?.text;
  const result = query.apply(this, args);
  if (result instanceof Promise) return result.then((rows) => (answered(text), rows));
  return result;
} as typeof pg.Client.prototype.query;

const { completeLocalCheckout } = await import("~/payments/local-checkout.server");
const { closeDatabase } = await import("~/utils/sql.server");
counting = true;
const outcome = await completeLocalCheckout({ id, visitorId, user: null, email });
counting = false;
await closeDatabase();
process.stdout.write(`${JSON.stringify({ outcome, writes })}\n`);
