import { useNavigate } from "@remix-run/react";
import { Suspense, useEffect, type ComponentType } from "react";
import { preloadable } from "~/utils/preloadable";
import type { Step } from "../../content-model/funnel";
import type { StepView, ViewOf } from "../view";
import { noteStepShown, registerNavigate, resumeUnsent } from "../answer-queue";
import { IntroStep } from "./intro-step";
import { QuestionStep } from "./question-step";

type LaterType = "analysing" | "insight" | "summary" | "result";
type Renderers = { [T in Exclude<Step["type"], LaterType>]: ComponentType<{ view: ViewOf<T> }> };

/**
 * The e-mail step (ADR 44) is a chunk of its own: a quiz shows it once at most, so the other
 * steps, where paid traffic lands, carry none of its code. The server loads it before rendering
 * that step (the route's loader); the browser while hydrating, or ahead from the analysing step.
 */
export const emailStepModule = preloadable(() => import("./email-step"));

/**
 * Suspends until the chunk is here. No boundary of its own: while hydrating React keeps the
 * server's HTML, and a navigation (a transition) keeps the previous step on screen meanwhile.
 */
function EmailStep({ view }: { view: ViewOf<"email"> }) {
  const module = emailStepModule.get();
  if (!module) throw emailStepModule.load();
  return <module.EmailStep view={view} />;
}

/** One renderer per step type; a new funnel needs no new components. */
const renderers: Renderers = {
  intro: IntroStep,
  question: QuestionStep,
  email: EmailStep,
};

/**
 * The renderers of the steps after the questions, loaded apart (ADR 43): before rendering on the
 * server (the route's loader), while hydrating in the browser (React keeps the server's HTML
 * until they are there), and ahead of need from every question step, once it is on screen.
 */
export const laterSteps = preloadable(() => import("./later-steps"));

export function isLaterStep(view: StepView): boolean {
  return !(view.step.type in renderers);
}

function LaterStep({ view }: { view: StepView }) {
  const module = laterSteps.get();
  if (!module) throw laterSteps.load();
  const Renderer = module.laterRenderers[view.step.type];
  return <Renderer view={view} />;
}

/**
 * Connects the page to the answers on their way (app/funnels/answer-queue.ts): how to move when
 * the server says so, what the server showed, and the answers a reload interrupted.
 */
function useAnswerQueue(view: StepView) {
  const navigate = useNavigate();
  useEffect(() => registerNavigate((to, options) => navigate(to, options)), [navigate]);
  useEffect(() => noteStepShown(view), [view]);
  useEffect(resumeUnsent, []);
}

export function FunnelStep({ view }: { view: StepView }) {
  useAnswerQueue(view);
  const question = view.step.type === "question";
  useEffect(() => {
    if (question) void laterSteps.load();
  }, [question]);
  // A new key per step resets each renderer's local state (choices, timers).
  const key = `${view.funnel.id}/${view.step.id}`;
  const Renderer = renderers[view.step.type as keyof Renderers] as ComponentType<{ view: StepView }> | undefined;
  return Renderer ? (
    <Renderer key={key} view={view} />
  ) : (
    <Suspense fallback={null}>
      <LaterStep key={key} view={view} />
    </Suspense>
  );
}
