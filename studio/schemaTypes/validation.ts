/**
 * Studio validation that runs the app's own checks, so the Studio flags exactly what the
 * app would refuse to render. Each content type's document-level rule parses the document
 * with the app's zod schema (app/content-model/content-types.ts) or, for funnels, with the funnel
 * resolver and linter (app/funnels/lint.ts), and places each problem on its field.
 *
 * Pure functions of the document (no Studio imports), so tests/unit can call them too.
 */
import type { CustomValidator, Path, PathSegment } from "@sanity/types";

export type Problem = { path: (string | number)[]; message: string };
export type Marker = { message: string; path: Path };

type Parser = { safeParse(value: unknown): { success: true } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } } };

/** Drafts are stored as "drafts.<id>"; the app only ever sees the published id. */
export function asPublished<T extends { _id?: string }>(doc: T): T {
  return doc._id?.startsWith("drafts.") ? { ...doc, _id: doc._id.slice("drafts.".length) } : doc;
}

/** zod speaks about types; marketers need to know a field is empty. */
export function plainMessage(message: string): string {
  if (/received undefined/.test(message)) return "Required";
  if (/Too small: expected string to have >=1/.test(message)) return "Required";
  const min = /Too small: expected array to have >=(\d+) items?/.exec(message);
  if (min) return `Add at least ${min[1]}`;
  const exact = /Too (?:small|big): expected array to have exactly (\d+) items?/.exec(message);
  if (exact) return `Must have exactly ${exact[1]}`;
  const max = /Too big: expected array to have <=(\d+) items?/.exec(message);
  if (max) return `At most ${max[1]}`;
  return message;
}

/**
 * The app names problems by array index ("steps.3.next.0"); the Studio by array item key.
 * Keys are used where the document has them, so the marker lands on the right item even
 * after a marketer reorders the list.
 */
export function sanityPath(doc: unknown, path: readonly (string | number)[]): Path {
  const out: PathSegment[] = [];
  let here: unknown = doc;
  for (const segment of path) {
    if (Array.isArray(here) && typeof segment === "number") {
      const item = here[segment] as { _key?: unknown } | undefined;
      out.push(item && typeof item._key === "string" ? { _key: item._key } : segment);
      here = item;
    } else {
      out.push(String(segment));
      here = here !== null && typeof here === "object" ? (here as Record<string, unknown>)[String(segment)] : undefined;
    }
  }
  return out;
}

export function toMarkers(doc: unknown, problems: Problem[]): Marker[] {
  return problems.map((p) => ({ message: p.message, path: sanityPath(doc, p.path) }));
}

/** Problems the zod schema finds in a document, with plain messages. */
export function zodProblems(schema: Parser, doc: unknown): Problem[] {
  if (!doc) return [];
  const result = schema.safeParse(asPublished(doc as { _id?: string }));
  if (result.success) return [];
  return result.error.issues.map((issue) => ({
    path: issue.path.filter((s): s is string | number => typeof s !== "symbol"),
    message: plainMessage(issue.message),
  }));
}

/** Rewords one of the app's messages for marketers (it may look at the document); else the message as it is. */
export type Explain = (problem: Problem, doc: Record<string, unknown>) => string;

/**
 * A document-level rule: the document must parse with the app's schema. `explain` only
 * rewords the app's own messages (the rules stay the app's).
 */
export function matchesAppSchema(schema: Parser, explain?: Explain): CustomValidator {
  return (doc) => {
    const problems = zodProblems(schema, doc);
    if (!problems.length) return true;
    const worded = explain ? problems.map((p) => ({ ...p, message: explain(p, doc as Record<string, unknown>) })) : problems;
    return toMarkers(doc, worded);
  };
}

/** API version the Studio's own validation queries use. */
const API_VERSION = "2025-02-19";

/**
 * An offer page's or quiz's address must be its own: no other published offer page or quiz
 * lives there. (The app's own pages are refused by the app's schema, on the same field.)
 */
export const addressIsFree: CustomValidator<string | undefined> = async (path, context) => {
  if (!path || !context.document) return true;
  const id = String(context.document._id ?? "").replace(/^drafts\./, "");
  const taken: { _type: string; name: string } | null = await context
    .getClient({ apiVersion: API_VERSION })
    .fetch(
      `*[((_type == "offer" && path == $path) || (_type == "funnel" && route == $path)) && !(_id in [$id, $draft]) && !(_id in path("drafts.**"))][0]{_type, "name": coalesce(pageTitle, title, _id)}`,
      { path, id, draft: `drafts.${id}` },
    );
  return taken ? `"${path}" is already the address of the ${taken._type === "offer" ? "offer page" : "quiz"} "${taken.name}"` : true;
};
