/**
 * What the Studio's pickers offer, worked out from the document being edited (and the
 * documents it points at): a branch picks one of the quiz's steps, a condition one of the
 * answers its quiz asks and that answer's options, an offer's sections one of the offer's
 * plans, a link one of the app's pages. Pure functions of plain documents (no Studio
 * imports), so tests call them too; studio/inputs/pickers.tsx renders them.
 */

export type Choice = { value: string; title: string };
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
