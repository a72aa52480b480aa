import type { ComponentType } from "react";
import type { Step } from "../schema";
import type { StepView, ViewOf } from "../view";
import { AnalysingStep } from "./analysing-step";
import { AnswerNotice, useAnswerQueue } from "./answer-notice";
import { IntroStep } from "./intro-step";
import { QuestionStep } from "./question-step";
import { InsightStep, ResultStep } from "./result-step";
import { SummaryStep } from "./summary-step";

type Renderers = { [T in Step["type"]]: ComponentType<{ view: ViewOf<T> }> };

/** One renderer per step type; a new funnel needs no new components. */
const renderers: Renderers = {
  intro: IntroStep,
  question: QuestionStep,
  analysing: AnalysingStep,
  insight: InsightStep,
  summary: SummaryStep,
  result: ResultStep,
};

export function FunnelStep({ view }: { view: StepView }) {
  const Renderer = renderers[view.step.type] as ComponentType<{ view: StepView }>;
  useAnswerQueue(view);
  // A new key per step resets each renderer's local state (choices, timers).
  return (
    <>
      <AnswerNotice />
      <Renderer key={`${view.funnel.id}/${view.step.id}`} view={view} />
    </>
  );
}
