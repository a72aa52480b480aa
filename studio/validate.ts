/**
 * The Studio's validation outside the Studio, for tests and scripts: the same schema and
 * rules, run by Sanity's own validateDocument. Custom rules that query (a funnel's shared
 * questions) get a client whose fetch is given by the caller.
 */
import { createSchema, validateDocument, type SanityDocument } from "sanity";
import { groupProblems, validateSchema } from "@sanity/schema/_internal";
import { schemaTypes } from "./schemaTypes";

export const studioSchema = createSchema({ name: "glow-coach", types: schemaTypes });

/** Problems in the schema definitions themselves (what `sanity build` would refuse). */
export function schemaProblems(): { path: string; severity: string; message: string }[] {
  const groups = groupProblems(validateSchema(schemaTypes).getTypes());
  return groups.flatMap((group) =>
    group.problems.map((problem) => ({
      path: group.path.map((p) => ("name" in p && p.name ? p.name : p.kind)).join(" > "),
      severity: problem.severity,
      message: problem.message,
    })),
  );
}

export type Fetch = (query: string, params?: Record<string, unknown>) => Promise<unknown>;
export type StudioMarker = { level: "error" | "warning" | "info"; message: string; path: (string | number | { _key: string })[] };

/**
 * Markers as the Studio shows them. `environment: "cli"` adds Sanity's check for fields the
 * schema does not know, but then reports every document-level problem as a warning (a
 * quirk of validateDocument), so levels are only meaningful in "studio".
 */
export async function validateWithStudio(
  document: Record<string, unknown>,
  fetch: Fetch,
  { knownIds, environment = "studio" }: { knownIds?: ReadonlySet<string>; environment?: "studio" | "cli" } = {},
): Promise<StudioMarker[]> {
  const client = { fetch, withConfig: () => client, config: () => ({}) };
  const markers = await validateDocument({
    document: document as SanityDocument,
    workspace: { schema: studioSchema, getClient: () => client } as never,
    getClient: () => client as never,
    getDocumentExists: async ({ id }) => (knownIds ? knownIds.has(id) : true),
    environment,
  });
  return markers.map((m) => ({ level: m.level, message: m.message, path: m.path as StudioMarker["path"] }));
}
