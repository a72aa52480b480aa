import { useNavigate } from "@remix-run/react";
import { Suspense, useEffect, useLayoutEffect, useRef, useState, type ComponentType } from "react";
import { flushSync } from "react-dom";
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

/** Runs as the render is put on screen (React's layout effect; the server renders no screen, and says so). */
const useCommitEffect = typeof document === "undefined" ? useEffect : useLayoutEffect;

/** A page an answer led to, on screen until the route's data moves on from `from`. */
type ShownEarly = { from: StepView; page: StepView };

/**
 * Connects the page to the answers on their way (app/funnels/answer-queue.ts): how to move when
 * the server says so, what the server showed, and the answers a reload interrupted. Returns the
 * step to render: the one an answer led to, from the tap until the route's data moves on (the
 * router renders its navigations as transitions, a frame or more after the tap), else the route's.
 */
function useAnswerQueue(routeView: StepView): StepView {
  const navigate = useNavigate();
  const [early, setEarly] = useState<ShownEarly | null>(null);
  // The route's view on screen now (set at each commit): a tap may come before this render's effects run.
  const onScreen = useRef(routeView);
  useCommitEffect(() => {
    onScreen.current = routeView;
  }, [routeView]);
  useEffect(
    () =>
      registerNavigate(
        (to, options) => navigate(to, options),
        (page) => flushSync(() => setEarly({ from: onScreen.current, page })),
      ),
    [navigate],
  );
  useEffect(() => noteStepShown(routeView), [routeView]);
  useEffect(resumeUnsent, []);
  return early?.from === routeView ? early.page : routeView;
}

export function FunnelStep({ view: routeView }: { view: StepView }) {
  const view = useAnswerQueue(routeView);
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
