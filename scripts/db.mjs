// The database's one data model, kept in step on SQLite and PostgreSQL.
//
//   node scripts/db.mjs schema            writes prisma/postgresql/schema.prisma from prisma/schema.prisma
//   node scripts/db.mjs migration <name>  writes the migration for the schema's changes, for both providers
//   node scripts/db.mjs check             fails when the PostgreSQL schema or either migrations folder
//                                         does not match prisma/schema.prisma (part of npm test)
//
// Migrations are worked out by Prisma (`migrate diff`, offline): each provider's migrations are
// replayed on a scratch database (SQLite in memory; a throwaway PostgreSQL server, or the one in
// SHADOW_DATABASE_URL) and compared with the schema. See "Changing the database" in docs/developers.md.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startThrowawayPostgres } from "./postgres.mjs";

const root = path.resolve(import.meta.dirname, "..");
process.chdir(root);

export const PROVIDERS = {
  sqlite: { schema: "prisma/schema.prisma", migrations: "prisma/migrations" },
  postgresql: { schema: "prisma/postgresql/schema.prisma", migrations: "prisma/postgresql/migrations" },
};

/** The Prisma CLI, run by this Node (npx would cost a second per call). */
const PRISMA = path.join(root, "node_modules/prisma/build/index.js");

const GENERATED_NOTE = `// GENERATED from prisma/schema.prisma by \`npm run db:schema\`: do not edit. Edit prisma/schema.prisma.\n`;

/** The PostgreSQL copy of the source schema: the same models, another provider and client folder. */
export function postgresSchema(source) {
  const replaced = source
    .replace(/(datasource db \{[^}]*provider\s*=\s*)"sqlite"/, '$1"postgresql"')
    .replace(/(generator client \{[^}]*output\s*=\s*)"\.\.\/app\/generated\/prisma"/, '$1"../../app/generated/prisma-postgresql"');
  if (!replaced.includes('"postgresql"') || !replaced.includes("prisma-postgresql")) {
    throw new Error("prisma/schema.prisma: expected a sqlite datasource and a client generated into ../app/generated/prisma");
  }
  return GENERATED_NOTE + replaced;
}

function writePostgresSchema() {
  const text = postgresSchema(fs.readFileSync(PROVIDERS.sqlite.schema, "utf8"));
  fs.mkdirSync(path.dirname(PROVIDERS.postgresql.schema), { recursive: true });
  const current = fs.existsSync(PROVIDERS.postgresql.schema) ? fs.readFileSync(PROVIDERS.postgresql.schema, "utf8") : "";
  if (current !== text) fs.writeFileSync(PROVIDERS.postgresql.schema, text);
  return current !== text;
}

/** A database URL per provider for the Prisma CLI: SQLite's is never opened by a diff. */
async function withDatabases(run) {
  let postgres;
  let url = process.env.SHADOW_DATABASE_URL;
  if (!url) {
    postgres = await startThrowawayPostgres();
    url = postgres.url;
  }
  try {
    return await run({ sqlite: "file:./test-results/db-check/unused.db", postgresql: url });
  } finally {
    await postgres?.stop();
  }
}

/**
 * The migrations folder as Prisma's diff can read it. Prisma's schema engine cannot describe
 * PostgreSQL's constraint triggers (it stops with "RuntimeError: unreachable"), which the
 * member data version uses to run its triggers at commit (ADR 26). Triggers are not part of
 * the data model Prisma compares, so the diff replays a copy where they are plain triggers on
 * the same tables; `migrate deploy` applies the files as written.
 */
function diffableMigrations(provider) {
  const { migrations } = PROVIDERS[provider];
  if (provider !== "postgresql") return { folder: migrations, remove() {} };
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "glow-migrations-"));
  fs.cpSync(migrations, folder, { recursive: true });
  for (const entry of fs.readdirSync(folder, { recursive: true })) {
    const file = path.join(folder, entry);
    if (!file.endsWith(".sql")) continue;
    const sql = fs.readFileSync(file, "utf8");
    fs.writeFileSync(file, sql.replaceAll("CREATE CONSTRAINT TRIGGER", "CREATE TRIGGER").replaceAll("DEFERRABLE INITIALLY DEFERRED ", ""));
  }
  return { folder, remove: () => fs.rmSync(folder, { recursive: true, force: true }) };
}

/** `prisma migrate diff` from a provider's migrations to the schema. */
function migrateDiff(provider, databaseUrl, extra) {
  const { schema } = PROVIDERS[provider];
  const migrations = diffableMigrations(provider);
  try {
    return spawnSync(process.execPath, [PRISMA, "migrate", "diff", "--from-migrations", migrations.folder, "--to-schema-datamodel", schema, ...extra], {
      env: { ...process.env, DATABASE_URL: databaseUrl },
      encoding: "utf8",
    });
  } finally {
    migrations.remove();
  }
}

async function check() {
  const problems = [];
  const expected = postgresSchema(fs.readFileSync(PROVIDERS.sqlite.schema, "utf8"));
  const actual = fs.existsSync(PROVIDERS.postgresql.schema) ? fs.readFileSync(PROVIDERS.postgresql.schema, "utf8") : "";
  if (actual !== expected) problems.push(`${PROVIDERS.postgresql.schema} is out of date: run npm run db:schema`);
  await withDatabases(async (urls) => {
    for (const provider of Object.keys(PROVIDERS)) {
      const result = migrateDiff(provider, urls[provider], ["--script", "--exit-code"]);
      if (result.status === 2) {
        problems.push(
          `${PROVIDERS[provider].migrations} does not match ${PROVIDERS[provider].schema}; the missing migration is:\n${result.stdout.trim()}\nRun: npm run db:migration -- <name>`,
        );
      } else if (result.status !== 0) {
        problems.push(`${provider}: prisma migrate diff failed:\n${result.stderr.trim() || result.stdout.trim()}`);
      } else {
        console.log(`${PROVIDERS[provider].migrations}: matches ${PROVIDERS[provider].schema}`);
      }
    }
  });
  if (problems.length) {
    console.error(problems.join("\n\n"));
    process.exit(1);
  }
}

async function migration(name) {
  if (!name || !/^[a-z0-9_]+$/.test(name)) {
    console.error("usage: npm run db:migration -- <name>   (lower case, digits and _, e.g. add_plan_tiers)");
    process.exit(2);
  }
  writePostgresSchema();
  const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
  const folder = `${stamp}_${name}`;
  const written = [];
  await withDatabases(async (urls) => {
    for (const provider of Object.keys(PROVIDERS)) {
      const result = migrateDiff(provider, urls[provider], ["--script", "--exit-code"]);
      if (result.status === 0) continue; // no change for this provider
      if (result.status !== 2) throw new Error(`${provider}: prisma migrate diff failed:\n${result.stderr || result.stdout}`);
      const file = path.join(PROVIDERS[provider].migrations, folder, "migration.sql");
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, result.stdout);
      written.push(file);
    }
  });
  if (!written.length) {
    console.log("The migrations already match prisma/schema.prisma: nothing to write.");
    return;
  }
  for (const file of written) console.log(`wrote ${file}`);
  generateClients();
}

/**
 * Both clients. The CLI config picks its adapter by DATABASE_URL's provider, which must match the
 * schema's (else it looks for a query engine to download); generating connects to nothing.
 */
export function generateClients() {
  const urls = { sqlite: "file:./data/glow-coach.db", postgresql: "postgresql://localhost/unused" };
  for (const [provider, { schema }] of Object.entries(PROVIDERS)) {
    execFileSync(process.execPath, [PRISMA, "generate", "--schema", schema], {
      env: { ...process.env, DATABASE_URL: urls[provider] },
      stdio: ["ignore", "ignore", "inherit"],
    });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [command, argument] = process.argv.slice(2);
  if (command === "schema") {
    console.log(writePostgresSchema() ? `wrote ${PROVIDERS.postgresql.schema}` : `${PROVIDERS.postgresql.schema} is up to date`);
  } else if (command === "check") {
    await check();
  } else if (command === "migration") {
    await migration(argument);
  } else if (command === "generate") {
    generateClients();
  } else {
    console.error("usage: node scripts/db.mjs schema | check | migration <name> | generate");
    process.exit(2);
  }
}
