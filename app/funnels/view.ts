/** What a funnel step's page receives from the server (shared by the loader and the renderers). */
import type { Funnel, Step, StepOfType } from "../content-model/funnel";

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A step as the page needs it: no branching rules, no other steps. */
export type ClientStep = DistributiveOmit<Step, "next" | "pick">;
export type ClientStepOfType<T extends Step["type"]> = Omit<StepOfType<T>, "next" | "pick">;

export type InsightView = { title: string; summary: string; body: string[]; highlights: string[] };

export type StepView = {
  funnel: { id: string; route: string; pageTitle: string };
  step: ClientStep;
  /** Saved answers for this step's questions (to preselect them). */
  answers: Record<string, string | string[]>;
  backHref?: string;
  /** Where the step leads when it moves on by itself or by link (intro, analysing, insight, summary). */
  nextHref?: string;
  insight?: InsightView;
  /** Summary cards: each chosen option's short wording. */
  cards?: { title: string; values: string[] }[];
  /** The result's typical-progress chart as HTML rendered on the server (ADR 42); absent when the plan has none. */
  progressChartHtml?: string;
  /** The experiment variants this visitor runs the funnel in ("experiment:variant"), when any. */
  variant?: string;
  /**
   * On a question step: the funnel (this visitor's version), its steps' labels and progress
   * worked out, so the browser can show the next step the moment it is answered (ADR 43).
   */
  plan?: Funnel;
};

export type ViewOf<T extends Step["type"]> = Omit<StepView, "step"> & { step: ClientStepOfType<T> };
