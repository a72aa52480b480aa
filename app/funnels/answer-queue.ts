/**
 * Instant answers (ADR 43). With JavaScript, a quiz answer shows the next step at once, worked
 * out in the browser by the pure funnel engine (nextPlainStep in step-view.ts), while the answer
 * goes to the server behind it: in order, one at a time, retried with backoff, each with a key of
 * its own (the server records its events once however often it arrives), and kept in
 * sessionStorage until the server has it, so a reload in the middle sends it again.
 *
 * The server stays the judge. When it puts the visitor somewhere else (a step they may not be
 * on, a refused answer) or an answer cannot be sent at all, the answers not yet sent are dropped,
 * the page says so calmly (AnswerNotice) and goes where the server says, the visitor's choices
 * kept (they preselect the question they are brought back to). Steps the browser cannot show by
 * itself (insights, summaries, results) wait for the server's page, as before.
 */
import { decode } from "turbo-stream";
import { formErrorsOf } from "~/utils/form-errors";
import { ANSWER_KEY_HEADER } from "./answer-key";
import type { Answers } from "./engine";
import { isHandoff, keepHandoff } from "./navigation";
import { nextPlainStep } from "./step-view";
import type { StepView } from "./view";

type Fields = [string, string][];

/** An answer on its way: the step's address, the form's fields, and the step the browser already showed for it. */
type Unsent = { key: string; action: string; fields: Fields; funnelId: string; shown: string | null };

/** What the server said to an answer. */
type Outcome =
  | { kind: "page"; to: string; page: StepView }
  | { kind: "go"; to: string }
  | { kind: "refused"; message: string }
  | { kind: "failed" };

export const NOTICES = {
  failed: "We couldn't save your last answer, so we've brought you back to it with your choice kept. Please check your connection and try again.",
  elsewhere: "Your answers were out of step with the ones we have saved, so we've taken you to where your quiz continues.",
  refused: "We've taken you back to that question.",
} as const;

/** Waits between tries: four tries in about 4.5 s, then the answer is given up and the visitor told. */
const RETRY_MS = [300, 1_000, 3_000];
const QUEUE_KEY = "gc-answers-unsent";
const answersKey = (funnelId: string) => `gc-answers:${funnelId}`;

// ---------------------------------------------------------------------------
// sessionStorage (this tab only), with memory when storage is refused (private modes)

const memory = new Map<string, string>();
function readStored<T>(key: string, fallback: T): T {
  try {
    const text = window.sessionStorage.getItem(key) ?? memory.get(key);
    return text ? (JSON.parse(text) as T) : fallback;
  } catch {
    return fallback;
  }
}
function writeStored(key: string, value: unknown): void {
  const text = JSON.stringify(value);
  memory.set(key, text);
  try {
    window.sessionStorage.setItem(key, text);
  } catch {
    // Memory keeps it for this page.
  }
}

const unsent = (): Unsent[] => readStored<Unsent[]>(QUEUE_KEY, []);

/** The answers this tab has given in a funnel (the server's cookie holds the ones it accepted). */
function knownAnswers(funnelId: string): Record<string, string | string[]> {
  return readStored(answersKey(funnelId), {});
}

// ---------------------------------------------------------------------------
// The page: where to go, and the notice

type Go = (to: string, options: { page?: StepView; replace?: boolean }) => void;
let goTo: Go = (to) => window.location.assign(to);
let notice: string | null = null;
const listeners = new Set<() => void>();

/** The funnel's page registers how to move (Remix's navigate) while it is on screen. */
export function registerNavigate(navigate: (to: string, options: { replace?: boolean }) => void): void {
  goTo = (to, { page, replace }) => {
    if (page) keepHandoff({ to, page });
    navigate(to, { replace });
  };
}

function tell(text: string | null): void {
  notice = text;
  listeners.forEach((listener) => listener());
}
export const noticeNow = () => notice;
export function onNotice(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * A step the server showed: its saved answers are the truth for its questions; a result clears
 * the answers (the server did), so the next quiz starts from nothing here too.
 */
export function noteStepShown(view: StepView): void {
  if (view.step.type === "result") writeStored(answersKey(view.funnel.id), {});
  else if (view.step.type === "question") writeStored(answersKey(view.funnel.id), { ...knownAnswers(view.funnel.id), ...view.answers });
}

// ---------------------------------------------------------------------------
// Answering

/** This page's answers are numbered from a random id, so no two tabs or loads share a key. */
const pageId = Array.from({ length: 20 }, () => "abcdefghijklmnopqrstuvwxyz0123456789"[Math.floor(Math.random() * 36)]).join("");
let answerCount = 0;
const waiting = new Map<string, (outcome: Outcome) => void>();

/**
 * Answers a question step: shows the next step now when the browser can work it out, else waits
 * for the server's page. Resolves when the step has moved on or the visitor has been told why not.
 */
export async function answerStep(view: StepView, fields: Fields, given: Answers): Promise<void> {
  const plan = view.plan;
  if (!plan) return;
  tell(null);
  const before = knownAnswers(plan.id);
  const after = { ...before, ...given } as Record<string, string | string[]>;
  writeStored(answersKey(plan.id), after);
  const next = nextPlainStep(plan, view.step.id, before, after, view.variant);
  const entry: Unsent = { key: `${pageId}-${++answerCount}`, action: `${plan.route}/${view.step.id}`, fields, funnelId: plan.id, shown: next?.to ?? null };
  writeStored(QUEUE_KEY, [...unsent(), entry]);
  if (next) {
    goTo(next.to, { page: next.page });
    void sendAll();
    return;
  }
  const outcome = await new Promise<Outcome>((resolve) => {
    waiting.set(entry.key, resolve);
    void sendAll();
  });
  if (outcome.kind === "page") goTo(outcome.to, { page: outcome.page });
  else if (outcome.kind === "go") goTo(outcome.to, {});
  else tell(outcome.kind === "refused" ? outcome.message : NOTICES.failed);
}

let sending: Promise<void> | null = null;

/** Sends what is unsent, oldest first; resolves when nothing is left (also what a page load waits for). */
export function sendAll(): Promise<void> {
  sending ??= (async () => {
    try {
      for (let entry = unsent()[0]; entry; entry = unsent()[0]) {
        const outcome = await send(entry);
        writeStored(
          QUEUE_KEY,
          unsent().filter((other) => other.key !== entry.key),
        );
        settle(entry, outcome);
      }
    } finally {
      sending = null;
    }
  })();
  return sending;
}

/** Resolves once every answer given so far has been sent: a page asked of the server reflects them all. */
export const answersSent = (): Promise<void> => (unsent().length ? sendAll() : Promise.resolve());

/** A page from the server, once the answers before it are in; a question shows the choices this tab made. */
export async function pageAfterAnswersSent<T>(load: () => Promise<T>): Promise<T> {
  await answersSent();
  const page = await load();
  if (typeof page !== "object" || page === null || !("step" in page) || !("funnel" in page)) return page;
  const view = page as unknown as StepView;
  if (view.step.type !== "question") return page;
  const known = knownAnswers(view.funnel.id);
  const chosen = Object.fromEntries(view.step.questions.flatMap((q) => (known[q.field] !== undefined ? [[q.field, known[q.field]]] : [])));
  return { ...page, answers: { ...chosen, ...view.answers } };
}

function settle(entry: Unsent, outcome: Outcome): void {
  const waiter = waiting.get(entry.key);
  waiting.delete(entry.key);
  if (waiter) return waiter(outcome);
  const to = outcome.kind === "page" || outcome.kind === "go" ? outcome.to : null;
  if (to !== null && to === entry.shown) {
    // Sent again after a reload: the visitor goes back to where that answer had taken them.
    if (unsent().length === 0 && resumed && window.location.pathname !== to) goTo(to, { page: outcome.kind === "page" ? outcome.page : undefined, replace: true });
    return;
  }
  // The server disagrees, refused the answer, or it could not be sent: what came after it goes too.
  writeStored(QUEUE_KEY, []);
  for (const [key, resolve] of waiting) {
    waiting.delete(key);
    resolve({ kind: "failed" });
  }
  if (outcome.kind === "page") {
    tell(NOTICES.elsewhere);
    goTo(outcome.to, { page: outcome.page, replace: true });
  } else if (outcome.kind === "go") {
    tell(NOTICES.elsewhere);
    goTo(outcome.to, { replace: true });
  } else {
    tell(outcome.kind === "refused" ? `${outcome.message} ${NOTICES.refused}` : NOTICES.failed);
    goTo(entry.action, { replace: true });
  }
}

let resumed = false;

/** On a page load: answers a reload interrupted are sent again (their keys unchanged). */
export function resumeUnsent(): void {
  if (resumed || unsent().length === 0) return;
  resumed = true;
  void sendAll();
}

/** One answer to the server, tried again (same key) after a network failure or a server error. */
async function send(entry: Unsent): Promise<Outcome> {
  for (let attempt = 0; ; attempt++) {
    try {
      const response = await fetch(`${entry.action}.data`, {
        method: "POST",
        body: new URLSearchParams(entry.fields),
        headers: { [ANSWER_KEY_HEADER]: entry.key },
      });
      if (response.status < 500 && response.status !== 429 && response.body) return outcomeOf(response.body);
    } catch {
      // Network failure: tried again below.
    }
    if (attempt >= RETRY_MS.length) return { kind: "failed" };
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS[attempt]));
  }
}

/** The content route's answer, as Remix's single fetch encodes it: a redirect, a handoff, or a refused form. */
async function outcomeOf(body: ReadableStream<Uint8Array>): Promise<Outcome> {
  // Any typed value (an error, a thrown response) is not an answer we can follow.
  const { value } = await decode(body, { plugins: [(type: string) => ({ value: { unreadable: type } })] });
  const result = value as { redirect?: string; data?: unknown };
  if (typeof result.redirect === "string") return { kind: "go", to: result.redirect };
  if (isHandoff(result.data)) return { kind: "page", ...result.data.handoff };
  const errors = formErrorsOf(result.data as Parameters<typeof formErrorsOf>[0]);
  return errors ? { kind: "refused", message: errors.join(" ") } : { kind: "failed" };
}
