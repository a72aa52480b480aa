/**
 * The goals a member can explore from /profile: the prototype app's goal step ('Choose your
 * starting focus') promises "You can explore other goals later in your profile." Each goal is
 * its option on that step, leading where choosing it leads, so the two never disagree.
 */
import { nextTarget } from "~/funnels/engine";
import type { Funnel } from "~/content-model/funnel";

export type GoalChoice = { label: string; description: string | null; href: string };

export function goalChoices(goalFunnel: Funnel | null): GoalChoice[] {
  const step = goalFunnel?.steps.find((s) => s.type === "question");
  if (!step || step.type !== "question") return [];
  const [question] = step.questions;
  return question.options.flatMap((option) => {
    const target = nextTarget(step.next, { [question.field]: option.value });
    return "href" in target ? [{ label: option.label, description: option.description ?? null, href: target.href }] : [];
  });
}
