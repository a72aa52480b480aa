// The server tests run the production build. It is built here, once, when missing or older than
// its sources (as `npm start` would), so that no file's server rebuilds it under the others'; and
// the database is migrated once for the servers app-server.ts starts.
import { buildIfStale } from "../../scripts/build-if-stale.mjs";
import { migrateTemplateDatabase } from "./migrated-database";

export default function setup() {
  buildIfStale();
  migrateTemplateDatabase();
}
