// Prisma CLI configuration. DATABASE_URL chooses the provider (file: SQLite, postgres(ql)://
// PostgreSQL), and with it the schema and migrations folder. The CLI runs the bundled WASM schema
// engine through a driver adapter, so migrations work offline (no engine download).
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import pg from "pg";
import { defineConfig } from "prisma/config";
import { databaseProvider, resolveDatabaseUrl } from "./app/utils/database-url.server";

const url = resolveDatabaseUrl(process.env);
const provider = databaseProvider(url);
if (!provider) throw new Error(`DATABASE_URL must start with file: (SQLite) or postgres:// / postgresql:// (PostgreSQL)`);
// Prisma reads env("DATABASE_URL") from the schema; give it the same default the app uses.
process.env.DATABASE_URL = url;
// better-sqlite3 creates the file but not its folder.
if (provider === "sqlite") fs.mkdirSync(path.dirname(url.slice("file:".length)), { recursive: true });

/**
 * The schema engine replays each migration file on a shadow database with one
 * argument-less executeRaw call; better-sqlite3 only runs multi-statement SQL
 * through exec(), so route those calls to executeScript.
 */
function withScriptFriendlyShadow(factory: SqlMigrationAwareDriverAdapterFactory): SqlMigrationAwareDriverAdapterFactory {
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: () => factory.connect(),
    connectToShadowDb: async () => {
      const shadow = await factory.connectToShadowDb();
      const executeRaw = shadow.executeRaw.bind(shadow);
      shadow.executeRaw = async (query) => {
        if (query.args.length === 0) {
          await shadow.executeScript(query.sql);
          return 0;
        }
        return executeRaw(query);
      };
      return shadow;
    },
  };
}

/** PostgreSQL system catalogue types that adapter-pg does not map (OIDs 19 and 18). */
const SYSTEM_TEXT_TYPES = new Set([19 /* name */, 18 /* "char" */]);
const TEXT_OID = 25;

type Result = { fields?: { dataTypeID: number }[] };
/** One result, or one per statement when a script of several statements ran. */
type PerformIO = (query: unknown) => Promise<Result | Result[]>;

/**
 * The schema engine reads PostgreSQL's catalogue, whose `name` and `"char"` columns adapter-pg
 * refuses ("Column type 'name' could not be deserialized"). Both arrive as text, so they are
 * handed on as text.
 */
function withSystemTypesAsText<T extends object>(queryable: T): T {
  const target = queryable as T & { performIO: PerformIO; startTransaction?: (...args: unknown[]) => Promise<object> };
  const performIO = target.performIO.bind(target);
  target.performIO = async (query) => {
    const result = await performIO(query);
    for (const each of Array.isArray(result) ? result : [result]) {
      for (const field of each.fields ?? []) if (SYSTEM_TEXT_TYPES.has(field.dataTypeID)) field.dataTypeID = TEXT_OID;
    }
    return result;
  };
  const startTransaction = target.startTransaction?.bind(target);
  if (startTransaction) target.startTransaction = async (...args) => withSystemTypesAsText(await startTransaction(...args));
  return queryable;
}

type WholeScripts = { underlyingDriver(): pg.Pool; onError(error: unknown): never; executeScript(script: string): Promise<void> };

/**
 * adapter-pg runs a migration file by splitting it at every ";", comments and strings
 * included, so a comment such as "-- written by hand; plain SQL" breaks `migrate deploy`. The
 * file goes to PostgreSQL whole instead (one simple query: it parses statements, comments
 * and strings itself, and runs them as one transaction).
 */
function withWholeScripts<T extends object>(adapter: T): T {
  const target = adapter as T & WholeScripts;
  target.executeScript = async (script) => {
    try {
      await target.underlyingDriver().query(script);
    } catch (error) {
      target.onError(error);
    }
  };
  return adapter;
}

/**
 * PostgreSQL for the CLI. adapter-pg's own shadow database is unsafe: it passes the URL and a
 * database name to pg, and the URL wins, so migrations would be replayed on the MAIN database.
 * Here the shadow is a new database reached by discrete connection settings, dropped afterwards.
 */
function postgresForMigrations(databaseUrl: string): SqlMigrationAwareDriverAdapterFactory {
  const main = new PrismaPg({ connectionString: databaseUrl });
  return {
    provider: main.provider,
    adapterName: main.adapterName,
    connect: async () => withWholeScripts(withSystemTypesAsText(await main.connect())),
    connectToShadowDb: async () => {
      const target = new URL(databaseUrl);
      const name = `glow_shadow_${crypto.randomBytes(6).toString("hex")}`;
      const admin = async (sql: string) => {
        const client = new pg.Client({ connectionString: databaseUrl });
        await client.connect();
        try {
          await client.query(sql);
        } finally {
          await client.end();
        }
      };
      await admin(`CREATE DATABASE "${name}"`);
      const shadow = withWholeScripts(
        withSystemTypesAsText(
          await new PrismaPg({
            host: target.hostname,
            port: Number(target.port || 5432),
            user: decodeURIComponent(target.username),
            password: target.password ? decodeURIComponent(target.password) : undefined,
            database: name,
            ssl: ["require", "verify-ca", "verify-full"].includes(target.searchParams.get("sslmode") ?? "") ? true : undefined,
          }).connect(),
        ),
      );
      const dispose = shadow.dispose.bind(shadow);
      const adapter: SqlDriverAdapter = shadow;
      adapter.dispose = async () => {
        await dispose();
        await admin(`DROP DATABASE IF EXISTS "${name}"`);
      };
      return adapter;
    },
  };
}

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: provider === "postgresql" ? "prisma/postgresql/schema.prisma" : "prisma/schema.prisma",
  migrations: { path: provider === "postgresql" ? "prisma/postgresql/migrations" : "prisma/migrations" },
  adapter: async () => (provider === "postgresql" ? postgresForMigrations(url) : withScriptFriendlyShadow(new PrismaBetterSQLite3({ url }))),
});
