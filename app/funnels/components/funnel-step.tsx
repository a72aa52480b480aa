import { useLocation, useNavigate } from "@remix-run/react";
import { memo, Suspense, useEffect, useLayoutEffect, useRef, useState, type ComponentType } from "react";
import { flushSync } from "react-dom";
import { preloadable } from "~/utils/preloadable";
import type { Step } from "../../content-model/funnel";
import type { StepView, ViewOf } from "../view";
import { noteStepShown, registerNavigate, resumeUnsent } from "../answer-queue";
import { IntroStep } from "./intro-step";
import { QuestionStep } from "./question-step";

type LaterType = "analysing" | "insight" | "summary" | "email" | "result";
type Renderers = { [T in Exclude<Step["type"], LaterType>]: ComponentType<{ view: ViewOf<T> }> };

/**
 * One renderer per step type; a new funnel needs no new components. Memoised: when the router
 * arrives at a step an answer already put on screen, the route hands over the very same page
 * (app/funnels/navigation.ts), and the step is not rendered again for it.
 */
const renderers: Renderers = {
  intro: memo(IntroStep),
  question: memo(QuestionStep),
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

/**
 * A page an answer led to, and its address: on screen until the router has arrived there.
 * `from`: the router's location when the first of these answers was given; `via`: every address
 * answers have sent the router to since (it may land an earlier one first). The router arriving
 * anywhere else (a link followed before it got there) ends the early page.
 */
type ShownEarly = { to: string; page: StepView; from: string; via: string[] };

/**
 * Connects the page to the answers on their way (app/funnels/answer-queue.ts): how to move when
 * the server says so, what the server showed, and the answers a reload interrupted. Returns the
 * step to render: the one an answer led to, from the tap until the router is at its address
 * (the router renders its navigations as transitions, a frame or more after the tap, and may
 * first land an earlier answer's step: that is not shown again), else the route's.
 */
function useAnswerQueue(routeView: StepView): StepView {
  const navigate = useNavigate();
  const location = useLocation();
  const at = location.pathname;
  const locationKey = useRef(location.key);
  const [early, setEarly] = useState<ShownEarly | null>(null);
  useEffect(
    () =>
      registerNavigate(
        (to, options) => navigate(to, options),
        (shown) =>
          flushSync(() =>
            setEarly((before) => shown && { ...shown, from: before?.from ?? locationKey.current, via: [...(before?.via ?? []), shown.to] }),
          ),
      ),
    [navigate],
  );
  useCommitEffect(() => {
    locationKey.current = location.key;
    if (!early) return;
    // Arrived: the route's own page from here on (the same page, handed over). Or gone
    // somewhere no answer sent it (a link followed before it arrived): that place's page.
    if (at === early.to || (location.key !== early.from && !early.via.includes(at))) setEarly(null);
  }, [at, location.key, early]);
  // Back and forward go where the browser says, whatever was shown early.
  useEffect(() => {
    const drop = () => setEarly(null);
    window.addEventListener("popstate", drop);
    return () => window.removeEventListener("popstate", drop);
  }, []);
  useEffect(() => noteStepShown(routeView), [routeView]);
  useEffect(resumeUnsent, []);
  return early && at !== early.to ? early.page : routeView;
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
