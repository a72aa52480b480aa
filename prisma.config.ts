// Prisma CLI configuration. The CLI runs the bundled WASM schema engine through the
// better-sqlite3 driver adapter, so migrations work offline (no engine download).
import fs from "node:fs";
import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { defineConfig } from "prisma/config";
import { resolveDatabaseUrl } from "./app/utils/database-url";

const url = resolveDatabaseUrl(process.env);
// Prisma reads env("DATABASE_URL") from the schema; give it the same default the app uses.
process.env.DATABASE_URL = url;
// better-sqlite3 creates the file but not its folder.
if (url.startsWith("file:")) fs.mkdirSync(path.dirname(url.slice("file:".length)), { recursive: true });

/**
 * The schema engine replays each migration file on a shadow database with one
 * argument-less executeRaw call; better-sqlite3 only runs multi-statement SQL
 * through exec(), so route those calls to executeScript.
 */
function withScriptFriendlyShadow(
  factory: SqlMigrationAwareDriverAdapterFactory,
): SqlMigrationAwareDriverAdapterFactory {
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

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  adapter: async () => withScriptFriendlyShadow(new PrismaBetterSQLite3({ url })),
});
