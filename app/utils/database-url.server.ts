// Shared by the app and the Prisma CLI config so both open the same database.
import path from "node:path";

export const DEFAULT_DATA_DIR = "data";

/** The data folder: the SQLite file, the dev mailbox and generated dev secrets live here. */
export function resolveDataDir(env: Record<string, string | undefined>): string {
  return path.resolve(env.DATA_DIR || DEFAULT_DATA_DIR);
}

/** DATABASE_URL, or a SQLite file in the data folder. */
export function resolveDatabaseUrl(env: Record<string, string | undefined>): string {
  if (env.DATABASE_URL) return env.DATABASE_URL;
  return `file:${path.join(resolveDataDir(env), "glow-coach.db")}`;
}

export type DatabaseProvider = "sqlite" | "postgresql";

const POSTGRES_URL = /^postgres(?:ql)?:\/\//;

/** `file:` is SQLite, `postgres://` or `postgresql://` is PostgreSQL; anything else is neither. */
export function databaseProvider(url: string): DatabaseProvider | null {
  if (url.startsWith("file:")) return "sqlite";
  if (POSTGRES_URL.test(url)) return "postgresql";
  return null;
}
