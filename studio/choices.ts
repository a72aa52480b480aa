/**
 * What the Studio's pickers offer, worked out from the document being edited (and the
 * documents it points at): a branch picks one of the quiz's steps, a condition one of the
 * answers its quiz asks and that answer's options, an offer's sections one of the offer's
 * plans, a link one of the app's pages. In an experiment the steps and answers are those of
 * the quiz it changes, and the plans those of the offer it changes. Pure functions of plain
 * documents and a fetch (no Studio imports), so tests call them too; studio/inputs/pickers.tsx
 * renders them.
 */

export type Choice = { value: string; title: string };
/** A field's picker, named in its schema's `options.picker`. */
export type Picker = "step" | "answerField" | "answerValues" | "offerPlan" | "offerPlans" | "funnelId" | "funnelIds" | "page";
/** A GROQ query against the dataset (the Studio's client: drafts over published). */
export type Fetch = (query: string, params?: Record<string, unknown>) => Promise<unknown>;
/** Where a field is in its document, as the Studio says: field names, array indexes and item keys. */
export type FieldPath = readonly (string | number | { _key: string })[];
/** An answer a quiz asks: its field name, the question and its options. */
export type AnswerChoice = { field: string; title: string; options: Choice[] };

type Loose = Record<string, unknown>;
const isObject = (value: unknown): value is Loose => value !== null && typeof value === "object" && !Array.isArray(value);
const list = (value: unknown): Loose[] => (Array.isArray(value) ? value.filter(isObject) : []);
const str = (value: unknown): string | undefined => (typeof value === "string" && value.trim() ? value : undefined);

/** The steps of a quiz a branch may go to: "3 · What's your skin type?". */
export function stepChoices(funnel: unknown): Choice[] {
  if (!isObject(funnel)) return [];
  return list(funnel.steps).flatMap((step) => {
    const id = str(step.id);
    if (!id) return [];
    const heading = str(step.title) ?? str(step.headline) ?? str(step.type) ?? "";
    return [{ value: id, title: heading ? `${id} · ${heading}` : id }];
  });
}

/** The shared questions a quiz document asks (their ids), to fetch for answerChoices. */
export function sharedQuestionRefs(funnels: unknown[]): string[] {
  const refs = funnels.flatMap((funnel) =>
    isObject(funnel) ? list(funnel.steps).flatMap((step) => list(step.questions).flatMap((q) => (str(q._ref) ? [q._ref as string] : []))) : [],
  );
  return [...new Set(refs)];
}

/**
 * Every answer the quizzes ask, in the order they ask them: inline questions and shared
 * ones (given by id, as fetched). A field asked twice keeps its first wording, with the
 * options of both.
 */
export function answerChoices(funnels: unknown[], shared: ReadonlyMap<string, unknown>): AnswerChoice[] {
  const byField = new Map<string, AnswerChoice>();
  for (const funnel of funnels) {
    if (!isObject(funnel)) continue;
    for (const step of list(funnel.steps)) {
      for (const item of list(step.questions)) {
        const question = str(item._ref) ? shared.get(item._ref as string) : item;
        if (!isObject(question)) continue;
        const field = str(question.field);
        if (!field) continue;
        const entry = byField.get(field) ?? { field, title: str(question.label) ?? str(step.title) ?? field, options: [] };
        for (const option of list(question.options)) {
          const value = str(option.value);
          if (value && !entry.options.some((o) => o.value === value)) entry.options.push({ value, title: str(option.label) ?? value });
        }
        byField.set(field, entry);
      }
    }
  }
  return [...byField.values()];
}

/** The plans of an offer its sections may name: "annual · Annual Plan". */
export function offerPlanChoices(offer: unknown): Choice[] {
  if (!isObject(offer)) return [];
  return list(offer.plans).flatMap((plan) => {
    const id = str(plan.id);
    return id ? [{ value: id, title: str(plan.name) ? `${id} · ${plan.name as string}` : id }] : [];
  });
}

/** Quizzes by id: "skin · Skin quiz". */
export function funnelChoices(funnels: unknown[]): Choice[] {
  return funnels.flatMap((funnel) => {
    if (!isObject(funnel) || !str(funnel.id)) return [];
    return [{ value: funnel.id as string, title: str(funnel.title) ? `${funnel.id as string} · ${funnel.title as string}` : (funnel.id as string) }];
  });
}

/** Pages a link may lead to that content creates: every offer page and quiz, by address. */
export function pageChoices(offers: unknown[], funnels: unknown[]): Choice[] {
  const pages: Choice[] = [];
  for (const offer of offers)
    if (isObject(offer) && str(offer.path))
      pages.push({ value: offer.path as string, title: `${offer.path as string} · offer: ${str(offer.pageTitle) ?? ""}` });
  for (const funnel of funnels)
    if (isObject(funnel) && str(funnel.route))
      pages.push({ value: funnel.route as string, title: `${funnel.route as string} · quiz: ${str(funnel.title) ?? ""}` });
  return pages.sort((a, b) => a.value.localeCompare(b.value));
}

const refOf = (value: unknown): string | undefined => (isObject(value) ? str(value._ref) : undefined);

/** The value at `path` in a document (undefined where there is none). */
export function valueAt(doc: unknown, path: FieldPath): unknown {
  let node = doc;
  for (const segment of path) {
    if (typeof segment === "object") node = Array.isArray(node) ? node.find((item) => isObject(item) && item._key === segment._key) : undefined;
    else if (typeof segment === "number") node = Array.isArray(node) ? node[segment] : undefined;
    else node = isObject(node) ? node[segment] : undefined;
  }
  return node;
}

/**
 * The quizzes whose steps and answers a document's pickers offer: a quiz its own, a plan the
 * quizzes it takes answers from, an experiment the quiz it changes (fetched: its steps are
 * not in the experiment).
 */
async function quizzesOf(doc: Loose, fetch: Fetch): Promise<Loose[]> {
  if (doc._type === "funnel") return [doc];
  const ids =
    doc._type === "plan"
      ? list(doc.answersFrom).flatMap((r) => (refOf(r) ? [refOf(r)!] : []))
      : doc._type === "experiment" && refOf(doc.funnel)
        ? [refOf(doc.funnel)!]
        : [];
  return ids.length ? list(await fetch(`*[_type == "funnel" && _id in $ids]{_id, steps}`, { ids })) : [];
}

async function answersOf(doc: Loose, fetch: Fetch): Promise<AnswerChoice[]> {
  const quizzes = await quizzesOf(doc, fetch);
  const refs = sharedQuestionRefs(quizzes);
  const shared = refs.length ? list(await fetch(`*[_type == "question" && _id in $ids]`, { ids: refs })) : [];
  return answerChoices(quizzes, new Map(shared.map((q) => [String(q._id), q])));
}

/** The offer whose plans a document's pickers offer: an offer its own, an experiment the offer it changes. */
async function offerOf(doc: Loose, fetch: Fetch): Promise<unknown> {
  if (doc._type === "offer") return doc;
  const id = doc._type === "experiment" ? refOf(doc.offer) : undefined;
  return id ? fetch(`*[_type == "offer" && _id == $id][0]{plans}`, { id }) : null;
}

/**
 * What the picker of the field at `path` in `doc` (the document being edited) offers. A
 * branch's step and the steps of an experiment are steps of one quiz (the first, for a plan,
 * which has no branches); a condition's options are those of the answer its `field` names.
 */
export async function pickerChoices(picker: Picker, doc: unknown, path: FieldPath, fetch: Fetch): Promise<Choice[]> {
  const document = isObject(doc) ? doc : {};
  switch (picker) {
    case "step":
      return stepChoices((await quizzesOf(document, fetch))[0]);
    case "answerField":
      return (await answersOf(document, fetch)).map((a) => ({ value: a.field, title: `${a.field} · ${a.title}` }));
    case "answerValues": {
      const field = valueAt(document, [...path.slice(0, -1), "field"]);
      return (await answersOf(document, fetch)).find((a) => a.field === field)?.options ?? [];
    }
    case "offerPlan":
    case "offerPlans":
      return offerPlanChoices(await offerOf(document, fetch));
    case "funnelId":
    case "funnelIds":
      return funnelChoices(list(await fetch(`*[_type == "funnel"] | order(id asc){id, title}`)));
    case "page": {
      const pages = await fetch(`{"offers": *[_type == "offer"]{path, pageTitle}, "funnels": *[_type == "funnel"]{route, title}}`);
      return isObject(pages) ? pageChoices(list(pages.offers), list(pages.funnels)) : [];
    }
  }
}
