import { useNavigate } from "@remix-run/react";
import { Suspense, useEffect, type ComponentType } from "react";
import { preloadable } from "~/utils/preloadable";
import type { Step } from "../../content-model/funnel";
import type { StepView, ViewOf } from "../view";
import { noteStepShown, registerNavigate, resumeUnsent } from "../answer-queue";
import { IntroStep } from "./intro-step";
import { QuestionStep } from "./question-step";

type LaterType = "analysing" | "insight" | "summary" | "email" | "result";
type Renderers = { [T in Exclude<Step["type"], LaterType>]: ComponentType<{ view: ViewOf<T> }> };

/** One renderer per step type; a new funnel needs no new components. */
const renderers: Renderers = {
  intro: IntroStep,
  question: QuestionStep,
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
