import type { ComponentType } from "react";
import { preloadable } from "~/utils/preloadable";
import type { Step } from "../../content-model/funnel";
import type { StepView, ViewOf } from "../view";
import { AnalysingStep } from "./analysing-step";
import { IntroStep } from "./intro-step";
import { QuestionStep } from "./question-step";
import { InsightStep, ResultStep } from "./result-step";
import { SummaryStep } from "./summary-step";

type Renderers = { [T in Step["type"]]: ComponentType<{ view: ViewOf<T> }> };

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
  analysing: AnalysingStep,
  insight: InsightStep,
  summary: SummaryStep,
  email: EmailStep,
  result: ResultStep,
};

export function FunnelStep({ view }: { view: StepView }) {
  const Renderer = renderers[view.step.type] as ComponentType<{ view: StepView }>;
  // A new key per step resets each renderer's local state (choices, timers).
  return <Renderer key={`${view.funnel.id}/${view.step.id}`} view={view} />;
}
