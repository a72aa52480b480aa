/**
 * Instant answers (ADR 43). With JavaScript, a quiz answer shows the next step at once, worked
 * out in the browser by the pure funnel engine (nextPlainStep in step-view.ts), while the answer
 * goes to the server behind it: in order, one at a time, retried with backoff, each with a key of
 * its own (the server records its events once however often it arrives), and kept in
 * sessionStorage until the server has it, so a reload in the middle sends it again.
 *
 * The server stays the judge. When it puts the visitor somewhere else (a step they may not be
 * on, a refused answer) or an answer cannot be sent at all, the answers not yet sent are dropped,
 * the page says so calmly (the site's toast) and goes where the server says, the visitor's choices
 * kept (they preselect the question they are brought back to). Steps the browser cannot show by
 * itself (insights, summaries, results) wait for the server's page, as before.
 */
import { decode } from "turbo-stream";
import { showToast, type ToastMessage } from "~/components/ui/toaster";
import { formErrorsOf } from "~/utils/form-errors";
import { ANSWER_KEY_HEADER } from "./answer-key";
import type { Answers } from "./engine";
import { isHandoff, keepHandoff } from "./navigation";
import type { Step } from "../content-model/funnel";
import { answersAfter, nextPlainStep, stepAnswers } from "./step-view";
import type { StepView } from "./view";

type Fields = [string, string][];

/** An answer on its way: the step's address, the form's fields, and the step the browser already showed for it. */
type Unsent = { key: string; action: string; fields: Fields; shown: string | null };

/** What the server said to an answer. */
type Outcome =
  | { kind: "page"; to: string; page: StepView }
  | { kind: "go"; to: string }
  | { kind: "refused"; message: string }
  | { kind: "failed" };

export const NOTICES = {
  failed: { title: "Your answer wasn't saved", description: "Your choice is kept: please try again." },
  elsewhere: { title: "We've picked up where your saved answers are" },
} satisfies Record<string, ToastMessage>;
const refusedNotice = (why: string): ToastMessage => ({ title: "Please check that answer", description: why });

/** Waits between tries: four tries in about 4.5 s, then the answer is given up and the visitor told. */
const RETRY_MS = [300, 1_000, 3_000];
const QUEUE_KEY = "gc-answers-unsent";
const answersKey = (funnelId: string) => `gc-answers:${funnelId}`;

// ---------------------------------------------------------------------------
// Kept in memory, and in sessionStorage (this tab only) when the browser allows it

function stored<T>(key: string, fallback: T): T {
  try {
    return (JSON.parse(window.sessionStorage.getItem(key) ?? "null") as T) ?? fallback;
  } catch {
    return fallback;
  }
}
function store(key: string, value: unknown): void {
  try {
    const json = JSON.stringify(value);
    // A write costs a millisecond or more in Chromium; a step shown usually changes nothing.
    if (window.sessionStorage.getItem(key) !== json) window.sessionStorage.setItem(key, json);
  } catch {
    // Private modes: this page's memory still has it.
  }
}

let queue: Unsent[] | undefined;
const unsent = (): Unsent[] => (queue ??= stored<Unsent[]>(QUEUE_KEY, []));
function setUnsent(entries: Unsent[]): void {
  queue = entries;
  store(QUEUE_KEY, entries);
}

/**
 * The answers this tab has given in a funnel (the server's cookie holds the ones it accepted).
 * Without sessionStorage none are known, and each answer waits for the server's page.
 */
const knownAnswers = (funnelId: string): Record<string, string | string[]> => stored(answersKey(funnelId), {});
const setKnownAnswers = (funnelId: string, answers: Record<string, string | string[]>) => store(answersKey(funnelId), answers);

// ---------------------------------------------------------------------------
// The page: where to go

type Go = (to: string, options: { page?: StepView; replace?: boolean }) => void;
let goTo: Go = (to) => window.location.assign(to);

/**
 * The funnel's page registers how to move while it is on screen: `show` puts a page on screen at
 * once, in the task of the tap (or, given none, stops showing one early); the router's own
 * render comes a task or more later, after the frame the visitor is waiting for. `navigate`
 * (Remix's) then moves the address, and the route takes the same page from the handoff.
 */
export function registerNavigate(
  navigate: (to: string, options: { replace?: boolean }) => void,
  show: (shown: { to: string; page: StepView } | null) => void,
): void {
  goTo = (to, { page, replace }) => {
    show(page ? { to, page } : null);
    if (page) keepHandoff({ to, page });
    navigate(to, { replace });
  };
}

/**
 * A step the server showed: its saved answers are the truth for its questions; a result clears
 * the answers (the server did), so the next quiz starts from nothing here too.
 */
export function noteStepShown(view: StepView): void {
  if (view.step.type === "result") setKnownAnswers(view.funnel.id, {});
  else if (view.step.type === "question") setKnownAnswers(view.funnel.id, { ...knownAnswers(view.funnel.id), ...view.answers });
}

// ---------------------------------------------------------------------------
// Answering

/** This page's answers are numbered from a random id, so no two tabs or loads share a key. */
const pageId = Array.from(crypto.getRandomValues(new Uint32Array(4)), (n) => n.toString(36).padStart(7, "0")).join("");
let answerCount = 0;
const waiting = new Map<string, (outcome: Outcome) => void>();

/**
 * Answers a question step (or starts from an intro): shows the next step now when the browser can
 * work it out, else waits for the server's page. Resolves when the step has moved on or the
 * visitor has been told why not.
 */
export async function answerStep(view: StepView, fields: Fields, given: Answers): Promise<void> {
  const plan = view.plan;
  if (!plan) return;
  const before = knownAnswers(plan.id);
  const after = answersAfter(view.step, before, given) as Record<string, string | string[]>;
  setKnownAnswers(plan.id, after);
  const next = nextPlainStep(plan, view.step.id, before, after, view.variant);
  const entry: Unsent = { key: `${pageId}-${++answerCount}`, action: `${plan.route}/${view.step.id}`, fields, shown: next?.to ?? null };
  setUnsent([...unsent(), entry]);
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
  else showToast(outcome.kind === "refused" ? refusedNotice(outcome.message) : NOTICES.failed);
}

let sending: Promise<void> | null = null;

/** Sends what is unsent, oldest first; resolves when nothing is left (also what a page load waits for). */
export function sendAll(): Promise<void> {
  sending ??= (async () => {
    try {
      for (let entry = unsent()[0]; entry; entry = unsent()[0]) {
        const outcome = await send(entry);
        setUnsent(unsent().filter((other) => other.key !== entry.key));
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
  return { ...page, answers: { ...stepAnswers(view.step as Step, knownAnswers(view.funnel.id)), ...view.answers } };
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
  setUnsent([]);
  for (const [key, resolve] of waiting) {
    waiting.delete(key);
    resolve({ kind: "failed" });
  }
  showToast(outcome.kind === "refused" ? refusedNotice(outcome.message) : outcome.kind === "failed" ? NOTICES.failed : NOTICES.elsewhere);
  if (outcome.kind === "page" || outcome.kind === "go") goTo(outcome.to, { page: outcome.kind === "page" ? outcome.page : undefined, replace: true });
  else goTo(entry.action, { replace: true });
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
