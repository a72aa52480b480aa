/**
 * Turns a stored funnel document into the funnel the engine runs: shared question
 * documents are put in place of their references, then the whole funnel is checked.
 */
import type { z } from "zod";
import { Funnel, FunnelDocument, Question } from "../content-model/funnel";

export type ResolveResult = { ok: true; funnel: Funnel } | { ok: false; problems: string[] };

/** Fields Sanity adds (_originalId: the draft's id, in the drafts perspective). */
const CMS_FIELDS = new Set(["_key", "_rev", "_createdAt", "_updatedAt", "$schema", "_originalId", "_system"]);

/**
 * Sanity adds array keys, system fields and, inside the document, the Studio's name for
 * each object ("questionStep", "option"); they mean nothing to the funnel format. A
 * reference keeps its `_type: "reference"`.
 */
export function stripCmsFields(value: unknown, depth = 0): unknown {
  if (Array.isArray(value)) return value.map((item) => stripCmsFields(item, depth + 1));
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      if (CMS_FIELDS.has(key)) continue;
      if (key === "_type" && depth > 0 && inner !== "reference") continue;
      out[key] = stripCmsFields(inner, depth + 1);
    }
    return out;
  }
  return value;
}

function problemsOf(error: z.ZodError, prefix = ""): string[] {
  return error.issues.map((issue) => `${prefix}${issue.path.length ? issue.path.join(".") : "(root)"}: ${issue.message}`);
}

/**
 * @param raw the funnel document as stored
 * @param shared question documents by _id, for `{ "_ref": ... }` questions
 */
export function resolveFunnel(raw: unknown, shared: ReadonlyMap<string, unknown>): ResolveResult {
  const parsed = FunnelDocument.safeParse(stripCmsFields(raw));
  if (!parsed.success) return { ok: false, problems: problemsOf(parsed.error) };
  const doc = parsed.data;
  const problems: string[] = [];

  const steps = doc.steps.map((step, i) => {
    if (step.type !== "question") return step;
    const questions = step.questions.map((q, j) => {
      if (!("_ref" in q)) return q;
      const target = shared.get(q._ref);
      if (target === undefined) {
        problems.push(`steps.${i}.questions.${j}._ref: no question document "${q._ref}"`);
        return undefined;
      }
      const { _id, _type, ...question } = stripCmsFields(target) as Record<string, unknown>;
      const checked = Question.safeParse(question);
      if (!checked.success) {
        problems.push(...problemsOf(checked.error, `steps.${i}.questions.${j} (${String(_id ?? q._ref)}): `));
        return undefined;
      }
      return checked.data;
    });
    return { ...step, questions };
  });
  if (problems.length) return { ok: false, problems };

  const { $schema, _id, _type, _rev, _createdAt, _updatedAt, ...rest } = doc;
  const funnel = Funnel.safeParse({ ...rest, steps });
  if (!funnel.success) return { ok: false, problems: problemsOf(funnel.error) };
  return { ok: true, funnel: funnel.data };
}

/** The _ids of shared question documents a funnel document refers to. */
export function sharedQuestionIds(raw: unknown): string[] {
  const ids = new Set<string>();
  const steps = (raw as { steps?: unknown })?.steps;
  if (!Array.isArray(steps)) return [];
  for (const step of steps) {
    const questions = (step as { questions?: unknown })?.questions;
    if (!Array.isArray(questions)) continue;
    for (const q of questions) if (q && typeof (q as { _ref?: unknown })._ref === "string") ids.add((q as { _ref: string })._ref);
  }
  return [...ids];
}
