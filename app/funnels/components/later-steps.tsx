/**
 * The steps that come after a funnel's questions (the analysing screen, an insight, a summary of
 * answers, the e-mail step (ADR 44), the result): a chunk of their own (funnel-step.tsx), so the question steps, where paid
 * traffic taps through, carry none of their code.
 */
import type { ComponentType } from "react";
import type { StepView } from "../view";
import { AnalysingStep } from "./analysing-step";
import { EmailStep } from "./email-step";
import { InsightStep, ResultStep } from "./result-step";
import { SummaryStep } from "./summary-step";

export const laterRenderers = { analysing: AnalysingStep, insight: InsightStep, summary: SummaryStep, email: EmailStep, result: ResultStep } as Record<
  string,
  ComponentType<{ view: StepView }>
>;
