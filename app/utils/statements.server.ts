/**
 * Every database statement the app sends, Prisma's and the hot-path SQL's (sql.server.ts,
 * db.server.ts), is told here, described once per statement text: whether it writes and which
 * tables it names. The database layer knows nothing of pages; the page record
 * (app/utils/page-record.server.ts) listens, so a render that wrote is not kept and a render
 * that read a table its page did not declare is caught (docs/decisions/0040-one-typed-server-entry.md).
 */

/** What a statement does, from its text. */
export type Statement = { write: boolean; tables: readonly string[] };

const WRITE = /^\s*(?:INSERT|UPDATE|DELETE|REPLACE)\b/i;
const READ = /^\s*(?:SELECT|WITH|PRAGMA|EXPLAIN)\b/i;
/**
 * FROM "User", JOIN main.Session (quoted with backticks: SQLite through Prisma), INTO
 * "public"."PlanCompletion": the table's own name, schema and quotes left out.
 */
const QUOTE = '["\\x60]?';
const TABLE = new RegExp(String.raw`\b(?:FROM|JOIN|INTO|UPDATE)\s+(?:${QUOTE}\w+${QUOTE}\.)?${QUOTE}([A-Za-z_]\w*)${QUOTE}`, "gi");

/** Describes a statement; `prisma`: Prisma's queryRaw, where anything that is not a plain read may write. */
export function describeStatement(text: string, { prisma = false } = {}): Statement {
  const write = prisma ? !READ.test(text) : WRITE.test(text);
  return { write, tables: [...new Set(Array.from(text.matchAll(TABLE), (match) => match[1]))] };
}

const listeners = new Set<(statement: Statement) => void>();

/** `listener` hears of every statement sent from now on, in the async context that sends it. */
export function onStatement(listener: (statement: Statement) => void): void {
  listeners.add(listener);
}

export function noteStatement(statement: Statement): void {
  for (const listener of listeners) listener(statement);
}
